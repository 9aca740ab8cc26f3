"""The state of a project's files outside git, for `check`'s kept answer (cli/result_cache.py).

Outside a git work tree the full run lists the project's files by a walk (rules/project/
filelist.py's `walk_files`: every entry below the root, not entering a folder named `.git`,
`node_modules` or `vendor`, nor a symbolic link), and the name search reads the text of every
file it lists. So the answer depends on each listed entry's content, which its stat stands for
(type, size, mtime, ctime, inode: a write changes mtime, a chmod or rename ctime, a replacement
the inode), and on each walked folder's entries, which the folder's own stat stands for (an
entry added, removed or renamed changes its mtime). A symbolic link's target is read through
the link, so a link's target is stat'ed too. A run that searched no file's text needs none of
this: what it read is its whole key (result_cache.py's `bare_key`).

One pass gathers all of that: GNU find (`-printf`, in C: 2.0 s at 500,000 files where a Python
loop of `os.scandir` and `stat` takes 2.3 s; both are mostly the kernel's stats), started before
rulelens's own files are hashed when there is a kept answer to check, else after the full run
(beside it, it competed with the run's greps for the cores). Without GNU find (a BSD find
rejects `-printf`), the same pass in Python. The stream is hashed as it comes, never held whole
(40 MB at 500,000 files), and the pass stops past a limit (result_cache.MAX_ENTRIES).

Racy entries (the clock-tick rule of result_cache.RACY_NS): find marks each entry changed at
or after the cutoff with an `R` record, so that an answer is not kept over a file that may
change again within the same tick of its clock.

Imports only `os` and what the hit path loads already.
"""

from __future__ import annotations

import os

from rulelens.rules.project.git_state import blake2b

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, as mypy reads it
if TYPE_CHECKING:
    from collections.abc import Iterator

# filelist.SKIP_DIRS (the core's, not imported here: tests/cli/test_result_cache_outside_git.py
# holds the two equal).
SKIP_DIRS = (".git", "node_modules", "vendor")
_FORMAT = "%y %s %T@ %C@ %i %P\\0"
_RACY = b"R\0"  # find's mark after an entry changed at or after the cutoff
_CHUNK = 1 << 20
_WALK_ENV = "RULELENS_TEST_TREE_WALK"  # test hook: "python" takes the pass without find


class State:
    """The pass's answer: a digest of every entry's stat, how many entries, whether one is racy."""

    __slots__ = ("count", "digest", "racy")

    def __init__(self, digest: str, count: int, racy: bool) -> None:
        self.digest, self.count, self.racy = digest, count, racy


def _stamp(ns: int) -> str:
    """`@seconds.nanoseconds` as find's `-newermt` reads it (strictly newer: one ns earlier)."""
    ns -= 1
    return f"@{ns // 1_000_000_000}.{ns % 1_000_000_000:09d}"


def start(root: str, cutoff: int) -> tuple[int, int] | None:
    """find started over `root` (pid, stdout's read end), or None (then `read` walks here)."""
    if os.environ.get(_WALK_ENV) == "python":
        return None
    from rulelens.cli.result_cache import spawn

    skip = [a for name in SKIP_DIRS for a in ("-o", "-name", name)][1:]
    stamp = _stamp(cutoff)
    return spawn(["find", root, "-mindepth", "1", "(", "-type", "d", "(", *skip, ")", "-prune", ")",
                  "-o", "(", "-printf", _FORMAT, "(", "-newermt", stamp, "-o", "-newerct", stamp, ")",
                  "-printf", "R\\0", ")"])


def read(root: str, started: tuple[int, int] | None, cutoff: int, limit: int) -> State | None:
    """The state `start`'s find saw, or the same pass in Python when find could not run; None
    when the pass failed (a folder unreadable or gone during the walk: not kept). Past `limit`
    entries the pass stops (find is ended): the State's count says so, its digest is no key."""
    if started is not None:
        got = _read_find(root, started, cutoff, limit)
        if got is not None or os.environ.get(_WALK_ENV) == "find":
            return got
    return _walk(root, cutoff, limit)


def _read_find(root: str, started: tuple[int, int], cutoff: int, limit: int) -> State | None:
    import io  # loaded at Python's start already

    pid, fd = started
    h = blake2b(b"find", digest_size=20)
    count, racy, links = 0, False, []
    carry = b""
    try:
        with io.FileIO(fd, closefd=True) as pipe:
            while chunk := pipe.read(_CHUNK):
                data = carry + chunk
                cut = data.rfind(b"\0") + 1
                whole, carry = data[:cut], data[cut:]
                h.update(whole)
                count += whole.count(b"\0")
                if count > limit:
                    os.kill(pid, 15)  # SIGTERM, without importing signal
                    return State("", count, racy)
                framed = b"\0" + whole
                if b"\0R\0" in framed:
                    racy = True
                if b"\0l " in framed:
                    links += [r.split(b" ", 5)[5] for r in whole.split(b"\0") if r.startswith(b"l ")]
    finally:
        _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0 or carry:
        return None
    for rel in links:
        path = os.path.join(root, os.fsdecode(rel))
        racy = _link(h, path, cutoff) or racy
    return State(h.hexdigest(), count, racy)


def _link(h: blake2b, path: str, cutoff: int) -> bool:
    """A link's target's stat into the digest (missing: `-`); whether it is racy."""
    from rulelens.cli.result_cache import signature

    sig, when = signature(path)
    h.update(f"T {sig}\0".encode())
    return when >= cutoff


def _walk(root: str, cutoff: int, limit: int) -> State | None:
    """The pass in Python: the same entries, the same stats, in another digest."""
    h = blake2b(b"walk", digest_size=20)
    count, racy = 0, False
    try:
        for rel, st in _entries(root):
            count += 1
            if count > limit:
                return State("", count, racy)
            h.update(f"{st.st_mode >> 12} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {st.st_ino} "
                     f"{rel}\0".encode("utf-8", "surrogateescape"))
            racy = racy or max(st.st_mtime_ns, st.st_ctime_ns) >= cutoff
            if st.st_mode >> 12 == 0o12:  # a symbolic link
                racy = _link(h, os.path.join(root, rel), cutoff) or racy
    except OSError:
        return None
    return State(h.hexdigest(), count, racy)


def _entries(root: str) -> Iterator[tuple[str, os.stat_result]]:
    """Every entry find lists, with its `lstat`; OSError when a folder cannot be read."""
    stack = [(root, "")]
    while stack:
        folder, prefix = stack.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                st = entry.stat(follow_symlinks=False)
                if st.st_mode >> 12 == 0o4:
                    if entry.name in SKIP_DIRS:
                        continue
                    stack.append((entry.path, f"{prefix}{entry.name}/"))
                yield prefix + entry.name, st
