"""Core positions (0-based lines, code-point columns) to and from the negotiated LSP encoding.

Every range that leaves the server goes through here, so UTF-16 and UTF-8 clients both land
on the right character in non-ASCII text.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

LSP_BREAK = re.compile(r"\r\n|\r|\n")
# str.splitlines (and so the core) also breaks lines at these; LSP clients do not.
_EXOTIC = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


class Lines(list[str]):
    """The core's lines (`str.splitlines`), each placed on the editor's (LSP) line.

    The core numbers lines with `str.splitlines`, which also breaks at form feeds, U+2028 and
    a few others; editors break only at CR, LF and CRLF. `place[i]` is (LSP line, code-point
    offset in it) of core line i; None when both agree (the usual case).
    """

    def __init__(self, text: str) -> None:
        super().__init__(text.splitlines())
        self.place: list[tuple[int, int]] | None = None
        self.lsp: list[str] = self
        if not _EXOTIC.search(text):
            return
        self.lsp = LSP_BREAK.split(text)
        lsp_starts = [0] + [m.end() for m in LSP_BREAK.finditer(text)]
        place, offset = [], 0
        for piece in text.splitlines(keepends=True):
            n = bisect.bisect_right(lsp_starts, offset) - 1
            place.append((n, offset - lsp_starts[n]))
            offset += len(piece)
        self.place = place

    def locate(self, line: int, col: int) -> tuple[str, int]:
        """(the LSP line's text, code-point column in it) of a core position (clamped)."""
        line = min(max(line, 0), len(self) - 1)
        col = min(max(col, 0), len(self[line]))
        if self.place is None:
            return self[line], col
        n, base = self.place[line]
        return self.lsp[n], base + col

    def lsp_line(self, line: int) -> int:
        line = min(max(line, 0), len(self) - 1)
        return line if self.place is None else self.place[line][0]

    def core_position(self, lsp_line: int, col: int) -> tuple[int, int]:
        """The core (line, column) of a code-point position on an LSP line."""
        if self.place is None:
            return lsp_line, col
        i = bisect.bisect_right(self.place, (lsp_line, col)) - 1
        i = max(i, 0)
        base = self.place[i][1]
        return i, min(max(col - base, 0), len(self[i]))


def lines_of(text: str) -> Lines:
    """Lines without endings, numbered as the core numbers them."""
    return Lines(text)


def position(codec: PositionCodec, lines: Sequence[str], line: int, col: int) -> types.Position:
    """A core position (code points), clamped into the text, in client units and lines."""
    if not lines:
        return types.Position(line=0, character=0)
    placed = lines if isinstance(lines, Lines) else Lines("\n".join(lines))
    text, column = placed.locate(line, col)
    return types.Position(line=placed.lsp_line(line),
                          character=codec.client_num_units(text[:column]))


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
    placed = lines if isinstance(lines, Lines) else Lines("\n".join(lines))
    lsp = placed.lsp
    if not placed or pos.line >= len(lsp):
        return (max(len(placed) - 1, 0), len(placed[-1]) if placed else 0)
    text = lsp[pos.line]
    column = len(text)
    units = 0
    for index, ch in enumerate(text):
        if units >= pos.character:
            column = index
            break
        units += codec.client_num_units(ch)
    return placed.core_position(pos.line, column)
