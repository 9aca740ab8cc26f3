"""Folder listings with file counts, answered from the core's sorted file list by bisection.

No second copy of 200,000 paths: a folder's children are found by walking its slice of the
sorted list and jumping over each subfolder's whole range with one bisect, so listing a
folder costs O(children x log files) and a recursive count costs two bisects.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rulelens.workspace.sorted_paths import prefix_span


class FileTree:
    """Folders, files and recursive counts of a sorted list of root-relative paths."""

    def __init__(self, paths: Sequence[str]) -> None:
        self._paths = paths  # sorted, as FileList keeps them

    def _span(self, folder: str) -> tuple[int, int, str]:
        prefix = f"{folder}/" if folder else ""
        return (*prefix_span(self._paths, prefix), prefix)

    def count_below(self, folder: str) -> int:
        """Files anywhere below the folder (what `folder/**` or a bare folder matches)."""
        lo, hi, _ = self._span(folder)
        return hi - lo

    def has_folder(self, folder: str) -> bool:
        return folder == "" or self.count_below(folder) > 0

    def listing(self, folder: str) -> tuple[list[tuple[str, int]], list[str]]:
        """(subfolders with their recursive file counts, files) directly in the folder."""
        paths = self._paths
        lo, hi, prefix = self._span(folder)
        cut = len(prefix)
        folders: list[tuple[str, int]] = []
        files: list[str] = []
        i = lo
        while i < hi:
            rest = paths[i][cut:]
            slash = rest.find("/")
            if slash == -1:
                files.append(rest)
                i += 1
                continue
            name = rest[:slash]
            _, end = prefix_span(paths, f"{prefix}{name}/", i, hi)
            folders.append((name, end - i))
            i = end
        folders.sort()
        return folders, files

    @staticmethod
    def extensions(files: Sequence[str]) -> list[tuple[str, int]]:
        """(".ext", how many of `files` have it), most common first."""
        counts = Counter("." + n.rpartition(".")[2] for n in files if "." in n.lstrip("."))
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
