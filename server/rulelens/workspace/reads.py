"""What one run looked up on disk beyond git's file list, noted where it looks.

git's answers say which files a project has and whether they changed; the files the core opens,
stats or lists itself (the rule files, the agents' files and settings, a file a rule names that
git ignores, a folder it lists) are noted here as it reads them, so that a front that keeps an
answer (`check`'s, cli/result_cache.py) knows what else the answer depends on. Nothing is
intercepted: code that reads the project's files for a check reads them through a `Reads`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

StrPath = str | os.PathLike[str]


class Reads:
    """The absolute paths a run opened, stat'ed or listed (a missing one too: its appearance
    changes the answer). One per file list (workspace/filelist.py); it only grows."""

    def __init__(self) -> None:
        self.paths: set[str] = set()

    def note(self, path: StrPath) -> None:
        self.paths.add(os.path.abspath(os.fspath(path)))

    def is_file(self, path: StrPath) -> bool:
        self.note(path)
        return os.path.isfile(path)

    def is_dir(self, path: StrPath) -> bool:
        self.note(path)
        return os.path.isdir(path)

    def exists(self, path: StrPath) -> bool:
        self.note(path)
        return os.path.exists(path)

    def read_bytes(self, path: StrPath, limit: int | None = None) -> bytes:
        """At most `limit` bytes (all when None); OSError as `open` raises it."""
        self.note(path)
        with open(path, "rb") as handle:
            return handle.read() if limit is None else handle.read(limit)

    def read_text(self, path: StrPath) -> str:
        """As `Path.read_text` reads UTF-8, undecodable bytes replaced (lines ends as text mode
        reads them)."""
        self.note(path)
        return Path(path).read_text(encoding="utf-8", errors="replace")

    def entries(self, folder: StrPath) -> list[os.DirEntry[str]]:
        """The folder's entries, sorted by name; OSError as `os.scandir` raises it."""
        self.note(folder)
        with os.scandir(folder) as found:
            return sorted(found, key=lambda e: e.name)

    def walk(self, top: Path) -> Iterator[tuple[str, list[str], list[str]]]:
        """`os.walk(top, followlinks=True)`, each folder it lists noted."""
        self.note(top)
        for current, dirs, names in os.walk(top, followlinks=True):
            self.note(current)
            yield current, dirs, names
