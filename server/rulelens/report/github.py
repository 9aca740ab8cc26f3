"""GitHub Actions workflow commands (`::warning file=…,line=…::message`) for check and review."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulelens.report.words import departure, plural
from rulelens.rules.model import Problem, Severity

if TYPE_CHECKING:
    from rulelens.rules.review import Review

COMMANDS: dict[Severity, str] = {"error": "error", "warning": "warning", "info": "notice"}
# GitHub shows 10 annotations of each kind per step and drops the rest (actions/toolkit,
# docs/problem-matchers.md, "Limitations"): past that, one annotation says what all of them would.
PER_KIND = 10


def _data(text: str) -> str:
    # GitHub's escaping for a command's message (toolkit's escapeData).
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    # ... and for a property value (toolkit's escapeProperty).
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(command: str, file: str, line: int, title: str, message: str, col: int | None = None) -> str:
    """One workflow command line; `line` is 1-based."""
    props = [f"file={_property(file)}", f"line={line}"]
    if col is not None:
        props.append(f"col={col}")
    props.append(f"title={_property(title)}")
    return f"::{command} {','.join(props)}::{_data(message)}"


def problem_annotation(p: Problem, prefix: str = "") -> str:
    """`prefix`: the project's folder in its repository (`services/web/`), as GitHub names files
    from the repository's root (workspace.root.repository_prefix)."""
    return annotation(COMMANDS[p.severity], prefix + p.file, p.line + 1, f"rulelens {p.code}", p.message,
                      p.col + 1)


def review(result: Review, full_list: str, prefix: str = "") -> list[str]:
    """The change's annotations; a kind with more than GitHub shows is one annotation that sums
    it up and names `full_list`, where every item is (the job summary, or a command); `prefix` as
    for `problem_annotation`."""
    notices = []
    for change in result.changes:
        matches = result.matches.get(change.path, [])
        if matches:
            said = "; ".join(f"{m.rule.rel}: " + ", ".join(e.title for e in m.rule.entries)
                             for m in matches)
            verb = "applies" if len(matches) == 1 else "apply"
            notices.append(annotation("notice", prefix + change.path, 1,
                                      f"{plural(len(matches), 'rule file')} {verb}", said))
    for change in result.touched:
        if change.status != "deleted":
            notices.append(annotation("notice", prefix + change.path, 1, "Rule file changed",
                                      f"This change {change.status} a rule file: agents read the new text."))
    warnings = [annotation("warning", prefix + e.file, e.line + 1, "rulelens glob-matches-nothing",
                           f"`{e.glob}` matches nothing after this change: "
                           + "; ".join(departure(c) for c in e.left)) for e in result.emptied]
    if len(notices) > PER_KIND:
        notices = [_notice_summary(result, full_list)]
    if len(warnings) > PER_KIND:
        globs = ", ".join(f"`{e.glob}` ({prefix}{e.file}:{e.line + 1})" for e in result.emptied)
        warnings = ["::warning title=rulelens glob-matches-nothing::"
                    + _data(f"{plural(len(result.emptied), 'glob')} match nothing after this change: "
                            f"{globs}. Each, with the paths it lost: {full_list}.")]
    return notices + warnings


def _notice_summary(result: Review, full_list: str) -> str:
    """One notice for the whole change: each rule file with how many changed files it applies to."""
    groups = result.grouped()
    ruled = sum(1 for c in result.changes if result.matches.get(c.path))
    parts = [f"{m.rule.rel} ({plural(len(changes), 'file')})" for m, changes in groups]
    message = (f"{plural(len(groups), 'rule file')} {'applies' if len(groups) == 1 else 'apply'} to "
               f"{plural(ruled, 'changed file')}: {', '.join(parts)}.")
    changed = [c for c in result.touched if c.status != "deleted"]
    if changed:
        message += f" This change edits {plural(len(changed), 'rule file')}: agents read the new text."
    title = f"rulelens: rules for {plural(len(result.changes), 'changed file')}"
    return f"::notice title={_property(title)}::{_data(message + f' Each file with its rules: {full_list}.')}"
