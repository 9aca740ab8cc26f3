"""Lint rule files against the project's file list (docs/cli.md, `check`)."""

from __future__ import annotations

from collections.abc import Sequence

from rulelens.glob_engines.boost import (
    Pattern,
    dialect_hints,
    expand,
    expansion_error,
    malformed_reason,
    patterns_of,
    regex_source,
)
from rulelens.rules.check.stale import DRIFT_AFTER
from rulelens.rules.check.stale.findings import prepare, staleness_problems
from rulelens.rules.format.conflicts import index_conflicts, rule_conflicts
from rulelens.rules.model import Problem, RuleFile
from rulelens.workspace.filelist import FileList

SHOWN = 80
OTHER_KEYS = ("globs", "applyTo", "scope")


def shown(text: str) -> str:
    """A glob as quoted in a message: long ones are cut, so a hostile glob cannot flood output."""
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def check_file(rule: RuleFile, files: FileList | None, drift_after: int = DRIFT_AFTER,
               staleness: bool = True) -> list[Problem]:
    """Reading problems, per-glob findings, and what the text says (conflicts, staleness; the
    language server computes staleness apart, off the request path)."""
    return [*_check_globs(rule, files), *_text_problems(rule, files if staleness else None, drift_after)]


def _text_problems(rule: RuleFile, files: FileList | None, drift_after: int) -> list[Problem]:
    return [*rule_conflicts(rule.rel, rule.text), *staleness_problems(rule, files, drift_after)]


def _check_globs(rule: RuleFile, files: FileList | None) -> list[Problem]:
    """Reading problems plus per-glob findings for one file."""
    problems = list(rule.problems)
    explained = {"frontmatter-invalid", "paths-invalid", "file-binary", "file-unreadable",
                 "rule-symlink"}
    if not rule.lenient_paths and not any(p.code in explained for p in problems):
        problems.append(Problem(
            rule.rel, 0, "info", "no-paths",
            "No `paths`: this file is not in the index, so agents find it only by searching.",
        ))
    seen: set[str] = set()
    alternatives: set[tuple[str, bool]] = set()
    includes: list[Pattern] | None = None  # compiled only for an item that only excludes
    dead: list[Problem] = []  # the globs that match no file
    live = False  # whether some glob matches a file: the rule still loads for it
    for item in rule.glob_items or []:
        line, col, end = item.line, item.start_col, item.end_col
        text = item.text.strip()
        if not text:
            problems.append(Problem(rule.rel, line, "error", "paths-invalid",
                                    "An empty glob matches nothing.", col, end))
            continue
        expanded = expand(text)
        repeated = [g for g, _ in dict.fromkeys(g for g in expanded if g in alternatives)]
        if text in seen:
            problems.append(Problem(rule.rel, line, "info", "glob-duplicate",
                                    f"`{shown(text)}` is listed twice in this file; the second changes "
                                    "what no agent loads.", col, end))
        elif repeated:
            names = ", ".join(f"`{shown(g)}`" for g in repeated)
            problems.append(Problem(rule.rel, line, "info", "glob-duplicate",
                                    f"{names} (from `{shown(text)}`) is already listed in this file, so "
                                    "it changes what no agent loads.",
                                    col, end))
        seen.add(text)
        alternatives.update(expanded)
        if any(".." in g.split("/") for g, _ in expanded):
            problems.append(Problem(rule.rel, line, "error", "paths-invalid",
                                    f"`{shown(text)}` has a `..` segment and can never match a project "
                                    "file.", col, end))
            continue
        broken = malformed_reason(text)
        if broken:
            problems.append(Problem(rule.rel, line, "error", "glob-invalid",
                                    f"`{shown(text)}` is malformed: {broken}; it matches nothing as "
                                    "its author meant.", col, end))
            continue
        too_many = expansion_error(text)
        if too_many:
            problems.append(Problem(rule.rel, line, "error", "paths-invalid", too_many, col, end))
            continue
        for hint in dialect_hints(text):
            problems.append(Problem(rule.rel, line, "info", "glob-dialect", hint, col, end))
        if files is None:
            continue
        usable = [include for glob, include in expanded if regex_source(glob) is not None]
        if usable and not any(usable):  # only `!` globs: compiled to see what they drop
            negations = [p for p in patterns_of(text) if not p.include]
            if includes is None:
                includes = [p for other in rule.glob_items or []
                            for p in patterns_of(other.text.strip()) if p.include]
            if not any(_excludes_something(n, includes, files) for n in negations):
                problems.append(Problem(rule.rel, line, "warning", "glob-excludes-nothing",
                                        f"`{shown(text)}` excludes no file that this file's other globs "
                                        "match, so it has no effect.", col, end))
        elif not _matches_something(text, files):
            dead.append(Problem(rule.rel, line, "warning", "glob-matches-nothing",
                                f"`{shown(text)}` matches no file in the project.", col, end))
        else:
            live = True
    problems.extend(_dead_alternatives(rule, dead, live))
    problems.extend(other_paths_keys(rule))
    # In a file read only to its cut (`file-too-large`), the last entry ends where the cut fell:
    # its note is missing from the reading, not from the file.
    cut = any(p.code == "file-too-large" for p in rule.problems)
    for entry in rule.entries[:-1] if cut else rule.entries:
        if not entry.note.strip():
            problems.append(Problem(rule.rel, entry.line, "warning", "entry-empty",
                                    f"The entry `{entry.title}` has no note.", 0, None))
        if not entry.title:
            problems.append(Problem(rule.rel, entry.line, "warning", "entry-empty",
                                    "An entry heading without a title.", 0, None))
    return problems


