"""The name search's results kept between runs, keyed by git's index, so that a second `check`
reads only the files whose content changed (`stale-name` on large projects).

What is kept: the words searched; git's index listing (`git ls-files -s`: mode, blob id and path
of each file) when they were searched, as a digest and beside it in full; the files that were
not clean then (changed in the work tree, untracked, or symbolic links: a link's blob is its
target's name, while grep reads the target's text); and for each text grep matched, how many
clean files held it and up to CARRIERS of them. On the next run, `ls-files -s` and
`git diff-files` say which files are still the same blob and untouched: a match held by one of
them still holds. Only files added or changed since, and files not clean now, are searched again.
A match whose recorded files all changed, where other files may also have held it, means one
full search (rare: every recorded holder of a common word changed at once). When the index is
unchanged (no commit, checkout or `git add` since), comparing digests is all the work; else the
two listings are compared as sets.

Where: `git rev-parse --git-path rulelens/name-search.json`, inside git's own folder. It goes
with the repository (deleting the clone deletes it), never shows in `git status` or in the work
tree, each worktree gets its own (the index it is keyed by is per worktree), and no path needs
hashing into a shared folder such as ~/.cache. Outside a git work tree there is no cache.

A cache that cannot be read, has another format or version, or was written for another root is
ignored and rebuilt; one that would grow past MAX_BYTES is not written.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rulelens.workspace.atomic_write import write as write_file
from rulelens.workspace.cache_files import cache_file
from rulelens.workspace.fast_hash import blake2b
from rulelens.workspace.git import snapshot
from rulelens.workspace.git_state import AskGitAgain, Snapshot, paths_of

if TYPE_CHECKING:
    from rulelens.workspace.git import GitSession
    from rulelens.workspace.later import Later

FORMAT = "rulelens-name-search"
VERSION = 1
CARRIERS = 8  # files recorded per matched text: losing all of them at once is rare
MAX_NEEDLES = 20_000  # words kept across runs; past this the cache keeps only the current ones
MAX_BYTES = 64 * 1024 * 1024  # a listing larger than this is not kept (about 800,000 files)
CACHE_PATH = "rulelens/name-search.json"
GROUPS = 4  # of grep's outputs read together: up to 2 recorded holders of a match per group
EXACT_LINES = 20_000  # (file, match) lines of a search read one by one; past this, at C speed

# (files, words, named) -> one grep output per chunk, lines `path\0match` (`named`) or `match`,
# and the words some chunk was not asked for (text_search.grep_outputs); None on failure.
Grep = Callable[[Sequence[str], Sequence[str], bool], "tuple[list[bytes], frozenset[str]] | None"]


@dataclass
class Stored:
    """The cache's content; `listing` is read from beside it only when the digests differ."""

    needles: frozenset[str]
    digest: str
    unstable: frozenset[str]  # files searched but not clean when searched
    hits: dict[str, tuple[int, list[str]]]  # match -> (clean files holding it, some of them)


def _listing_file(where: Path) -> Path:
    return where.with_suffix(".index")


def start_snapshot(root: Path, exclude: str, git: GitSession | None = None) -> None:
    """Ask git now, in a thread, for what the search will need (a CLI `check` calls this before
    it lists the files and reads the rules, so that git's stat of every file runs meanwhile);
    the search of a file list listed through `git` takes it. Nothing without a session."""
    if git is None:
        return
    where = cache_file(root, CACHE_PATH, git)
    if where is None or not where.is_file():
        return  # a first run: git's view is read while grep runs, not while the files are listed
    from rulelens.workspace.later import in_thread

    git.ask_view(root, exclude, lambda: in_thread(lambda: snapshot(root, exclude, git), daemon=True,
                                                  name="rulelens-git-snapshot"))


def _snapshot_now(root: Path, exclude: str, git: GitSession | None) -> Snapshot | None:
    early = git.take_view(root, exclude) if git is not None else None
    if early is not None:
        with contextlib.suppress(AskGitAgain):
            return early.result()
    return snapshot(root, exclude, git)


