"""GitHub Actions workflow commands (`::warning file=…,line=…::message`) for check and review."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulelens.report.words import departure, plural
from rulelens.rules.model import Problem, Severity

if TYPE_CHECKING:
    from rulelens.rules.review import Review

COMMANDS: dict[Severity, str] = {"error": "error", "warning": "warning", "info": "notice"}


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
    from the repository's root (rules.project.root.repository_prefix)."""
    return annotation(COMMANDS[p.severity], prefix + p.file, p.line + 1, f"rulelens {p.code}", p.message,
                      p.col + 1)


def review(result: Review, prefix: str = "") -> list[str]:
    """The review's annotations; `prefix` as for `problem_annotation`."""
    out = []
    for change in result.changes:
        matches = result.matches.get(change.path, [])
        if matches:
            said = "; ".join(f"{m.rule.rel}: " + ", ".join(e.title for e in m.rule.entries)
                             for m in matches)
            verb = "applies" if len(matches) == 1 else "apply"
            out.append(annotation("notice", prefix + change.path, 1,
                                  f"{plural(len(matches), 'rule file')} {verb}", said))
    for change in result.touched:
        if change.status != "deleted":
            out.append(annotation("notice", prefix + change.path, 1, "Rule file changed",
                                  f"This change {change.status} a rule file: agents read the new text."))
    for e in result.emptied:
        out.append(annotation("warning", prefix + e.file, e.line + 1, "rulelens glob-matches-nothing",
                              f"`{e.glob}` matches nothing after this change: "
                              + "; ".join(departure(c) for c in e.left)))
    return out
