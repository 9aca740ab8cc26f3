"""Which of many words occur in the project's files: one pass over every file, not one per word.

The files are the project's file list outside the rules folder (in a git work tree: tracked and
untracked-but-not-ignored). The scan is GNU grep's fixed-string search (`grep -F -w -o -f -`: all
the words in one automaton) over the files in chunks, one grep per core, each chunk asked only
for the words no chunk before it matched (`grep_outputs`); without GNU grep, one regex per file
read here. Measured on a generated 40,000-file project with 2,093 words: `grep -F` 0.55 s,
`git grep -E` with the words as one alternation 1.3 s, `git grep -F -f` (which tries the
patterns one after another) 2.4 s on 5,000 files, and `grep -F -i` 8.5 s, so matching keeps case.
A word counts as present where it occurs as a whole word, so that `LegacyPriceHelper` is not
kept alive by `LegacyPriceHelperTest`. In a git work tree, a search's first round is answered
from the results of earlier runs plus a search of the changed files (search_cache.py).
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from rulelens.rules.check.stale.search_cache import CachedSearch, columns, texts
from rulelens.rules.check.stale.words import GREP_FLAGS
from rulelens.workspace.filelist import FileList
from rulelens.workspace.sorted_paths import prefix_span

TIMEOUT = 120.0  # seconds; a search that takes longer reports nothing rather than hang a check
MAX_FILE_BYTES = 1024 * 1024  # without git, larger files are skipped (minified bundles, data)
CHUNK_BYTES = 64 * 1024  # of file names per grep process, well below any argument limit
FIRST_CHUNK_BYTES = 16 * 1024  # of the first chunks: the words they match are left out of the rest

Search = Callable[[list[str]], "set[str] | None"]  # words -> the texts it matched

if TYPE_CHECKING:
    import subprocess

# `grep --version`, started by `probe_grep` before the name search asks `gnu_grep`: per process,
# as the child is (and `gnu_grep`'s answer, cached with it, is the same for every project).
_PROBE: list[tuple[str, subprocess.Popen[bytes]]] = []
_PROBE_SECONDS = 10


def probe_grep() -> None:
    """Start `grep --version` now, for `gnu_grep` to read later: `check` starts it beside git's
    file list, so that a process start is not on the run's path (4 ms on a small project). Not
    read (a project with no name to search), it is ended at exit (workspace/processes.py)."""
    import subprocess  # here: a project with no name to search does not import it

    from rulelens.workspace import processes

    grep = which_grep()
    if grep is None or _PROBE or gnu_grep.cache_info().currsize:
        return
    with contextlib.suppress(OSError):
        _PROBE.append((grep, processes.start([grep, "--version"], stderr=subprocess.DEVNULL, unread=True)))


@lru_cache(maxsize=1)
def gnu_grep() -> str | None:
    """GNU grep, whose `-o` reports the longest word at a position (`present` relies on it)."""
    from rulelens.workspace import processes

    grep: str | None
    if _PROBE:
        grep, probe = _PROBE.pop()
        out = processes.finish(probe, _PROBE_SECONDS)
    else:
        grep = which_grep()
        out = processes.run([grep, "--version"], _PROBE_SECONDS) if grep is not None else None
    return grep if out is not None and b"GNU grep" in out.stdout else None


def which_grep() -> str | None:
    """grep on PATH. shutil is imported here, by a run with a name to search."""
    import shutil

    return shutil.which("grep")


def _chunks(paths: Sequence[str], small: int = 0) -> list[list[str]]:
    """The files in chunks of CHUNK_BYTES of names, the first `small` of them FIRST_CHUNK_BYTES."""
    chunks: list[list[str]] = [[]]
    size = 0
    for rel in paths:
        if size > (FIRST_CHUNK_BYTES if len(chunks) <= small else CHUNK_BYTES):
            chunks.append([])
            size = 0
        chunks[-1].append(rel)
        size += len(rel) + 1
    return chunks


def grep_outputs(root: Path, grep: str, paths: Sequence[str], words: Sequence[str],
                 named: bool = False) -> tuple[list[bytes], frozenset[str]] | None:
    """grep's `-F -w -o` output for the words in the listed files, one output per chunk; with
    `named`, each line is `path\0match` (`-H -Z`). None when a grep failed.

    A word matched in one chunk is left out of the chunks started after it: most of grep's
    output is the common words' matches in every file, and a chunk left no word is not searched.
    The second value is the words left out of some chunk: their matches are not all in the
    output (a cache of where each match is must not count them as exact). The matches a chunk
    reports are still every one of the words it was given, so `words.present` reads them as a
    search of those words: a word matched in any chunk is present, and one never matched was
    searched in every file, each chunk's hidden words showing in that chunk's matches.
    """
    flags = [*GREP_FLAGS, *(["-H", "-Z"] if named else ["-h"])]
    from rulelens.workspace import processes

    def one(chunk: list[str], asked: Sequence[str]) -> bytes | None:
        pattern = "\n".join(asked).encode("utf-8") + b"\n"
        out = processes.run([grep, *flags, "-f", "-", "--", *chunk], TIMEOUT, pattern, cwd=root)
        # 2 is also what grep says after a file vanished (a tracked file deleted locally).
        return out.stdout if out is not None and out.returncode in (0, 1, 2) else None

    workers = os.cpu_count() or 2
    chunks = _chunks(paths, small=workers)
    if len(chunks) == 1:  # a small project: one grep, and no thread to start
        out = one(chunks[0], words)
        return ([out], frozenset()) if out is not None else None
    import threading

    from rulelens.workspace.later import in_thread

    lock = threading.Lock()
    outputs: list[bytes | None] = [b""] * len(chunks)
    matched: set[str] = set()
    left_out: set[str] = set()
    todo = iter(range(len(chunks)))

    def work() -> None:
        while True:
            with lock:
                at = next(todo, None)
                if at is None or None in outputs:
                    return
                asked = [w for w in words if w not in matched]
                left_out.update(matched)
            out = one(chunks[at], asked) if asked else b""
            with lock:
                outputs[at] = out
                if out is not None:
                    matched.update(matched_texts(out, named))

    started = [in_thread(work, name="rulelens-grep") for _ in range(workers)]
    for done in started:
        done.wait()  # all of them, as a pool's end does, before any failure is raised
    for done in started:
        done.result()
    if any(o is None for o in outputs):
        return None
    return [o or b"" for o in outputs], frozenset(left_out)


def matched_texts(output: bytes, named: bool) -> set[str]:
    """The texts one grep output matched."""
    lines = columns(output)[1] if named else output.split(b"\n")
    return {line.decode("utf-8", "surrogateescape") for line in set(lines) if line}


def grep_search(root: Path, paths: list[str], grep: str) -> Search:
    """Matched texts of the given words in the listed files, by `grep -F -w -o`.

    grep's fixed-string search runs all the words through one automaton. The files go as
    arguments in chunks, one grep per chunk and per core (one process per chunk of files, never
    one per word).
    """

    def search(words: list[str]) -> set[str] | None:
        grepped = grep_outputs(root, grep, paths, words)
        return texts(grepped[0]) if grepped is not None else None

    return search


def file_search(root: Path, paths: Iterable[str]) -> Search | None:
    """The same search over files read from disk; None when none of them can be read."""
    texts: dict[str, str] = {}
    for rel in paths:
        try:
            path = root / rel
            if path.is_symlink() or path.stat().st_size > MAX_FILE_BYTES:
                continue
            raw = path.read_bytes()
        except OSError:
            continue
        if b"\0" not in raw[:8192]:
            texts[rel] = raw.decode("utf-8", "replace")
    if not texts:
        return None

    def search(words: list[str]) -> set[str] | None:
        # Longest first, so that at one position the longest word wins, as in GNU grep.
        alternation = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        regex = re.compile(rf"(?<![A-Za-z0-9_])(?:{alternation})(?![A-Za-z0-9_])")
        found: set[str] = set()
        for text in texts.values():
            found.update(m.group() for m in regex.finditer(text))
        return found

    return search


def _outside(files: FileList, exclude: str) -> list[str]:
    lo, hi = prefix_span(files.paths, exclude.rstrip("/") + "/")
    return files.paths[:lo] + files.paths[hi:]  # the list is sorted: cut the folder out


def _grep_here(root: Path, outside: list[str]) -> str | None:
    """GNU grep, when there is one and the listed files are on disk (not a bare file list)."""
    grep = gnu_grep()
    if grep is not None and any(_regular(root / p) for p in outside[:: max(1, len(outside) // 50)]):
        return grep
    return None


def _regular(path: Path) -> bool:
    """`path.is_file()`, from `lstat` where that says enough. The answer is a file's type only,
    which git's view of the files holds already: `check`'s result cache, which records each
    `stat` the run makes as a file the output depends on (cli/result_cache.py), would otherwise
    count these sampled source files as read, and run in full after an edit of one of them."""
    try:
        mode = os.lstat(path).st_mode
    except (OSError, ValueError):
        return False
    return path.is_file() if stat.S_ISLNK(mode) else stat.S_ISREG(mode)


def scan_for(root: Path, files: FileList, exclude: str) -> Search | None:
    """The search over the listed files outside `exclude`: grep where there is one and the files
    are here, else reading them here. None when there is nothing to read."""
    found = cached_scan_for(root, files, exclude, cache=False)
    return found[0] if found is not None else None


def cached_scan_for(root: Path, files: FileList, exclude: str,
                    cache: bool = True, keep: bool = True) -> tuple[Search, Search | None] | None:
    """`scan_for`'s search, and with grep (and `cache`) the cached search that answers a first
    round from the results of earlier runs (search_cache.py; `keep` False reads it, never writes
    it). None when there is nothing to read."""
    outside = _outside(files, exclude)
    if not outside:
        return None
    grep = _grep_here(root, outside)
    if grep is None:
        search = file_search(root, outside)
        return (search, None) if search is not None else None
    full = grep_search(root, outside, grep)
    if not cache:
        return full, None

    def outputs(paths: Sequence[str], words: Sequence[str],
                named: bool) -> tuple[list[bytes], frozenset[str]] | None:
        return grep_outputs(root, grep, paths, words, named=named)

    return full, CachedSearch(root, outside, outputs, full, exclude, keep=keep, git=files.git)