def load(path: Path, root: Path) -> Stored | None:
    """The cache, or None when it is missing, unreadable, foreign or of another version."""
    try:
        raw = json.loads(path.read_bytes())
        if not (isinstance(raw, dict) and raw.get("format") == FORMAT and raw.get("version") == VERSION
                and raw.get("root") == str(root)):
            return None
        needles, digest, unstable, hits = raw["needles"], raw["digest"], raw["unstable"], raw["hits"]
        if not (isinstance(needles, list) and all(isinstance(n, str) for n in needles)
                and isinstance(digest, str) and isinstance(unstable, list)
                and all(isinstance(u, str) for u in unstable) and isinstance(hits, dict)):
            return None
        kept: dict[str, tuple[int, list[str]]] = {}
        for text, value in hits.items():
            count, *carriers = value
            if not (isinstance(count, int) and count >= len(carriers)
                    and all(isinstance(c, str) for c in carriers)):
                return None
            kept[text] = (count, carriers)
        return Stored(frozenset(needles), digest, frozenset(unstable), kept)
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def load_listing(where: Path, digest: str) -> bytes | None:
    """The listing saved beside the cache, if it is the one the cache was written with."""
    try:
        listing = _listing_file(where).read_bytes()
    except OSError:
        return None
    return listing if blake2b(listing, digest_size=20).hexdigest() == digest else None


