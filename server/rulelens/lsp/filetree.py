"""Folder tree with file counts over the project's file list, for glob completion.

Built once per file list (O(files)); completion then costs O(children of one folder), so it
stays fast on 200,000 files where scanning the list per keystroke would not.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable


class FileTree:
    """Folders, files and recursive counts of a sorted list of root-relative paths."""

    def __init__(self, paths: Iterable[str]) -> None:
        files: dict[str, list[str]] = defaultdict(list)
        for path in paths:
            folder, _, name = path.rpartition("/")
            files[folder].append(name)
        below: Counter[str] = Counter()
        subfolders: dict[str, set[str]] = defaultdict(set)
        for folder, names in files.items():
            count = len(names)
            below[""] += count
            current = folder
            while current:
                below[current] += count
                parent, _, name = current.rpartition("/")
                subfolders[parent].add(name)
                current = parent
        self._files = dict(files)
        self._below = below
        self._subfolders = {k: sorted(v) for k, v in subfolders.items()}

    def has_folder(self, folder: str) -> bool:
        return folder == "" or folder in self._below

    def subfolders(self, folder: str) -> list[str]:
        return self._subfolders.get(folder, [])

    def files(self, folder: str) -> list[str]:
        return self._files.get(folder, [])

    def count_below(self, folder: str) -> int:
        """Files anywhere below the folder (what `folder/**` or a bare folder matches)."""
        return self._below.get(folder, 0)

    def extensions(self, folder: str) -> list[tuple[str, int]]:
        """(".ext", files directly in the folder with it), most common first."""
        counts = Counter(
            "." + name.rpartition(".")[2] for name in self.files(folder)
            if "." in name.lstrip(".")
        )
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
