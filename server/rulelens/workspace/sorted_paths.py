"""The paths below a prefix in a sorted list of root-relative paths, by bisection.

FileList keeps its paths sorted; a folder's files are then one slice of it, found in
O(log files) instead of a pass over 200,000 paths.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

END = "\U0010ffff"  # sorts after every character a path holds


def prefix_span(paths: Sequence[str], prefix: str, lo: int = 0, hi: int | None = None) -> tuple[int, int]:
    """The indexes `[start, end)` of the paths in `paths[lo:hi]` that start with `prefix`."""
    hi = len(paths) if hi is None else hi
    if not prefix:
        return lo, hi
    start = bisect.bisect_left(paths, prefix, lo, hi)
    return start, bisect.bisect_left(paths, prefix + END, start, hi)


def starting_with(paths: Sequence[str], prefix: str) -> Sequence[str]:
    """The paths that start with `prefix`."""
    if not prefix:
        return paths
    start, end = prefix_span(paths, prefix)
    return paths[start:end]
