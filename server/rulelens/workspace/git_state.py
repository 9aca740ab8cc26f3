"""git's view of the files' content, as two commands anyone can run: `ls-files -s` (the blob id
of each file in the index) and `diff-files` (the files whose work-tree copy differs from it).

A file in the listing and not in `diff-files` has the content the blob id names, so the two
outputs stand for the content of every tracked file without reading any. The name search's
cache (rules/check/stale/search_cache.py) and `check`'s result cache (cli/result_cache.py)
both key on them (git.py's `snapshot` runs the two). This module imports nothing heavy (of
rulelens only fast_hash.py): the result cache's fast path reads it before anything else is
loaded, and runs the commands itself.
"""

from __future__ import annotations

from rulelens.workspace.fast_hash import blake2b

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (14 ms), as mypy reads it

if TYPE_CHECKING:
    from pathlib import Path


def no_repository(root: Path | str) -> bool:
    """Whether git surely finds no repository for root, from a few stats instead of a git
    process (outside git, `check` asked git eight times: about 30 ms): no `.git` (folder, file
    or link) in root or a folder above it, along its path as given and as resolved, no `HEAD`
    there (a bare repository's folder), and no GIT_DIR or GIT_WORK_TREE in the environment. Each
    call looks again (the folder may become a work tree). Here, with `os` only, because the
    result cache's fast path asks it too (cli/result_cache.py) and loads nothing else."""
    import os

    if "GIT_DIR" in os.environ or "GIT_WORK_TREE" in os.environ:
        return False
    for folder in {os.path.abspath(root), os.path.realpath(root)}:
        while True:
            if os.path.lexists(os.path.join(folder, ".git")) or os.path.lexists(os.path.join(folder, "HEAD")):
                return False
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
    return True


# An unmerged entry's stage: several index entries for one path.
_STAGES = (b" 1\t", b" 2\t", b" 3\t")


class AskGitAgain(Exception):
    """Set on a handed-over view that holds no answer (git failed, or its listing was too long
    to keep): whoever reads it asks git itself."""


class Snapshot:
    """What git says about the files: the index listing and which files differ from it."""

    __slots__ = ("count", "digest", "dirty", "listing")

    def __init__(self, listing: bytes, changed: bytes) -> None:
        self.listing = listing  # `git ls-files -s -z` output
        self.digest = blake2b(listing, digest_size=20).hexdigest()
        dirty = set(changed.decode("utf-8", "surrogateescape").split("\0"))
        dirty.discard("")
        # changed in the work tree (or unmerged): not what the index says
        self.dirty: frozenset[str] = frozenset(dirty)
        count = listing.count(b"\0")
        if any(stage in listing for stage in _STAGES):
            count = len(set(paths_of(listing)))
        self.count = count  # index paths (stage 0)


def commands(exclude: str | None = None) -> tuple[list[str], list[str]]:
    """The two git commands (arguments after `git -C root`), for the files outside `exclude`."""
    spec = ["--", ".", f":(exclude,literal){exclude.rstrip('/')}"] if exclude else []
    return (["ls-files", "-z", "-s", *spec], ["diff-files", "--name-only", "-z", "--relative", *spec])


def outside(listing: bytes, changed: bytes, exclude: str) -> Snapshot:
    """The snapshot `snapshot(root, exclude)` gives, from the outputs of `snapshot(root)`.

    The listing is sorted by path, so the folder's entries are one run of it, cut out with two
    searches (no object per entry: a 500,000-file listing is 35 MB) when every entry has one tab,
    the one before its path; a path with a tab of its own is read entry by entry."""
    folder = exclude.rstrip("/").encode("utf-8", "surrogateescape")
    below = folder + b"/"

    def kept(path: bytes) -> bool:
        return path != folder and not path.startswith(below)

    names = b"".join(n + b"\0" for n in changed.split(b"\0") if n and kept(n))
    if listing.count(b"\t") != listing.count(b"\0"):
        entries = [e for e in listing.split(b"\0") if e and kept(e.partition(b"\t")[2])]
        return Snapshot(b"".join(e + b"\0" for e in entries), names)
    for marker in (b"\t" + below, b"\t" + folder + b"\0"):
        first = listing.find(marker)
        if first >= 0:
            last = listing.rfind(marker) if marker.endswith(b"/") else first
            start = listing.rfind(b"\0", 0, first) + 1
            end = listing.find(b"\0", last + len(marker) - 1) + 1
            view = memoryview(listing)
            listing = b"".join((view[:start], view[end:]))  # one copy, not three
    return Snapshot(listing, names)


def paths_of(listing: bytes | list[bytes] | set[bytes]) -> list[str]:
    """The paths of `ls-files -s -z` entries (`mode blob stage\\tpath`)."""
    entries = listing.split(b"\0") if isinstance(listing, bytes) else listing
    return [e.partition(b"\t")[2].decode("utf-8", "surrogateescape") for e in entries if e]
