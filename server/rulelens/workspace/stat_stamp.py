"""A path's stat as one value a cache compares to tell whether the path changed since it was read:
the one home for it (the rules folder, the configuration, the agents' files, the language
server's polling, and `check`'s kept answer all stamp what they read with it).

A stamp is (file type, size, mtime ns, ctime ns, inode): an edit in place moves the times, an
atomic write (a temporary file renamed over the old one) the inode, a `touch -m` back to the old
time still the ctime. With `os` alone: `check`'s kept answer stats with it before anything else
is loaded (tests/cli/test_result_cache.py's import budget).
"""

from __future__ import annotations

import os

Stamp = tuple[int, int, int, int, int]

MODIFIED = 2  # a stamp's mtime (ns), for ordering files by when they were last written


def of(st: os.stat_result) -> Stamp:
    """The stamp of a stat already made (a `DirEntry.stat()`)."""
    return (st.st_mode >> 12, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def stamp(path: str | os.PathLike[str], link: bool = False) -> Stamp | None:
    """The stamp of the file at `path`, or None when it cannot be stat'ed. With `link`, a link
    whose target is missing is stamped by itself (a dangling link is still a file listed)."""
    try:
        return of(os.stat(path))
    except (OSError, ValueError):
        if not link:
            return None
    try:
        return of(os.lstat(path))
    except (OSError, ValueError):
        return None


def latest(st: Stamp | None) -> int:
    """When the path last changed, content or metadata (ns; 0 when missing)."""
    return 0 if st is None else max(st[2], st[3])


def text(st: Stamp | None) -> str:
    """The stamp as text, kept on disk with `check`'s kept answer ("-" when missing)."""
    return "-" if st is None else ":".join(map(str, st))