def _dead_alternatives(rule: RuleFile, dead: list[Problem], live: bool) -> list[Problem]:
    """A glob matching no file is a warning while the rule reaches no file at all; where its other
    globs still reach files, the dead ones are one `info` for the file (a list kept for files
    this project may not have yet is not worth failing CI on)."""
    if not dead or not live:
        return dead
    # A literal path (one named file) that is not here is no alternative kept for later: the file
    # was moved or never was, and the rule points at it. It stays a warning of its own.
    named = [p for p in dead if not any(c in _dead_text(p) for c in "*?[{")]
    dead = [p for p in dead if p not in named]
    if not dead:
        return named
    texts = [_dead_text(p) for p in dead]
    names = ", ".join(f"`{t}`" for t in texts[:4]) + (f" and {len(texts) - 4} more" if len(texts) > 4 else "")
    total = len(rule.glob_items or [])
    first = dead[0]
    return [*named, Problem(rule.rel, first.line, "info", "glob-matches-nothing",
                    f"{len(dead)} of {total} globs match no file here ({names}); the rule still "
                    "applies through the others. Remove them if the project will not have such files.",
                    first.col, first.end_col)]


def _dead_text(p: Problem) -> str:
    return p.message.split("` matches no file", 1)[0].removeprefix("`")


def _excludes_something(negation: Pattern, includes: list[Pattern], files: FileList) -> bool:
    return any(any(p.regex.match(path) for p in includes) for path in files.lines_matching(negation))


def other_paths_keys(rule: RuleFile) -> list[Problem]:
    """`globs:`/`applyTo:`/`scope:` where Boost reads only `paths:`: say so and offer the rename."""
    if rule.lenient_paths or rule.frontmatter_lines is None:
        return []
    start, close = rule.frontmatter_lines
    out = []
    for n, line in enumerate(rule.text.splitlines()[start + 1 : close], start + 1):
        key = line.split(":", 1)[0].strip()
        if key in OTHER_KEYS and not line.startswith((" ", "\t")):
            out.append(Problem(rule.rel, n, "warning", "paths-key-other",
                               f"Boost reads only `paths`, so this file's `{key}` globs reach no agent "
                               f"through the index; rename `{key}:` to `paths:`.", 0, len(key)))
    return out


def _matches_something(item: str, files: FileList) -> bool:
    return any(files.glob_matches_any(glob) for glob, _ in expand(item))


def check_index(index_rel: str, current: str | None, expected: str,
                unread: str | None = None) -> list[Problem]:
    """The index against the rule files as read. `unread`: a rule file that could not be read
    (`rules.model.cannot_read`'s words), so that the fix offered is not `rulelens index`, which
    refuses while that file's row would be lost."""
    conflicted = index_conflicts(index_rel, current)
    if conflicted:
        return conflicted
    if current is None:
        then = "" if unread is None else f", but {unread}: fix or remove it, then"
        return [Problem(index_rel, 0, "warning", "index-missing",
                        f"There is no index; agents cannot find rules by path{then or '.'} "
                        f"{'run' if unread else 'Run'} `rulelens index`.")]
    if current != expected:
        if unread is not None:
            return [Problem(index_rel, 0, "warning", "index-stale",
                            f"The index differs from the rule files, but {unread}: fix or remove "
                            "it, then run `rulelens index` to regenerate the index.")]
        return [Problem(index_rel, 0, "warning", "index-stale",
                        "The index differs from the rule files. Run `rulelens index` to "
                        "regenerate it.")]
    return []


def check_all(rules: Sequence[RuleFile], files: FileList | None,
              drift_after: int = DRIFT_AFTER) -> list[Problem]:
    # One search for every rule's names, started first: grep reads the files while the globs
    # are checked, then each file's problems are its glob findings and its text findings.
    prepare(rules, files, drift_after)
    globs = [_check_globs(rule, files) for rule in rules]
    out: list[Problem] = []
    for rule, problems in zip(rules, globs, strict=True):
        out.extend(problems)
        out.extend(_text_problems(rule, files, drift_after))
    return out
