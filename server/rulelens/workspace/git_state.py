"""git's view of the files' content, as two commands anyone can run: `ls-files -s` (the blob id
of each file in the index) and `diff-files` (the files whose work-tree copy differs from it).

A file in the listing and not in `diff-files` has the content the blob id names, so the two
outputs stand for the content of every tracked file without reading any. The name search's
cache (rules/check/stale/search_cache.py) and `check`'s result cache (cli/result_cache.py)
both key on them (git.py's `snapshot` runs the two). This module imports nothing heavy (of
rulelens only fast_hash.py): the result cache's fast path reads it before anything else is
loaded, and runs the commands itself.

For that fast path it also reads git's own folder where that is a plain one (`plain_git`:
`HEAD`, its branch loose or in `packed-refs`), and splits the one listing of the index and the
untracked files that a small index is asked with (`split_listing`): git's plumbing, kept here
with the rest of git's state rather than in the command that uses it.
"""

from __future__ import annotations

import os

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


# -- git's folder, read where it is a plain one ------------------------------------------------
OTHERS = ["ls-files", "-z", "-o", "--exclude-standard"]  # the untracked files git does not ignore
# An index this small (about 10,000 files) is listed with the untracked files by one git
# (`ls-files -s -o`); past it, apart: the split copies the listing, which at 500,000 files
# would add its 35 MB to the peak.
SMALL_INDEX = 1024 * 1024
_SMALL_INDEX_ENV = "RULELENS_TEST_SMALL_INDEX"  # test hook: a small project past the limit
# Variables that move git's folder, index or objects away from `<root>/.git`.
_GIT_PLACES = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
               "GIT_NAMESPACE")
_HEX = frozenset("0123456789abcdef")


def git_folder(root: str) -> str:
    """Where a plain repository at `root` keeps git's folder (a worktree's `.git` is a file)."""
    return os.path.join(root, ".git")


def small_index(root: str) -> bool:
    """Whether `root`'s index is small enough to be listed with the untracked files by one git."""
    try:
        size = os.stat(os.path.join(git_folder(root), "index")).st_size
    except (OSError, ValueError):
        return False
    return size <= int(os.environ.get(_SMALL_INDEX_ENV) or SMALL_INDEX)


def split_listing(root: str, out: bytes | None) -> tuple[bytes | None, bytes | None]:
    """`ls-files -z -s -o` as `ls-files -z -s` and `ls-files -z -o` would answer: git lists the
    untracked files first, then the index's entries (`mode blob stage<TAB>path`). The first
    entry of that form starts the index's, unless a file of that very name is on disk (an
    untracked file named like an entry): then (None, None), and the run is in full, asking git
    itself."""
    if out is None:
        return None, None
    at = 0
    while at < len(out):
        end = out.find(b"\0", at)
        if end < 0:
            return None, None
        entry = out[at:end]
        if _index_entry(entry):
            if os.path.lexists(os.path.join(root, os.fsdecode(entry))):
                return None, None
            return out[at:], out[:at]
        at = end + 1
    return b"", out


def _index_entry(entry: bytes) -> bool:
    """Whether an entry has the form of `ls-files -s`'s: `<6 octal> <40 or 64 hex> <stage>\t…`."""
    head, tab, _ = entry.partition(b"\t")
    parts = head.split(b" ")
    if not tab or len(parts) != 3:
        return False
    mode, blob, stage = parts
    return (len(mode) == 6 and mode.isdigit() and len(blob) in (40, 64)
            and _HEX.issuperset(blob.decode("ascii", "replace")) and stage in (b"0", b"1", b"2", b"3"))


def git_paths_command(paths: tuple[str, ...] | list[str]) -> list[str]:
    """`rev-parse`'s arguments (after `git -C root`) for where git keeps each of `paths`, then
    `HEAD`'s commit: the lines `plain_git` gives."""
    return ["rev-parse", "--path-format=absolute", *(a for p in paths for a in ("--git-path", p)), "HEAD"]


def plain_git(root: str, paths: tuple[str, ...] | list[str]) -> list[str] | None:
    """What `git rev-parse --git-path … HEAD` answers (`git_paths_command`), read from
    `<root>/.git` where that is a plain repository's folder (a loose or packed branch, or a
    detached HEAD): one git process fewer on every run (2 ms of a 30 ms hit). None in any other
    case (a linked worktree or submodule, whose `.git` is a file; reftable; a ref that is a
    link; git's places moved by the environment; no commit yet): then git answers."""
    if any(name in os.environ for name in _GIT_PLACES):
        return None
    folder = git_folder(root)
    try:
        with open(os.path.join(folder, "HEAD"), "rb") as handle:
            head = handle.read().decode("ascii").strip()
        if head.startswith("ref: "):
            ref = head[5:]
            if not ref.startswith("refs/heads/") or ".." in ref.split("/") or "\\" in ref:
                return None
            try:
                with open(os.path.join(folder, ref), "rb") as handle:
                    head = handle.read().decode("ascii").strip()
            except FileNotFoundError:
                head = _packed(folder, ref) or ""
    except (OSError, ValueError):
        return None
    if len(head) != 40 or not _HEX.issuperset(head):
        return None
    return [os.path.join(folder, path) for path in paths] + [head]


def _packed(folder: str, ref: str) -> str | None:
    """A branch's commit in `packed-refs` (`<id> <ref>` lines; `^` lines peel tags)."""
    tail = f" {ref}"
    with open(os.path.join(folder, "packed-refs"), "rb") as handle:
        for raw in handle:
            line = raw.decode("utf-8", "surrogateescape").rstrip("\n")
            if line.endswith(tail) and not line.startswith(("#", "^")):
                return line[: -len(tail)]
    return None
