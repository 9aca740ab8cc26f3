"""Every program the core starts (git, grep): started with stdout piped, run to the end within a
timeout, and ended at exit when nobody waits for it any more. `check`'s kept answer starts its
few programs the cheaper way, before anything is loaded (spawn.py); everything else comes here.
"""

from __future__ import annotations

import atexit
import contextlib
import subprocess
from collections.abc import Sequence
from pathlib import Path

# The programs of this process not yet reaped (a thread waits for them, or nobody read their
# answer yet), which the exit hook ends (`_discard`), and whether it is set. Process-wide, as the
# children themselves are: no session outlives them, and atexit knows no session.
_RUNNING: set[subprocess.Popen[bytes]] = set()
_EXIT_HOOK: list[bool] = []


def _discard() -> None:
    """At exit, answers nobody read (the command failed first, or a guess proved wrong) and those
    a thread still waits for: ended (the thread reaps its own; the others are reaped by the
    system once this process is gone)."""
    for proc in list(_RUNNING):
        with contextlib.suppress(OSError):
            proc.kill()


def start(cmd: Sequence[str], stdin: int = subprocess.DEVNULL, stderr: int | None = None,
          cwd: Path | str | None = None, unread: bool = False) -> subprocess.Popen[bytes]:
    """A program started with its stdout piped (stderr too, unless given), the exit hook set;
    `unread`: started ahead of a reader that may never come, ended at exit if it does not.
    OSError when it cannot start (not installed)."""
    if not _EXIT_HOOK:
        atexit.register(_discard)
        _EXIT_HOOK.append(True)
    proc = subprocess.Popen(list(cmd), stdin=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE if stderr is None else stderr, cwd=cwd)
    if unread:
        _RUNNING.add(proc)
    return proc


def finish(proc: subprocess.Popen[bytes], timeout: float,
           input: bytes | None = None) -> subprocess.CompletedProcess[bytes] | None:
    """The started program run to its end; None (and the program ended) past `timeout`."""
    _RUNNING.add(proc)
    try:
        out, err = proc.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None
    finally:
        _RUNNING.discard(proc)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def run(cmd: Sequence[str], timeout: float, input: bytes | None = None,
        cwd: Path | str | None = None) -> subprocess.CompletedProcess[bytes] | None:
    """A program run to its end, whatever its exit code; None when it cannot start or runs past
    `timeout`."""
    try:
        proc = start(cmd, subprocess.DEVNULL if input is None else subprocess.PIPE, cwd=cwd)
    except OSError:
        return None
    return finish(proc, timeout, input)
