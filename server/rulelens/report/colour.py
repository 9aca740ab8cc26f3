"""Colour for a person at a terminal: on for a TTY, off for pipes, files and `NO_COLOR`.

Eight ANSI codes are all the command line needs; a library (rich, colorama) would cost more
start-up time than the rest of a `check` run's rendering.
"""

from __future__ import annotations

import os
from typing import TextIO

_CODES = {"error": "31;1", "warning": "33", "info": "36", "path": "1", "dim": "2", "ok": "32"}


class Palette:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, role: str, text: str) -> str:
        if not self.enabled or not text:
            return text
        return f"\x1b[{_CODES[role]}m{text}\x1b[0m"


def palette_for(stream: TextIO) -> Palette:
    """Colour when the stream is a terminal and neither `NO_COLOR` (no-color.org) is set nor
    `TERM=dumb`; `FORCE_COLOR` turns it on anywhere."""
    if os.environ.get("NO_COLOR"):
        return Palette(False)
    if os.environ.get("FORCE_COLOR"):
        return Palette(True)
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    return Palette(tty and os.environ.get("TERM") != "dumb")


PLAIN = Palette(False)
