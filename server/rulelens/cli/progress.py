"""A progress line on stderr for a long `check`, for a person at a terminal only.

It appears after a short wait (a quick run shows nothing), rewrites itself in place, and is
cleared before the findings print; never on a pipe, in CI logs, or with --quiet.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import TextIO

DELAY = 0.4  # seconds before the first line shows
_DELAY_ENV = "RULELENS_TEST_PROGRESS_DELAY"  # test hook: a test cannot wait for a slow project


@contextlib.contextmanager
def progress_line(stream: TextIO, enabled: bool = True) -> Iterator[Callable[[str], None]]:
    try:
        on = enabled and stream.isatty()
    except (AttributeError, ValueError):
        on = False
    if not on:
        yield lambda _: None
        return
    import threading  # at a terminal only: a hook's or CI's run starts no thread here

    from rulelens.workspace.later import after

    lock = threading.Lock()
    state = {"text": "", "shown": False}

    def show() -> None:
        with lock:
            state["shown"] = True
            if state["text"]:
                _write(stream, str(state["text"]))

    delay = float(os.environ.get(_DELAY_ENV) or DELAY)
    state["shown"] = delay <= 0

    def update(text: str) -> None:
        with lock:
            state["text"] = f"rulelens: {text}…"
            if state["shown"]:
                _write(stream, str(state["text"]))

    cancel = after(delay, show, name="rulelens-progress")
    try:
        yield update
    finally:
        cancel()
        with lock:
            if state["shown"]:
                _write(stream, "")


def _write(stream: TextIO, text: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        stream.write(f"\r\x1b[K{text}")
        stream.flush()
