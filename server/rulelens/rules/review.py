"""`rulelens review --base REF`: the rules a change touches, for a reviewer (issue 13).

The change is `git diff --name-status REF...HEAD` (what the branch did since it left REF, as a
pull request shows it). For each path it adds, modifies or renames: the rules that apply now.
Also the rule files it touched, and the globs that matched files the change moved or deleted and
now match nothing ("this PR moved app/Billing; billing.md now matches nothing").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rulelens.report.github import annotation
from rulelens.rules.format.globs import patterns_of
from rulelens.rules.model import Match, RuleError, RuleFile
from rulelens.rules.project.filelist import FileList
from rulelens.rules.project.git import completed
from rulelens.rules.repository import RuleRepository

STATUS = {"A": "added", "M": "modified", "R": "renamed", "C": "copied", "D": "deleted",
          "T": "type-changed"}


@dataclass(frozen=True)
class Change:
    status: str
    path: str
    old: str | None = None  # the path before a rename or copy


@dataclass(frozen=True)
class EmptiedGlob:
    """A glob that matched paths the change moved or deleted, and now matches nothing."""

    file: str
    line: int  # 0-based
    glob: str
    left: tuple[Change, ...]


@dataclass
class Review:
    base: str
    changes: list[Change]
    matches: dict[str, list[Match]] = field(default_factory=dict)
    touched: list[Change] = field(default_factory=list)
    emptied: list[EmptiedGlob] = field(default_factory=list)

    def emptied_by(self, change: Change) -> list[EmptiedGlob]:
        return [e for e in self.emptied if change in e.left]


def changes_since(repo: RuleRepository, base: str) -> list[Change]:
    """The change's paths (root-relative, below the root), from git."""
    if base.startswith("-"):
        raise RuleError(f"--base {base} is not a git revision.")
    out = completed(repo.root, "diff", "--name-status", "-z", "--find-renames", "--relative",
                    f"{base}...HEAD", "--")
    if out is None:
        raise RuleError("git diff failed: git is not installed or did not answer in time.")
    if out.returncode != 0:
        first = (out.stderr.decode("utf-8", "replace").strip().splitlines() or ["git diff failed"])[0]
        raise RuleError(f"Cannot review against {base}: {first.removeprefix('fatal: ')}")
    fields = out.stdout.decode("utf-8", "surrogateescape").split("\0")
    changes: list[Change] = []
    i = 0
    while i < len(fields) and fields[i]:
        code = fields[i][0]
        if code in "RC":
            changes.append(Change(STATUS[code], fields[i + 2], fields[i + 1]))
            i += 3
        else:
            changes.append(Change(STATUS.get(code, "modified"), fields[i + 1]))
            i += 2
    return changes


def review(repo: RuleRepository, base: str, files: FileList | None = None) -> Review:
    changes = changes_since(repo, base)
    files = files if files is not None else FileList.for_root(repo.root)
    result = Review(base, changes)
    for change in changes:
        if change.status != "deleted":
            result.matches[change.path] = repo.rules_for(change.path)
        if repo.is_rule_file(change.path) or repo.is_index(change.path) or (
                change.old is not None and repo.is_rule_file(change.old)):
            result.touched.append(change)
    departed = {(c.old if c.old is not None and c.status == "renamed" else c.path): c
                for c in changes if c.status in ("renamed", "deleted")}
    result.emptied = list(_emptied(repo.files, files, departed))
    return result


def _emptied(rules: list[RuleFile], files: FileList, departed: dict[str, Change]) -> Iterable[EmptiedGlob]:
    if not departed:
        return
    gone = FileList(list(departed))
    for rule in rules:
        for item in rule.glob_items:
            text = item.text.strip()
            includes = [p for p in patterns_of(text) if p.include]
            if not includes or any(files.pattern_matches_any(p) for p in includes):
                continue
            left = tuple(departed[p] for p in gone.matching(text))
            if left:
                yield EmptiedGlob(rule.rel, item.line, text, left)


# -- rendering -------------------------------------------------------------------------------
def _grouped(result: Review) -> list[tuple[Match, list[Change]]]:
    """Each rule file that applies to a changed path, with those paths, in index order."""
    groups: dict[str, tuple[Match, list[Change]]] = {}
    for change in result.changes:
        for m in result.matches.get(change.path, []):
            groups.setdefault(m.rule.rel, (m, []))[1].append(change)
    return [groups[k] for k in sorted(groups, key=lambda r: r.encode())]


