"""GitHub Actions workflow commands (`::warning file=…,line=…::message`) for check and review."""

from __future__ import annotations

from rulelens.rules.model import Problem, Severity

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


def problem_annotation(p: Problem) -> str:
    return annotation(COMMANDS[p.severity], p.file, p.line + 1, f"rulelens {p.code}", p.message, p.col + 1)
