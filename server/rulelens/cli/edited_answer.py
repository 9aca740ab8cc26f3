"""`check`'s kept answer after source files were edited: printed again, without the core, when
the edit cannot have changed it (cli/result_cache.py keeps the answer and calls this on a miss).

The full run reads some files itself: the rule files, the agents' files and settings, the
configuration, files a rule names. Those are keyed by their stat (the answer's `deps`), and an
edit of one is a run in full. Every other file's text reaches the output only through the name
search (rules/check/stale/findings.py): whether each word the rules mention occurs as a whole
word in some file outside the rules folder, true or false, nothing about where or how often.
The kept answer records that (findings.py's `search_record`): each word searched, found or not,
and for a found one some files that held it. After an edit, the changed files (and any the run
searched without seeing which file held a match) are searched for the words. A small file whose
text grep and this process read alike is searched here (rules/check/stale/word_scan.py: ASCII or
UTF-8 text, words that begin and end with a word character, a UTF-8 or C locale), which costs
less than starting grep; any other file by the same grep, read by the same rules (words.py):
- a word not found before is still absent unless a changed file holds it;
- a word found before is still found if a searched file holds it, or if a file that held it is
  unchanged; else its last holder may be gone.
When every word's state is certain and unchanged, the kept answer is printed and kept again under
the new key (the next run is a plain hit); otherwise the run is in full.

Which files changed comes from git's answers beside the run that kept the answer: the index
listing (kept beside the answer while shorter than LISTING_KEPT; past that a `git add` is a run
in full), the files that differ from it and the untracked files, each by stat. The run is in
full when a change is not only an edit of a regular file's text: a file added, deleted,
renamed or of another type (the file list changes); a `.gitignore`, `.gitattributes` or
`.gitmodules` (git's answers about other files); a file below a rules folder; a file the run
read itself (its stat is in `deps`); more than MAX_CHANGED files.

Imports only what the hit path does, plus word_scan.py (and words.py with `re` when grep reads a
file): no subprocess (grep is started with `posix_spawn`, as git is), no json (the side file is
`marshal`'s), nothing of the core.
"""

from __future__ import annotations

import marshal
import os
import stat

from rulelens.cli.answer_file import Stored, dump, printed, unlink, write
from rulelens.workspace.fast_hash import blake2b
from rulelens.workspace.spawn import collect, spawn

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, as mypy reads it
if TYPE_CHECKING:
    from typing import Protocol

    class Pending(Protocol):
        """What this module reads of a miss's git answers (cli/result_cache.py's `Pending`)."""

        root: str
        base: str
        digest: str | None
        listing: bytes | None
        dirty: dict[str, str]
        untracked: dict[str, str] | None

        def index_listing(self) -> bytes | None: ...
        def tracked(self) -> str | None: ...
        def key(self) -> str | None: ...
        def settled(self) -> bool: ...

SIDE = ".files"  # beside the answer: the files' state and the search's record (SIDE_FORMAT)
# The side file: this line, then `marshal`'s data (built in, so reading it imports nothing: json's
# import is 1.5 ms of a 25 ms answer). It is written only by rulelens, atomically, in git's
# folder, beside git's hooks: marshal's data is read from nowhere else.
SIDE_FORMAT = b"rulelens-check-files 2\n"
MARSHAL_VERSION = 4
INDEX = ".index"  # beside the answer: the index listing, when short
MAX_CHANGED = 256  # changed files searched here; past this the run is in full
MAX_ARG_BYTES = 64 * 1024  # of file names on grep's command line (text_search.CHUNK_BYTES)
MAX_HERE_BYTES = 256 * 1024  # a changed file this small is searched here rather than by grep
GIT_FILES = (".gitignore", ".gitattributes", ".gitmodules")
CARRIERS = 8  # holders kept per word, as the name search keeps per match (search_cache.py)
REGULAR = "8"  # a regular file's type in answer_file.signature (st_mode >> 12)
_REGULAR_MODES = (b"100644", b"100755")  # in git's index


