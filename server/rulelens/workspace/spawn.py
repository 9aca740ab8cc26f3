"""Starting a program and reading its whole output with `os` alone: `posix_spawn` with stdout on
a pipe. `check`'s fast path starts git (cli/result_cache.py) this way, before anything else is
loaded: importing subprocess (with selectors and threading) costs
more than the kept answer takes. The full run starts its programs with subprocess
(workspace/git.py: timeouts, an exit hook), which it has loaded anyway.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, as mypy reads it
if TYPE_CHECKING:
    from collections.abc import Sequence

Started = tuple[int, int] | None  # (pid, read end of its stdout), or None: it did not start


def available() -> bool:
    """Whether this system starts programs this way (posix_spawn)."""
    return hasattr(os, "posix_spawnp")


def spawn(argv: Sequence[str], stdin: int | None = None) -> Started:
    """A program started with stdout on a pipe, stdin from `stdin` (else nothing), stderr
    discarded: (pid, read end), or None."""
    read, write = os.pipe()
    actions = [(os.POSIX_SPAWN_DUP2, write, 1),
               (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
               (os.POSIX_SPAWN_DUP2, stdin, 0) if stdin is not None
               else (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0)]
    try:
        pid = os.posix_spawnp(argv[0], list(argv), os.environ, file_actions=actions)
    except OSError:
        os.close(read)
        return None
    finally:
        os.close(write)
    return pid, read


def collect(started: Started, ok: tuple[int, ...] = (0,)) -> bytes | None:
    """The started program's whole stdout, or None when it failed (an exit code not in `ok`)."""
    if started is None:
        return None
    pid, read = started
    import io  # loaded at Python's start already

    try:
        with io.FileIO(read, closefd=True) as pipe:
            out = pipe.readall()  # one buffer grown in place, not chunks joined (twice the peak)
    finally:
        _, status = os.waitpid(pid, 0)
    return out if os.waitstatus_to_exitcode(status) in ok else None
