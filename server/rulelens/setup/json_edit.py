"""Edit a JSON file's text where its data changed, and nowhere else.

A person's `.mcp.json` (Laravel Boost writes it with four spaces and no final newline) must come
back byte for byte but for rulelens's own entry. Re-serialising the whole document loses its
indentation, its escapes and its final newline, so the changed members are spliced into the
text as written. Written by hand: Python's json module keeps no positions, and no well-kept
library edits JSON text in place (tomlkit does it for TOML only).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any

_SPACE = re.compile(r"[ \t\r\n]*")
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")


@dataclass
class _Member:
    key: str
    key_start: int
    value: _Node


@dataclass
class _Node:
    start: int
    end: int
    members: list[_Member] = field(default_factory=list)  # an object's, in order
    is_object: bool = False


class _Parser:
    """Spans of the values of a document `json.loads` already accepted."""

    def __init__(self, text: str) -> None:
        self.text = text

    def skip(self, at: int) -> int:
        m = _SPACE.match(self.text, at)
        return m.end() if m else at

    def value(self, at: int) -> _Node:
        at = self.skip(at)
        ch = self.text[at]
        if ch == "{":
            return self.object(at)
        if ch == "[":
            end = at + 1
            end = self.skip(end)
            if self.text[end] == "]":
                return _Node(at, end + 1)
            while True:
                end = self.value(end).end
                end = self.skip(end)
                if self.text[end] == "]":
                    return _Node(at, end + 1)
                end += 1  # the comma
        if ch == '"':
            return _Node(at, scanstring(self.text, at + 1)[1])
        m = _SCALAR.match(self.text, at)
        assert m is not None, "the text was parsed by json.loads first"
        return _Node(at, m.end())

    def object(self, at: int) -> _Node:
        node = _Node(at, at, is_object=True)
        pos = self.skip(at + 1)
        if self.text[pos] == "}":
            node.end = pos + 1
            return node
        while True:
            key, after = scanstring(self.text, pos + 1)
            colon = self.skip(after)
            value = self.value(colon + 1)
            node.members = [m for m in node.members if m.key != key]  # the last one wins, as in json
            node.members.append(_Member(key, pos, value))
            pos = self.skip(value.end)
            if self.text[pos] == "}":
                node.end = pos + 1
                return node
            pos = self.skip(pos + 1)


def _line_indent(text: str, at: int) -> str:
    """The whitespace that starts the line holding `at`."""
    start = text.rfind("\n", 0, at) + 1
    m = _SPACE.match(text, start)
    return text[start : m.end() if m else start].replace("\r", "").replace("\n", "")


@dataclass
class _Style:
    unit: str | None  # one level of indentation; None for a document on one line
    newline: str
    ascii_only: bool

    def dump(self, value: Any, indent: str, one_line: bool = False) -> str:
        """`value` as JSON text at a member indented by `indent`; on one line in a one-line object."""
        if self.unit is None or one_line:
            return json.dumps(value, ensure_ascii=self.ascii_only)
        text = json.dumps(value, indent=self.unit, ensure_ascii=self.ascii_only)
        return text.replace("\n", self.newline + indent)


def _style(text: str) -> _Style:
    newline = "\r\n" if "\r\n" in text else "\n"
    unit = None
    for line in text.splitlines()[1:]:
        lead = line[: len(line) - len(line.lstrip(" \t"))]
        if lead and line.strip():
            unit = lead
            break
    if unit is None and "\n" in text.strip():
        unit = "  "
    ascii_only = text.isascii() and "\\u" in text
    return _Style(unit, newline, ascii_only)


def edited(text: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    """`text` (whose data is `old`) with the members that differ in `new` rewritten, added or
    removed; every other byte as it was."""
    root = _Parser(text).value(0)
    style = _style(text)
    edits: list[tuple[int, int, str]] = []
    _diff(text, root, old, new, style, edits)
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _diff(text: str, node: _Node, old: dict[str, Any], new: dict[str, Any], style: _Style,
          edits: list[tuple[int, int, str]]) -> None:
    members = {m.key: m for m in node.members}
    for key, value in new.items():
        member = members.get(key)
        if member is None:
            continue
        if value == old.get(key):
            continue
        if isinstance(value, dict) and isinstance(old.get(key), dict) and member.value.is_object:
            _diff(text, member.value, old[key], value, style, edits)
        else:
            indent = _line_indent(text, member.key_start)
            one_line = "\n" not in text[node.start : node.end]
            edits.append((member.value.start, member.value.end, style.dump(value, indent, one_line)))
    gone = [m for m in node.members if m.key not in new]
    added = [(k, v) for k, v in new.items() if k not in members]
    kept = [m for m in node.members if m not in gone]
    if not (added and not kept):  # else the insertion replaces the whole inside of the object
        edits.extend(_removal(node, m) for m in gone)
    if added:
        edits.append(_insertion(text, node, kept, added, style))


def _removal(node: _Node, member: _Member) -> tuple[int, int, str]:
    """The member and the comma before it (after it, for the first)."""
    i = node.members.index(member)
    if i > 0:
        start = node.members[i - 1].value.end
        return (start, member.value.end, "")
    if len(node.members) > 1:
        return (member.key_start, node.members[1].key_start, "")
    return (node.start + 1, node.end - 1, "")


def _insertion(text: str, node: _Node, kept: list[_Member], added: list[tuple[str, Any]],
               style: _Style) -> tuple[int, int, str]:
    if kept:
        last = kept[-1]
        one_line = "\n" not in text[node.start : node.end] or style.unit is None
        indent = "" if one_line else _line_indent(text, last.key_start)
        lead = ", " if one_line else "," + style.newline + indent
        body = "".join(f"{lead}{json.dumps(k, ensure_ascii=style.ascii_only)}: "
                       f"{style.dump(v, indent, one_line)}" for k, v in added)
        return (last.value.end, last.value.end, body)
    if style.unit is None:
        body = ", ".join(f"{json.dumps(k, ensure_ascii=style.ascii_only)}: {style.dump(v, '')}"
                         for k, v in added)
        return (node.start + 1, node.end - 1, body)
    outer = _line_indent(text, node.start)
    indent = outer + style.unit
    body = ("," + style.newline).join(
        f"{indent}{json.dumps(k, ensure_ascii=style.ascii_only)}: {style.dump(v, indent)}" for k, v in added)
    return (node.start + 1, node.end - 1, style.newline + body + style.newline + outer)
