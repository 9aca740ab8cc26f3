"""`rulelens review --base REF`: the rules a change touches, for a reviewer.

The change is `git diff --name-status REF...HEAD` (what the branch did since it left REF, as a
pull request shows it). For each path it adds, modifies or renames: the rules that apply now.
Also the rule files it touched, and the globs that matched files the change moved or deleted and
now match nothing ("this PR moved app/Billing; billing.md now matches nothing").
report/ renders it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rulelens.glob_engines.boost import patterns_of
from rulelens.rules.model import Match, RuleError, RuleFile
from rulelens.rules.repository import RuleRepository
from rulelens.workspace.filelist import FileList
from rulelens.workspace.git import completed, run_git

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

    def grouped(self) -> list[tuple[Match, list[Change]]]:
        """Each rule file that applies to a changed path, with those paths, in index order."""
        groups: dict[str, tuple[Match, list[Change]]] = {}
        for change in self.changes:
            for m in self.matches.get(change.path, []):
                groups.setdefault(m.rule.rel, (m, []))[1].append(change)
        return [groups[k] for k in sorted(groups, key=lambda r: r.encode())]

    def unruled(self) -> list[Change]:
        """The changed paths (not deleted) that no rule applies to."""
        return [c for c in self.changes if c.status != "deleted" and not self.matches.get(c.path)]


def changes_since(repo: RuleRepository, base: str) -> list[Change]:
    """The change's paths (root-relative, below the root), from git."""
    if base.startswith("-"):
        raise RuleError(f"--base {base} is not a git revision.")
    out = completed(repo.root, "diff", "--name-status", "-z", "--find-renames", "--relative",
                    f"{base}...HEAD", "--")
    if out is None:
        raise RuleError("git diff failed: git is not installed or did not answer in time.")
    if out.returncode != 0:
        if run_git(repo.root, "rev-parse", "--git-dir") is None:
            raise RuleError(f"Cannot review against {base}: {repo.root} is not in a git repository, and "
                            "review compares git commits.")
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
