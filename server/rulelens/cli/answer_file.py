"""`check`'s kept answer on disk, and the few system calls its fast path makes without the
modules that usually make them: what cli/result_cache.py (which keys and keeps the answer) and
cli/edited_answer.py (which keeps it through an edit of files the run did not read) share, so
that neither imports the other's module back.

Imports only `os` and `sys` (loaded at Python's start).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (14 ms), as mypy reads it
if TYPE_CHECKING:
    from collections.abc import Sequence

FORMAT = b"rulelens-check-result 2"
MAX_DEPS = 100_000  # paths read outside git's view past which the answer is not kept


# -- programs, started without subprocess -------------------------------------------------------
def spawn(argv: Sequence[str], stdin: int | None = None) -> tuple[int, int] | None:
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


def collect(started: tuple[int, int] | None, ok: tuple[int, ...] = (0,)) -> bytes | None:
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


# -- signatures --------------------------------------------------------------------------------
def signature(path: str) -> tuple[str, int]:
    """A path's stat as text, and its latest time (ns; 0 when missing)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return "-", 0
    return (f"{st.st_mode >> 12}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}",
            max(st.st_mtime_ns, st.st_ctime_ns))


# -- the answer on disk ------------------------------------------------------------------------
class Stored:
    __slots__ = ("code", "deps", "key", "output", "tracked")

    def __init__(self, tracked: str, key: str, code: int, deps: list[tuple[str, str]],
                 output: str) -> None:
        self.tracked, self.key, self.code, self.deps, self.output = tracked, key, code, deps, output

    def read_unchanged(self) -> bool:
        """Every path the run read has the stat kept with its answer."""
        return all(signature(p)[0] == s for p, s in self.deps)


def load(where: str) -> Stored | None:
    """The answer kept at `where`, or None when it is missing, torn or of another format."""
    try:
        with open(where, "rb") as handle:
            data = handle.read()
        head, tracked, key, code, count, rest = data.split(b"\n", 5)
        n = int(count)
        if head != FORMAT or not 0 <= n <= MAX_DEPS:
            return None
        fields = rest.split(b"\0", 2 * n)
        if len(fields) != 2 * n + 1:
            return None
        deps = [(fields[i].decode("utf-8", "surrogateescape"), fields[i + 1].decode("ascii"))
                for i in range(0, 2 * n, 2)]
        return Stored(tracked.decode("ascii"), key.decode("ascii"), int(code), deps,
                      fields[-1].decode("utf-8", "surrogatepass"))
    except (OSError, ValueError):
        return None


def dump(stored: Stored) -> bytes:
    head = b"\n".join((FORMAT, stored.tracked.encode("ascii"), stored.key.encode("ascii"),
                       str(stored.code).encode("ascii"), str(len(stored.deps)).encode("ascii"), b""))
    deps = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" + s.encode("ascii") + b"\0"
                    for p, s in stored.deps)
    return head + deps + stored.output.encode("utf-8", "surrogatepass")


def printed(stored: Stored) -> bool:
    """The kept answer on stdout; False when the reader had gone (`rulelens check | head -1`:
    quiet, as cli/app.py leaves)."""
    try:
        sys.stdout.write(stored.output)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return False
    return True


def write(path: str, data: bytes) -> None:
    """Atomically (a temp file renamed over it), as the other caches are written, without their
    imports (pathlib, tempfile)."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError:
        unlink(tmp)


def unlink(path: str) -> None:
    """os.unlink, quiet (contextlib is not loaded on this path)."""
    try:
        os.unlink(path)
    except OSError:
        return