def _unruled(result: Review) -> list[Change]:
    return [c for c in result.changes if c.status != "deleted" and not result.matches.get(c.path)]


def _how(change: Change) -> str:
    return f"renamed from {change.old}" if change.old is not None and change.status == "renamed" else (
        f"copied from {change.old}" if change.old is not None else change.status)


def _departure(change: Change) -> str:
    if change.status == "renamed":
        return f"{change.old} was renamed to {change.path}"
    return f"{change.path} was deleted"


def _summary(result: Review) -> str:
    counts: dict[str, int] = {}
    for c in result.changes:
        counts[c.status] = counts.get(c.status, 0) + 1
    parts = ", ".join(f"{n} {status}" for status, n in counts.items())
    files = "1 changed file" if len(result.changes) == 1 else f"{len(result.changes)} changed files"
    return f"{files} against {result.base}" + (f" ({parts})" if parts else "")


def review_text(result: Review) -> str:
    lines = [_summary(result)]
    for m, changes in _grouped(result):
        title = f" ({m.rule.heading})" if m.rule.heading else ""
        n = len(changes)
        lines += ["", f"{m.rule.rel}{title}: applies to {n} changed file{'s' if n != 1 else ''}"]
        lines += [f"  {c.path} ({_how(c)})" for c in changes]
        if not m.agents_see:
            lines.append(f"  agents do not see this file: {m.agents_miss_because}")
        lines += [f"  ## {e.title}  [{m.rule.rel}:{e.line + 1}]" for e in m.rule.entries]
    unruled = _unruled(result)
    if unruled:
        lines += ["", "No rule applies to: " + ", ".join(c.path for c in unruled)]
    if result.touched:
        lines += ["", "This change touches rule files: "
                  + ", ".join(f"{c.path} ({_how(c)})" for c in result.touched)]
    if result.emptied:
        lines += ["", "Globs this change made match nothing:"]
        lines += [f"  {e.file}:{e.line + 1}: `{e.glob}` ({'; '.join(_departure(c) for c in e.left)})"
                  for e in result.emptied]
    return "\n".join(lines)


def _md(text: str) -> str:
    """Text in a Markdown comment: characters that would start markup are escaped."""
    return "".join("\\" + ch if ch in "\\`*_[]<>|#" else ch for ch in text)


def review_markdown(result: Review) -> str:
    lines = ["### Project rules for this change", "", _md(_summary(result)) + "."]
    for m, changes in _grouped(result):
        title = f" — {_md(m.rule.heading)}" if m.rule.heading else ""
        paths = ", ".join(f"`{c.path}`" for c in changes)
        lines += ["", f"**`{m.rule.rel}`**{title}, for {paths}", ""]
        if not m.agents_see:
            lines.append(f"> agents do not see this file: {_md(m.agents_miss_because or '')}")
            lines.append("")
        lines += [f"- {_md(e.title)}" for e in m.rule.entries] or ["- (no entries)"]
    unruled = _unruled(result)
    if unruled:
        lines += ["", "No rule applies to " + ", ".join(f"`{c.path}`" for c in unruled) + "."]
    if result.touched:
        lines += ["", "**Rule files this change touches:** "
                  + ", ".join(f"`{c.path}` ({_md(_how(c))})" for c in result.touched)]
    if result.emptied:
        lines += ["", "**Globs this change made match nothing:**", ""]
        lines += [f"- `{e.file}` line {e.line + 1}: `{e.glob}` "
                  f"({_md('; '.join(_departure(c) for c in e.left))})" for e in result.emptied]
    return "\n".join(lines)


def review_annotations(result: Review) -> list[str]:
    out = []
    for change in result.changes:
        matches = result.matches.get(change.path, [])
        if matches:
            said = "; ".join(f"{m.rule.rel}: " + ", ".join(e.title for e in m.rule.entries)
                             for m in matches)
            n = len(matches)
            out.append(annotation("notice", change.path, 1,
                                  f"{n} rule file{'s' if n != 1 else ''} appl{'ies' if n == 1 else 'y'}",
                                  said))
    for change in result.touched:
        if change.status != "deleted":
            out.append(annotation("notice", change.path, 1, "Rule file changed",
                                  f"This change {change.status} a rule file: agents read the new text."))
    for e in result.emptied:
        out.append(annotation("warning", e.file, e.line + 1, "rulelens glob-matches-nothing",
                              f"`{e.glob}` matches nothing after this change: "
                              + "; ".join(_departure(c) for c in e.left)))
    return out
