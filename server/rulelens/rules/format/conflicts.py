"""Merge conflict markers in rule files and the index (`rule-conflict`, `index-conflict`).

A conflict is the three git markers in order: `<<<<<<<`, `=======`, `>>>>>>>` (a diff3
`|||||||` section may sit between the first two). A lone `=======` is a Markdown heading
underline, and markers shown inside a fenced code block are an example, not a conflict.
"""

from __future__ import annotations

import re

from rulelens.rules.format.reading import split_lines
from rulelens.rules.model import Problem

_OPEN = re.compile(r"<{7}(?: |$)")
_BASE = re.compile(r"\|{7}(?: |$)")
_MIDDLE = re.compile(r"={7}$")
_CLOSE = re.compile(r">{7}(?: |$)")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


def conflict_lines(text: str) -> list[int]:
    """The 0-based line of each conflict's `<<<<<<<` marker."""
    out: list[int] = []
    fence: str | None = None
    opened: int | None = None
    middle = False
    for n, line in enumerate(split_lines(text)):
        if opened is None:
            m = _FENCE.match(line)
            if m:
                mark = m.group(1)
                if fence is None:
                    fence = mark
                elif mark[0] == fence[0] and len(mark) >= len(fence) and not line[m.end():].strip():
                    fence = None
                continue
            if fence is not None:
                continue
        if _OPEN.match(line):
            opened, middle = n, False
        elif opened is not None and not middle and _BASE.match(line):
            continue
        elif opened is not None and _MIDDLE.match(line):
            middle = True
        elif opened is not None and middle and _CLOSE.match(line):
            out.append(opened)
            opened, middle = None, False
    return out


def rule_conflicts(rel: str, text: str) -> list[Problem]:
    return [Problem(rel, n, "error", "rule-conflict",
                    "This rule file has merge conflict markers; agents read them as rules. Resolve the "
                    "conflict, then run `rulelens index`.")
            for n in conflict_lines(text)]


def index_conflicts(rel: str, text: str | None) -> list[Problem]:
    lines = conflict_lines(text or "")
    if not lines:
        return []
    return [Problem(rel, lines[0], "error", "index-conflict",
                    "The index has merge conflict markers, so agents cannot read its table. Run "
                    "`rulelens index` to regenerate it from the rule files.")]


def first_conflicted(files: list[tuple[str, str]]) -> tuple[str, int] | None:
    """The first (rel, 1-based line) among rule files' texts that has conflict markers."""
    for rel, text in files:
        lines = conflict_lines(text)
        if lines:
            return rel, lines[0] + 1
    return None