def side_data(pending: Pending, tracked: str, key: str, searches: list[dict[str, object]]) -> bytes | None:
    """What is kept beside the answer for this module; None when git's answers are not all here."""
    if pending.digest is None or pending.untracked is None:
        return None
    return SIDE_FORMAT + marshal.dumps(
        {"tracked": tracked, "key": key, "base": pending.base, "digest": pending.digest,
         "dirty": pending.dirty, "untracked": pending.untracked, "searches": searches}, MARSHAL_VERSION)


def read_side(where: str) -> dict[str, object] | None:
    """What side_data kept beside the answer at `where`; None when missing or of another format."""
    try:
        with open(where + SIDE, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    if not data.startswith(SIDE_FORMAT):
        return None
    try:
        side = marshal.loads(memoryview(data)[len(SIDE_FORMAT):])
    except (ValueError, EOFError, TypeError):
        return None
    return side if isinstance(side, dict) else None


def answer(pending: Pending, where: str, stored: Stored) -> int | None:
    """The exit code after printing the kept answer, when the edits since cannot have changed
    it; None when the run must be in full."""
    side = read_side(where)
    try:
        if side is None or (side.get("tracked"), side.get("key")) != (stored.tracked, stored.key):
            return None
        searches = side.get("searches")
        if side.get("base") != pending.base or not isinstance(searches, list):
            return None
        changed = _changed(pending, where, side)
        if changed is None:
            return None
        searched = _search_again(pending.root, changed, searches)
    except (OSError, ValueError, TypeError, KeyError, AttributeError, UnicodeError):
        return None
    if searched is None:
        return None
    if not printed(stored):
        return 0
    _keep_again(pending, where, stored, searched, side.get("digest"))
    return stored.code


def _keep_again(pending: Pending, where: str, stored: Stored, searches: list[dict[str, object]],
                digest: object) -> None:
    """The same answer under the new key, so that the next run is a plain hit. The index listing
    beside it is written again only when it changed (`digest`: the kept one's): the next run
    checks what it reads there against the digest in the side file."""
    tracked, key = pending.tracked(), pending.key()
    if tracked is None or key is None or not pending.settled():
        return
    side = side_data(pending, tracked, key, searches)
    if side is None:
        return
    if pending.digest != digest or pending.listing is None:
        write_index(where, pending.listing)
    write(where + SIDE, side)
    write(where, dump(Stored(tracked, key, stored.code, stored.deps, stored.output)))


def write_index(where: str, listing: bytes | None) -> None:
    if listing is None:
        unlink(where + INDEX)
    else:
        write(where + INDEX, listing)


# -- which files changed ----------------------------------------------------------------------
def _entry(listing: bytes, rel: str) -> bytes | None:
    """The `mode blob stage` of a path's one index entry, or None (absent, or unmerged)."""
    tail = b"\t" + rel.encode("utf-8", "surrogateescape") + b"\0"
    at = listing.find(tail)
    if at < 0 and listing.startswith(tail[1:]):
        return None
    while at >= 0:
        start = listing.rfind(b"\0", 0, at) + 1
        entry = listing[start:at]
        if entry.endswith(b" 0"):
            return entry
        if entry[-2:] in (b" 1", b" 2", b" 3"):
            return None
        at = listing.find(tail, at + 1)  # the tab was inside another path
    return None


def _listing_changes(old: bytes, new: bytes) -> set[str] | None:
    """Paths whose index entry changed; None when a path was added or removed."""
    before, after = set(old.split(b"\0")), set(new.split(b"\0"))
    gone, came = before - after, after - before
    gone_paths = {e.partition(b"\t")[2] for e in gone}
    came_paths = {e.partition(b"\t")[2] for e in came}
    if gone_paths != came_paths or len(gone_paths) != len(gone) or len(came_paths) != len(came):
        return None
    return {p.decode("utf-8", "surrogateescape") for p in came_paths}


def _changed(pending: Pending, where: str, side: dict[str, object]) -> set[str] | None:
    """The files whose text may differ from the kept run's, each still a regular file with the
    same name; None when anything else changed."""
    listing = pending.index_listing()
    untracked = pending.untracked
    old_dirty, old_untracked = side["dirty"], side["untracked"]
    if (listing is None or untracked is None or not isinstance(old_dirty, dict)
            or not isinstance(old_untracked, dict)):
        return None
    if untracked.keys() != old_untracked.keys():
        return None  # a file added or removed outside the index
    old_listing = listing
    changed: set[str] = set()
    if pending.digest != side["digest"]:
        with open(where + INDEX, "rb") as handle:
            old_listing = handle.read()
        if blake2b(old_listing, digest_size=20).hexdigest() != side["digest"]:
            return None
        found = _listing_changes(old_listing, listing)
        if found is None:
            return None
        changed |= found
    dirty = pending.dirty
    changed.update(p for p in dirty.keys() | old_dirty.keys() if dirty.get(p) != old_dirty.get(p))
    changed.update(p for p, sig in untracked.items() if sig != old_untracked[p])
    if len(changed) > MAX_CHANGED:
        return None
    for rel in changed:
        if rel.rpartition("/")[2] in GIT_FILES:
            return None
        try:
            if not stat.S_ISREG(os.lstat(os.path.join(pending.root, rel)).st_mode):
                return None
        except (OSError, ValueError):
            return None  # deleted
        if rel in untracked:
            before = old_untracked[rel]
            if not isinstance(before, str) or before.partition(":")[0] != REGULAR:
                return None
            continue
        for kept in (listing, old_listing):
            entry = _entry(kept, rel)
            if entry is None or entry.partition(b" ")[0] not in _REGULAR_MODES:
                return None
        before = old_dirty.get(rel)
        if before is not None and (not isinstance(before, str) or before.partition(":")[0] != REGULAR):
            return None
    return changed


# -- the search of the changed files ------------------------------------------------------------
def _grep(grep: str, root: str, files: list[str], needles: list[str]) -> list[tuple[str, str]] | None:
    """(file, match) of grep's `-F -w -o` for the words in the files, as the full run's search
    reads them; None when grep failed."""
    from rulelens.rules.check.stale.words import GREP_FLAGS  # loaded already by _grep_words

    prefix = root.rstrip(os.sep) + os.sep
    pattern = ("\n".join(needles) + "\n").encode("utf-8")
    r_in, w_in = os.pipe()
    try:
        started = spawn([grep, *GREP_FLAGS, "-H", "-Z", "-f", "-", "--", *(prefix + f for f in files)],
                        stdin=r_in)
    finally:
        os.close(r_in)
    try:
        view = memoryview(pattern)
        while view and started is not None:  # grep reads every pattern before it writes anything
            view = view[os.write(w_in, view):]
    except OSError:
        pass  # grep ended early: its status says why
    finally:
        os.close(w_in)
    # 2 is also what grep says after a file vanished, as text_search.grep_outputs accepts
    out = collect(started, ok=(0, 1, 2))
    if out is None:
        return None
    pairs: list[tuple[str, str]] = []
    for line in out.split(b"\n"):
        path, zero, match = line.partition(b"\0")
        if not zero:
            continue
        text = path.decode("utf-8", "surrogateescape")
        if not text.startswith(prefix) or b"\0" in match:
            return None  # a file name with a line break: not read here
        pairs.append((text[len(prefix):], match.decode("utf-8", "surrogateescape")))
    return pairs


def _own_text(root: str, rel: str, known: dict[str, bool]) -> bool:
    """Whether a file's text is its own: a symbolic link shows its target's, which may have
    changed while the link did not. `known` keeps the answers (a file holds many words)."""
    if rel not in known:
        try:
            known[rel] = stat.S_ISREG(os.lstat(root + os.sep + rel).st_mode)
        except (OSError, ValueError):
            known[rel] = False
    return known[rel]


def _search_here(root: str, files: list[str], words: list[str]) -> tuple[dict[str, set[str]], list[str]]:
    """Which words each file holds, for the files read here with grep's answer for certain
    (word_scan.py), and the files left to grep: those that are not small regular files, or
    whose text or locale this does not read as grep does."""
    from rulelens.rules.check.stale import word_scan

    if not word_scan.ascii_locale():
        return {}, files
    encoded = {w.encode("utf-8"): w for w in words}
    prefix = root.rstrip(os.sep) + os.sep
    held: dict[str, set[str]] = {}
    rest: list[str] = []
    for rel in files:
        text = _small_text(prefix + rel)
        found = None if text is None else word_scan.whole_words(text, encoded)
        if found is None:
            rest.append(rel)
        else:
            held[rel] = {encoded[w] for w in found}
    return held, rest


def _small_text(path: str) -> bytes | None:
    """A regular file's bytes (through a link, as grep reads it) when it is at most
    MAX_HERE_BYTES, else its first BINARY_PREFIX bytes when they hold a NUL (grep -I reads no
    further); None otherwise or when it cannot be read (grep says what it finds)."""
    from rulelens.rules.check.stale.word_scan import BINARY_PREFIX

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # a FIFO does not block
    except (OSError, ValueError):
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        if st.st_size > MAX_HERE_BYTES:
            head = os.pread(fd, BINARY_PREFIX, 0)
            return head if b"\0" in head else None
        parts = []
        while True:
            part = os.read(fd, max(st.st_size + 1, 4096))
            if not part:
                break
            parts.append(part)
            if sum(map(len, parts)) > MAX_HERE_BYTES:
                return None  # grown since the stat
        return b"".join(parts)
    except OSError:
        return None
    finally:
        os.close(fd)


def _search_again(root: str, changed: set[str],
                  searches: list[dict[str, object]]) -> list[dict[str, object]] | None:
    """Each kept search's record after the edit, when no word's state changed; else None."""
    out: list[dict[str, object]] = []
    own: dict[str, bool] = {}
    for record in searches:
        exclude, grep = record["exclude"], record["grep"]
        absent, held, unnamed = record["absent"], record["present"], record["unnamed"]
        if (record["root"] != root or not isinstance(exclude, str) or not isinstance(absent, list)
                or not isinstance(held, dict) or not isinstance(unnamed, list)):
            return None
        folder = exclude.rstrip("/") + "/"
        if any(rel.startswith(folder) or rel == exclude.rstrip("/") for rel in changed):
            return None
        words = sorted({*absent, *held})
        # A link shows its target's text, which git does not tie to the link: search it again.
        links = {h for holders in held.values() if isinstance(holders, list) for h in holders
                 if h not in changed and not _own_text(root, h, own)}
        files = sorted(changed | set(unnamed) | links) if words else []
        if not files:
            out.append(record)
            continue
        if not isinstance(grep, str) or sum(len(f) + len(root) + 2 for f in files) > MAX_ARG_BYTES:
            return None
        # word -> the files found holding it (as a match equal to it, or holding it whole)
        seen: dict[str, set[str]] = {}
        here, rest = _search_here(root, files, words)
        for rel, holds in here.items():
            for word in holds:
                seen.setdefault(word, set()).add(rel)
        found = set(seen)
        if rest:
            grepped = _grep_words(grep, root, rest, words, seen)
            if grepped is None:
                return None
            found |= grepped
        if any(w in found for w in absent):
            return None
        searched = set(files)
        now: dict[str, set[str]] = {}
        for word, holders in held.items():
            if not isinstance(holders, list):
                return None
            still = {h for h in holders if h not in searched}
            if word not in found and not any(_own_text(root, h, own) for h in still):
                return None  # its last holder may be gone
            now[word] = still
        for word, where in seen.items():
            if word in now:
                now[word] |= where
        out.append({**record, "present": {w: sorted(h)[:CARRIERS] for w, h in sorted(now.items())},
                    "unnamed": []})
    return out


def _grep_words(grep: str, root: str, files: list[str], words: list[str],
                seen: dict[str, set[str]]) -> set[str] | None:
    """The words grep finds in the files, read as the full run's search reads its matches
    (words.py); each word's holders go into `seen`. None when grep failed."""
    from rulelens.rules.check.stale.words import inner_words, present

    matched: dict[str, set[str]] = {}

    def search(asked: list[str]) -> set[str] | None:
        pairs = _grep(grep, root, files, asked)
        if pairs is None:
            return None
        for rel, text in pairs:
            matched.setdefault(text, set()).add(rel)
        return {text for _, text in pairs}

    found = present(search, words)
    if found is None:
        return None
    for text, where in matched.items():
        for word in {text} | inner_words({text}):
            seen.setdefault(word, set()).update(where)
    return found
