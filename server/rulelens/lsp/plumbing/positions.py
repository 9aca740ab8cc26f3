"""Core positions (0-based lines, code-point columns) to and from the negotiated LSP encoding.

Every range that leaves the server goes through here, so UTF-16 and UTF-8 clients both land
on the right character in non-ASCII text.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from rulelens.rules.format.reading import split_lines


def lines_of(text: str) -> list[str]:
    """Lines without endings, numbered alike by the core and by editors."""
    return split_lines(text)


def position(codec: PositionCodec, lines: Sequence[str], line: int, col: int) -> types.Position:
    """A core position (code points), clamped into the text, in client units."""
    if not lines:
        return types.Position(line=0, character=0)
    line = min(max(line, 0), len(lines) - 1)
    text = lines[line]
    column = min(max(col, 0), len(text))
    # ASCII is one unit per character in every encoding; the codec counts character by character.
    units = column if text.isascii() else codec.client_num_units(text[:column])
    return types.Position(line=line, character=units)


def span(codec: PositionCodec, lines: Sequence[str], line: int, start: int,
         end: int | None) -> types.Range:
    """A range on one line; `end=None` runs to the end of the line."""
    if lines and 0 <= line < len(lines) and end is None:
        end = len(lines[line])
    return types.Range(
        start=position(codec, lines, line, start),
        end=position(codec, lines, line, start if end is None else max(end, start)),
    )


def whole_line(codec: PositionCodec, lines: Sequence[str], line: int) -> types.Range:
    return span(codec, lines, line, 0, None)


def start_of_file() -> types.Range:
    """A zero-width range at 0:0: visible in the gutter and the problems list, never a squiggle."""
    origin = types.Position(line=0, character=0)
    return types.Range(start=origin, end=origin)


def to_code_points(codec: PositionCodec, lines: Sequence[str],
                   pos: types.Position) -> tuple[int, int]:
    """A client position as the core's (line, code-point column), clamped into the text."""
    if not lines or pos.line >= len(lines):
        return (max(len(lines) - 1, 0), len(lines[-1]) if lines else 0)
    text = lines[pos.line]
    column = len(text)
    units = 0
    for index, ch in enumerate(text):
        if units >= pos.character:
            column = index
            break
        units += codec.client_num_units(ch)
    return pos.line, column
