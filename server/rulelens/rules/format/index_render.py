"""The generated `.ai/rules/index.md` (docs/format.md §4), byte for byte."""

from __future__ import annotations

from collections.abc import Iterable

from rulelens.rules.model import RuleFile

HEADER = (
    "# Project Rules Index\n"
    "\n"
    "Before planning or editing, find the row whose globs match the file's path and read that "
    "rule file.\n"
    "\n"
)
EMPTY = "No rules recorded yet.\n"


def _cell(text: str) -> str:
    # Boost leaves `|` bare, which splits the table; we escape it (docs/format.md §4). A line break in a
    # hand-written glob or file name would end the row, so it is written as a visible escape.
    return text.replace("|", "\\|").replace("\r", "\\r").replace("\n", "\\n")


def render_index(files: Iterable[RuleFile]) -> str:
    """One row per file whose strict reading has paths, sorted by relative path bytes."""
    rows = sorted(
        (f for f in files if f.strict_paths),
        key=lambda f: f.rel.encode("utf-8"),
    )
    if not rows:
        return HEADER + EMPTY
    lines = ["| Applies to | Rule file |", "| --- | --- |"]
    lines += [f"| {', '.join(_cell(g) for g in f.strict_paths)} | {_cell(f.rel)} |" for f in rows]
    return HEADER + "\n".join(lines) + "\n"
