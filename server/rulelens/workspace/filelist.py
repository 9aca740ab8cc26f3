"""The project's file list (docs/cli.md) and fast glob counts over it.

Counting scans a newline-joined list with one C-level regex search per glob, limited to the
slice below the glob's literal folder prefix (found by bisect), instead of testing every file.
"""

from __future__ import annotations

import bisect
import contextlib
import operator
import os
import re
from array import array
from collections.abc import Iterable, Iterator
from functools import cached_property
from itertools import accumulate, chain, islice
from pathlib import Path
from typing import Any

from rulelens.glob_engines.boost import (
    Pattern,
    compile_glob,
    line_regex,
    literal_end,
    literal_matches,
    literal_test,
    patterns_of,
    plain_path,
    regex_source,
)
from rulelens.workspace.filetree import FileTree
from rulelens.workspace.git import LS_FILES, GitSession
from rulelens.workspace.reads import Reads
from rulelens.workspace.sorted_paths import prefix_span

SKIP_DIRS = {".git", "node_modules", "vendor"}
_PROBES = 32  # lines holding a glob's literal end tested one by one before one regex scan
_FEW = 4096  # files below a glob's folder tested one by one; past it one regex scan is faster


def git_files(root: Path, git: GitSession | None = None) -> list[str] | None:
    """Tracked and untracked-but-not-ignored files, or None outside a git work tree; through
    `git`'s answers when given (an answer given or started early)."""
    session = git if git is not None else GitSession()
    out = session.git_text(root, *LS_FILES)
    if out is None:
        return None
    session.known_work_tree(root)  # ls-files answers only inside a work tree
    paths = out.split("\0")
    if paths and not paths[-1]:
        paths.pop()  # the last path's terminator
    return paths if all(paths) else [p for p in paths if p]


def walk_files(root: Path, reads: Reads | None = None) -> list[str]:
    """Every file below root, skipping `.git`, `node_modules` and `vendor`; what `os.walk` lists
    (a symlink to a folder is not entered, an unreadable folder is skipped), in fewer Python
    steps an entry: one scandir loop with each folder's path prefix carried down, no relpath.
    Each folder listed is noted in `reads` when given."""
    found: list[str] = []
    add = found.append
    stack = [(os.fspath(root), "")]
    while stack:
        folder, prefix = stack.pop()
        if reads is not None:
            reads.note(folder)
        try:
            entries = os.scandir(folder)
        except OSError:
            continue
        with entries, contextlib.suppress(OSError):  # os.walk too stops a folder at a read error
            for entry in entries:
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                if not is_dir:
                    add(prefix + entry.name)
                elif entry.name not in SKIP_DIRS and not entry.is_symlink():
                    stack.append((entry.path, f"{prefix}{entry.name}/"))
    return found


def folders_of(paths: Iterable[str]) -> set[str]:
    """Every folder holding one of `paths` (relative, `/`-separated), at any depth, "" aside."""
    found: set[str] = set()
    # The ancestors of each distinct folder, not of each file: a few thousand walks up.
    for folder in {p.rpartition("/")[0] for p in paths}:
        while folder and folder not in found:
            found.add(folder)
            folder = folder.rpartition("/")[0]
    return found


