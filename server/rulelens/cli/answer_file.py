"""`check`'s kept answer on disk (its format, reading, writing and printing), apart from how
cli/result_cache.py keys it and decides when to keep it: storage only.

Imports only `os` and `sys` (loaded at Python's start), workspace/stat_stamp.py, and
workspace/atomic_write.py to write.
"""

from __future__ import annotations

import os
import sys

from rulelens.workspace.stat_stamp import latest, stamp, text

FORMAT = b"rulelens-check-result 2"
MAX_DEPS = 100_000  # paths read outside git's view past which the answer is not kept


# -- signatures --------------------------------------------------------------------------------
def signature(path: str) -> tuple[str, int]:
    """A path's stamp as text (workspace/stat_stamp.py), and its latest time (ns; 0 when
    missing)."""
    st = stamp(path)
    return text(st), latest(st)


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


def write(path: str, data: bytes) -> bool:
    """Atomically (workspace/atomic_write.py), making git's `rulelens` folder when missing;
    False, with no trace, when it cannot be written: a cache that is not kept costs a run in
    full, never an error."""
    from rulelens.workspace import atomic_write  # here: a hit writes nothing

    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        atomic_write.write(path, data)
    except OSError:
        return False
    return True
