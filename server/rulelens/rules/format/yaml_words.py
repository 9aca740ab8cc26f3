"""A YAML error in plain words, at the line a person has to change.

PyYAML words its errors in its parser's tokens (`expected <block end>, but found '?'`) and marks
where it noticed the problem, which for an unclosed quote or a missing `:` is a line or more after
the one at fault. This module says what is wrong as a person would fix it, and names that line.
Written by hand: no library rewords PyYAML's errors; the table below is the messages of PyYAML's
scanner and parser (yaml/scanner.py, yaml/parser.py) that a frontmatter can reach.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# What makes YAML read an unquoted value as something else than text.
SPECIAL_START = "*&!{[?@`%|>"
_ITEM = re.compile(r"^\s*-\s+(\S.*?)\s*$")
_OPENED = ("while scanning a quoted", "while scanning a simple key", "while parsing a flow")
_VALUE = re.compile(r"^\s*[\w.-]+\s*:\s+(\S.*?)\s*$")


@dataclass(frozen=True)
class YamlProblem:
    words: str  # what is wrong, in a person's terms, without a final full stop
    line: int  # 0-based, within the YAML text
    quote: str | None = None  # an unquoted value on that line that quoting would mend


def explain(exc: BaseException, source: str) -> YamlProblem:
    """`exc` (a PyYAML error, or a subclass with the same attributes) read against `source`."""
    problem = str(getattr(exc, "problem", None) or "").strip()
    context = str(getattr(exc, "context", None) or "").strip()
    mark = getattr(exc, "problem_mark", None)
    context_mark = getattr(exc, "context_mark", None)
    line = mark.line if mark is not None else 0
    lines = source.splitlines() or [""]
    # Where a construct opened and never closed, the line to change is where it opened.
    if context_mark is not None and context.startswith(_OPENED):
        line = context_mark.line
    line = max(0, min(line, len(lines) - 1))
    text = lines[line]
    words = _words(problem, context)
    value = unquoted_special(text)
    return YamlProblem(words, line, value)


def unquoted_special(text: str) -> str | None:
    """The value on this line (a `- item` or a `key: value`) when it is unquoted and starts with a
    character that YAML reads as syntax: the case where quoting it is the fix."""
    m = _ITEM.match(text) or _VALUE.match(text)
    if m is None:
        return None
    value = m.group(1)
    return value if value[0] in SPECIAL_START else None


def _words(problem: str, context: str) -> str:
    found = re.search(r"but found '(.*)'$", problem)
    token = found.group(1) if found else ""
    if "'\\t'" in problem:
        return "a tab indents this line; YAML indents with spaces only"
    if problem.startswith("mapping values are not allowed"):
        return "a second `: ` on this line; YAML reads one `key: value` per line, so quote the value"
    if "scanning an alias" in context or "scanning an anchor" in context or "undefined alias" in problem:
        return "an unquoted `*` or `&` starts a YAML alias or anchor here, not text"
    if "scanning a tag" in context:
        return "an unquoted `!` starts a YAML tag here, not text"
    if "quoted scalar" in context:
        return "a quote opened on this line is not closed where YAML expects"
    if problem.startswith("could not find expected ':'"):
        return "this line is neither `key: value` nor a `- item` of a list"
    if "cannot start any token" in problem:
        char = re.search(r"found character '(.*?)'", problem)
        shown = char.group(1) if char else "this character"
        return f"an unquoted value cannot start with `{shown}` in YAML"
    if "flow" in context:
        return "a `[` or `{` starts a YAML list or mapping here that is not closed as YAML expects"
    if problem.startswith("expected <block end>") or problem.startswith("expected <block"):
        if token == "?":
            return "a line that starts with `? ` is a YAML complex key; quote the text, or remove the `?`"
        if token == "-" or token == "<block sequence start>":
            return "this list item is not indented as the items above it"
        return "this line is not indented as the lines above it; the keys of one mapping, and the items " \
               "of one list, each start in one column"
    if "duplicate" in problem:
        return problem.rstrip(".")
    return f"YAML cannot read this line: {problem or context or 'unknown error'}".rstrip(".")