class FileList:
    """A sorted list of root-relative POSIX paths with glob counting."""

    def __init__(self, paths: list[str], owned: bool = False, git: GitSession | None = None,
                 reads: Reads | None = None) -> None:
        """`owned`: the caller hands `paths` over, sorted in place rather than copied. `git`: the
        session that listed them, which the checks over this list ask git through (git.py).
        `reads`: where the checks over this list note what they read on disk beyond it."""
        self.git = git
        self.reads = reads if reads is not None else Reads()
        # What a check works out from this list and keeps as long as the list lives (the name
        # search's scans), by the module that owns it: the list knows no rule (layers).
        self.kept: dict[str, Any] = {}
        if owned:
            paths.sort()
        ordered = paths if owned else sorted(paths)  # duplicates are neighbours: no set (30 MB)
        if any(map(operator.eq, ordered, islice(ordered, 1, None))):
            ordered = [p for i, p in enumerate(ordered) if i == 0 or p != ordered[i - 1]]
        self.paths = ordered
        # One join with the last line's end (a `+ "\n"` after it would copy the whole text).
        self._joined = "\n".join(chain(self.paths, ("",))) if self.paths else ""
        # Each line's start in the joined text, summed in C (a length and its newline a path), in
        # a compact int array (a list of ints costs ~4x the memory): 4 bytes an offset while
        # the text is under 4 GiB (2 MB less at 500,000 files), else 8.
        code = "q" if len(self._joined) >= 2**32 or array("I").itemsize < 4 else "I"
        self._offsets = array(code, accumulate(map((1).__add__, map(len, ordered)), initial=0))

    @classmethod
    def for_root(cls, root: Path, git: GitSession | None = None, reads: Reads | None = None) -> FileList:
        """git's list (through `git`, a new session when None), else a walk."""
        session = git if git is not None else GitSession()
        reads = reads if reads is not None else Reads()
        files = git_files(root, session)
        listed = files if files is not None else walk_files(root, reads)
        return cls(listed, owned=True, git=session, reads=reads)

    def __len__(self) -> int:
        return len(self.paths)

    def _span(self, pattern: Pattern) -> tuple[int, int]:
        if not pattern.prefix:
            return 0, len(self._joined)
        lo, hi = prefix_span(self.paths, pattern.prefix)
        return self._offsets[lo], self._offsets[hi]

    def _matches(self, pattern: Pattern) -> Iterator[re.Match[str]]:
        start, end = self._span(pattern)
        if start >= end:
            return iter(())
        return line_regex(pattern).finditer(self._joined, start, end)

    def pattern_matches_any(self, pattern: Pattern) -> bool:
        start, end = self._span(pattern)
        if start >= end:
            return False
        regex, text = line_regex(pattern), self._joined
        end_text = literal_end(pattern.source)
        if end_text and "\n" not in end_text:
            # The lines holding the glob's literal end, one by one (a substring search, then the
            # regex on that line): the regex alone retries at every line start, tens of ms over
            # 10,000 files for `**/*.tsx`. After a few lines that do not match, one scan.
            for _ in range(_PROBES):
                found = text.find(end_text, start, end)
                if found < 0:
                    return False
                line_start = text.rfind("\n", start, found) + 1 or start
                line_end = text.find("\n", found, end) + 1 or end
                if regex.search(text, line_start, line_end) is not None:
                    return True
                start = line_end
                if start >= end:
                    return False
        return regex.search(text, start, end) is not None

    def glob_matches_any(self, glob: str) -> bool:
        """Whether one concrete glob matches some file: the shapes `literal_test` knows by
        bisection and string tests over the files below their folder (a project's globs are
        mostly these; compiling each to ask once costs more than the answer), others by regex."""
        source = regex_source(glob)
        if source is None:
            return False
        test = literal_test(source)
        if test is not None:
            lo = bisect.bisect_left(self.paths, test[0])
            hi = bisect.bisect_left(self.paths, test[0] + "\U0010ffff", lo)
            below = self.paths[lo:hi] if hi - lo <= _FEW else None
            if not test[3]:  # `^a/b/`: any file below the folder
                return lo < hi
            if below is not None and (self._all_plain or all(plain_path(p) for p in below)):
                return any(literal_matches(test, p) for p in below)
        pattern = compile_glob(glob, True)
        return pattern is not None and self.pattern_matches_any(pattern)

    @cached_property
    def folders(self) -> frozenset[str]:
        """Every folder holding a listed file, at any depth ("" aside): made once for the agents'
        view and the name search, which both need it (0.1 s a pass at 500,000 files)."""
        return frozenset(folders_of(self.paths))

    @cached_property
    def _all_plain(self) -> bool:
        """Whether every path is a `plain_path`, read from the joined text in C: one newline a
        path (so none inside one), and no empty path, `//`, `\r` or leading `/`. Then each
        glob's files need not be tested one by one (10,000 globs over 500,000 files: 0.5 s)."""
        text = self._joined
        return (text.count("\n") == len(self.paths) and not text.startswith(("/", "\n"))
                and not any(bad in text for bad in ("\n\n", "\n/", "//", "\r")))

    def lines_matching(self, pattern: Pattern) -> Iterator[str]:
        """Files one compiled pattern matches, include flag aside (to see what a `!` would drop)."""
        return (self._line_at(m.start()) for m in self._matches(pattern))

    def matching(self, item: str) -> Iterator[str]:
        """Files selected by one `paths` item (negations in the item exclude), sorted."""
        patterns = patterns_of(item)
        positive = [p for p in patterns if p.include]
        negative = [p for p in patterns if not p.include]
        seen: set[str] = set()
        for p in positive:
            for m in self._matches(p):
                line = self._line_at(m.start())
                if line not in seen and not any(n.regex.match(line) for n in negative):
                    seen.add(line)
        return iter(sorted(seen))

    def ending(self, suffixes: Iterable[str]) -> list[str]:
        """The paths that end with one of `suffixes`, sorted. Each suffix is one C-level search
        of the joined text for it with the line's end (about 3 ms over 500,000 paths, where a
        Python test a path takes 60); each hit is then kept only where its path does end with
        the suffix, so a path holding a newline cannot fool it."""
        text, offsets, paths = self._joined, self._offsets, self.paths
        found: set[int] = set()
        for suffix in suffixes:
            if not suffix or "\n" in suffix:
                found.update(i for i, p in enumerate(paths) if p.endswith(suffix))
                continue
            needle = suffix + "\n"
            pos = text.find(needle)
            while pos >= 0:
                end = pos + len(needle)
                i = bisect.bisect_left(offsets, end) - 1  # the path whose text holds this line end
                if paths[i].endswith(suffix):
                    found.add(i)
                pos = text.find(needle, end)
        return [paths[i] for i in sorted(found)]

    def _line_at(self, pos: int) -> str:
        i = bisect.bisect_right(self._offsets, pos) - 1
        return self.paths[i]

    def count(self, item: str) -> int:
        return sum(1 for _ in self.matching(item))

    def examples(self, item: str, n: int = 5) -> list[str]:
        out = []
        for path in self.matching(item):
            out.append(path)
            if len(out) >= n:
                break
        return out

    def children(self, folder: str) -> list[tuple[str, bool]]:
        """(name, is_folder) directly inside a folder ("" is the root), folders first."""
        folders, files = FileTree(self.paths).listing(folder.strip("/"))
        return [(name, True) for name, _ in folders] + [(name, False) for name in sorted(files)]
