"""Catches a process being started while a unit test runs (tests/unit/conftest.py).

An import check (tests/architecture/test_unit_tests.py) sees a test that starts git itself, but
not the code under test doing it: `check_rules` on a git project runs `git log`, a search runs
grep. Python's audit hooks see every way a process starts, from any module: subprocess,
os.posix_spawn (how workspace/git.py starts git), fork, exec and system. A hook cannot be
removed once added, so it is added once and does nothing outside `watching()`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

# The audit events (Python's "Audit events table") that start or replace a process.
EVENTS = frozenset({"subprocess.Popen", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
                    "os.exec", "os.system", "os.startfile", "pty.spawn"})


class ProcessStarted(RuntimeError):
    """Raised where the process would have started, so the test stops there."""


_started: list[list[str]] = []  # the list `watching()` gave out, while it watches
_hooked = False


def _what(event: str, args: tuple[object, ...]) -> str:
    # subprocess.Popen's arguments are (executable, args, cwd, env); the others' first is the
    # program or, for fork, nothing.
    shown = args[1] if event == "subprocess.Popen" and len(args) > 1 else (args[0] if args else "")
    return f"{event} {shown!r}"[:200]


def _hook(event: str, args: tuple[object, ...]) -> None:
    if _started and event in EVENTS:
        what = _what(event, args)
        _started[-1].append(what)
        raise ProcessStarted(f"a unit test started a process: {what}")


@contextmanager
def watching() -> Iterator[list[str]]:
    """Refuse to start a process inside the block; the list names each one refused."""
    global _hooked
    if not _hooked:
        sys.addaudithook(_hook)
        _hooked = True
    started: list[str] = []
    _started.append(started)
    try:
        yield started
    finally:
        _started.remove(started)