def save(where: Path, root: Path, stored: Stored, listing: bytes | None) -> None:
    """Write the cache atomically (temp files renamed over it); a failure leaves the old one.

    The listing goes first, the cache naming its digest second: a crash between the two leaves
    a pair whose digests disagree, which reads as no cache. No fsync: a cache torn by a crash
    is ignored and rebuilt, so durability is not worth the wait. A listing past MAX_BYTES is not
    kept (and the cache removed)."""
    data = json.dumps({
        "format": FORMAT, "version": VERSION, "root": str(root),
        "needles": sorted(stored.needles), "digest": stored.digest, "unstable": sorted(stored.unstable),
        "hits": {text: [count, *carriers] for text, (count, carriers) in sorted(stored.hits.items())},
    }, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    with contextlib.suppress(OSError):
        if len(data) > MAX_BYTES or (listing is not None and len(listing) > MAX_BYTES):
            where.unlink(missing_ok=True)
            _listing_file(where).unlink(missing_ok=True)
            return
        where.parent.mkdir(parents=True, exist_ok=True)
        if listing is not None:
            write_file(_listing_file(where), listing)
        write_file(where, data)


def holders(outputs: Iterable[bytes], apart: frozenset[str] = frozenset(),
            partial: frozenset[str] = frozenset()) -> dict[str, tuple[int, list[str]]]:
    """match -> (files holding it, up to CARRIERS of them), from grep's `path\\0match` lines,
    leaving out the lines of the files `apart` (see `holders_apart`).

    A large search (past EXACT_LINES lines) is read at C speed: per group of chunks, the first and last
    file of each match; when they differ, more files may hold it than are recorded, and the
    count says so (one more than recorded), so losing all the recorded ones means a full search.
    So does the count of a match in `partial`: one some files were not searched for.
    """
    return holders_apart(outputs, apart, partial)[0]


def holders_apart(outputs: Iterable[bytes], apart: frozenset[str], partial: frozenset[str] = frozenset(),
                  ) -> tuple[dict[str, tuple[int, list[str]]], dict[str, tuple[int, list[str]]]]:
    """`holders` of the files not `apart`, and of those `apart`, each chosen among its own files:
    the cache keeps only clean files as holders, and a match whose first and last holders were
    both unclean (symbolic links to the same text, say) would otherwise be kept with none,
    which sends every later run to a full search."""
    columns = _grouped(outputs)
    if not apart:
        return _holders(columns, partial), {}
    skip = {p.encode("utf-8", "surrogateescape") for p in apart}
    inside: list[tuple[list[bytes], list[bytes]]] = []
    outside: list[tuple[list[bytes], list[bytes]]] = []
    for paths, texts in columns:
        if skip.isdisjoint(paths):
            outside.append((paths, texts))
            continue
        mask = [p in skip for p in paths]
        inside.append(([p for p, m in zip(paths, mask, strict=True) if m],
                       [t for t, m in zip(texts, mask, strict=True) if m]))
        outside.append(([p for p, m in zip(paths, mask, strict=True) if not m],
                        [t for t, m in zip(texts, mask, strict=True) if not m]))
    return _holders(outside, partial), _holders(inside, partial)


def _grouped(outputs: Iterable[bytes]) -> list[tuple[list[bytes], list[bytes]]]:
    """The paths and matches of grep's outputs, a few groups of chunks, not one per chunk: the
    Python work is per distinct match and group."""
    outputs = list(outputs)
    size = max(1, -(-len(outputs) // GROUPS))
    return [columns(b"".join(outputs[i : i + size])) for i in range(0, len(outputs), size)]


def _holders(columns: list[tuple[list[bytes], list[bytes]]],
             partial: frozenset[str]) -> dict[str, tuple[int, list[str]]]:
    counts: dict[bytes, int] = {}
    carriers: dict[bytes, list[bytes]] = {}
    exact = sum(len(texts) for _, texts in columns) <= EXACT_LINES
    for paths, texts in columns:
        if exact:
            seen = sorted(set(zip(paths, texts, strict=True)))
            for path, text in seen:
                counts[text] = counts.get(text, 0) + 1
                held = carriers.setdefault(text, [])
                if len(held) < CARRIERS:
                    held.append(path)
            continue
        last = dict(zip(texts, paths, strict=True))
        first = dict(zip(reversed(texts), reversed(paths), strict=True))
        for text, path in last.items():
            held = carriers.setdefault(text, [])
            for one in {first[text], path}:
                if len(held) < CARRIERS and one not in held:
                    held.append(one)
            # Two different files: there may be more in between, uncounted.
            counts[text] = counts.get(text, 0) + (1 if first[text] == path else CARRIERS + 1)
    out: dict[str, tuple[int, list[str]]] = {}
    for text, n in counts.items():
        if text:
            word = text.decode("utf-8", "surrogateescape")
            held = carriers[text]
            out[word] = (max(n, len(held) + (word in partial)),
                         sorted(p.decode("utf-8", "surrogateescape") for p in held))
    return out


def columns(output: bytes) -> tuple[list[bytes], list[bytes]]:
    """The paths and the matches of grep's `path\\0match\\n` lines, split at C speed."""
    if output.count(b"\0") != output.count(b"\n"):  # a file name with a line break: skip them
        lines = [line.partition(b"\0") for line in output.split(b"\n") if line.count(b"\0") == 1]
        return [a for a, _, _ in lines], [c for _, _, c in lines]
    parts = output.replace(b"\n", b"\0").split(b"\0")
    return parts[0:-1:2], parts[1::2]


def _links(listing: bytes) -> frozenset[str]:
    """The symbolic links of an index listing (mode 120000), found at C speed when there are none."""
    if not listing.startswith(b"120000 ") and b"\x00120000 " not in listing:
        return frozenset()
    return frozenset(paths_of([e for e in listing.split(b"\0") if e.startswith(b"120000 ")]))


def texts(outputs: Iterable[bytes]) -> set[str]:
    """The texts grep's outputs (`-h`: a match a line) matched."""
    lines: set[bytes] = set()
    for output in outputs:
        lines.update(output.split(b"\n"))  # in C: a common word matches in every file
    return {line.decode("utf-8", "surrogateescape") for line in lines if line}


class CachedSearch:
    """A `Search` answered from the cache plus a search of the changed files, for the first round
    of `text_search.present` (its answer covers a superset of the words asked: the cache's).

    The later rounds (words a longer match may hide) go to the plain search of every file, as
    does any call when git cannot help.
    """

    def __init__(self, root: Path, outside: Sequence[str], grep: Grep,
                 full: Callable[[list[str]], set[str] | None], exclude: str, keep: bool = True,
                 git: GitSession | None = None) -> None:
        self.root, self.outside, self.grep, self.full, self.exclude = root, outside, grep, full, exclude
        self.git = git  # the file list's session: git's view may have been asked early there
        self.keep = keep  # False: answer from the cache, never write it (a read-only workspace)
        self.outcome = "none"  # "hit", "miss" or "none" (no cache here): for tests and benchmarks

    def __call__(self, words: list[str]) -> set[str] | None:
        where = cache_file(self.root, CACHE_PATH, self.git)
        if where is None:
            self.outcome = "none"
            return self.full(words)
        from rulelens.workspace.later import in_thread

        # git's view of the files comes while the cache is read (or grep runs, when cold).
        later = in_thread(lambda: _snapshot_now(self.root, self.exclude, self.git),
                          name="rulelens-git-snapshot")
        try:
            stored = load(where, self.root)
            if stored is not None and set(words) <= stored.needles:
                snap = later.result()
                if snap is None:
                    self.outcome = "none"
                    return self.full(words)
                result = self._warm(where, snap, self._unstable(snap), stored)
                if result is not None:
                    self.outcome = "hit"
                    return result
            self.outcome = "miss"
            needles = set(words)
            if stored is not None and len(needles | stored.needles) <= MAX_NEEDLES:
                needles |= stored.needles  # keep what other rule files asked for (the language server)
            return self._cold(where, later, sorted(needles))
        finally:
            later.wait()  # as a pool's end does: no git is left running, even after a failure

    def _unstable(self, snap: Snapshot) -> frozenset[str]:
        """Files not clean now: changed in the work tree, not in the index (untracked), or
        symbolic links, whose blob is the target's name while grep reads the target's text."""
        dirty = snap.dirty | _links(snap.listing)
        if len(self.outside) == snap.count:  # every listed file is in the index: none untracked
            return dirty
        return dirty | (frozenset(self.outside) - frozenset(paths_of(snap.listing)))

    def _search(self, paths: Sequence[str], needles: list[str],
                named: bool) -> tuple[list[bytes], frozenset[str]] | None:
        return self.grep(paths, needles, named) if paths else ([], frozenset())

    def _cold(self, where: Path, later: Later[Snapshot | None], needles: list[str]) -> set[str] | None:
        """Search every file, and keep what the clean ones hold."""
        outputs = self._search(self.outside, needles, True)
        snap = later.result()
        if outputs is None:
            return None
        # Only clean files stand for their content next time: the kept holders are chosen among them.
        unstable = self._unstable(snap) if snap is not None else frozenset()
        hits, loose = holders_apart(outputs[0], unstable, outputs[1])
        found = set(hits) | set(loose)
        if snap is not None and self.keep:
            save(where, self.root, Stored(frozenset(needles), snap.digest, unstable, hits), snap.listing)
        return found

    def _warm(self, where: Path, snap: Snapshot, unstable: frozenset[str],
              stored: Stored) -> set[str] | None:
        added: set[str] = set()
        removed: set[str] = set()
        if snap.digest != stored.digest:
            before = load_listing(where, stored.digest)
            if before is None:
                return None
            old, new = set(before.split(b"\0")), set(snap.listing.split(b"\0"))
            added.update(paths_of(new - old))
            removed.update(paths_of(old - new))
        removed |= unstable  # held when clean; not what the index says now
        added |= stored.unstable - unstable  # clean now, and not searched as clean before
        added -= unstable
        hits: dict[str, tuple[int, list[str]]] = {}
        for text, (count, carriers) in stored.hits.items():
            kept = [c for c in carriers if c not in removed] if removed else carriers
            left = count - (len(carriers) - len(kept))  # an upper bound when not all were kept
            if not kept and left > 0:
                return None  # every recorded holder changed and others may hold it: search all
            if kept:
                hits[text] = (left, kept)
        needles = sorted(stored.needles)
        added_out = self._search(sorted(added), needles, True)
        unstable_out = self._search(sorted(unstable), needles, False)
        if added_out is None or unstable_out is None:
            return None
        for text, (n, files) in holders(added_out[0], partial=added_out[1]).items():
            count, carriers = hits.get(text, (0, []))
            hits[text] = (count + n, sorted(set(carriers) | set(files))[:CARRIERS])
        if self.keep and (added or removed - stored.unstable or unstable != stored.unstable):
            save(where, self.root, Stored(stored.needles, snap.digest, unstable, hits),
                 snap.listing if snap.digest != stored.digest else None)
        return set(hits) | texts(unstable_out[0])
