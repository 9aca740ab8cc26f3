"""Which rule files apply to a path, answered from an index built once per rules state.

pathspec answers only "does any pattern match", and one spec per rule file costs a full pass
per lookup; so we take pathspec's own per-glob regexes and bucket them by what a matching path
must contain (a literal folder prefix, a literal segment, a file extension), testing only the
buckets a path can reach (measured in bench/check_scale.py and bench/lsp_latency.py). Regexes are compiled the
first time their bucket is reached, which keeps start-up cheap on large rule sets.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from rulelens.rules.format.globs import (
    Pattern,
    anchored_prefix,
    compile_glob,
    expand,
    is_literal,
    segments_of,
)

_CHUNK = 24

Key = tuple[str, ...]


def bucket_key(glob: str) -> Key:
    """What every path the glob selects must contain; ("*",) when nothing narrower is known."""
    segments, _ = segments_of(glob)
    prefix = anchored_prefix(glob)
    if prefix:
        if prefix.count("/") + 1 == len(segments):
            return ("P", prefix)
        if is_literal(segments[-1]):
            return ("PN", prefix, segments[-1])
        return ("P", prefix)
    for seg in reversed(segments):
        if is_literal(seg):
            return ("N", seg)
    tail = re.split(r"[*?\]]", segments[-1])[-1]
    if "." in tail and is_literal(tail):
        return ("S", tail[tail.rfind("."):])
    return ("*",)


class _Bucket:
    """Globs tested together; a combined alternation rejects most paths in one call."""

    __slots__ = ("chunks", "pending")

    def __init__(self) -> None:
        self.pending: list[tuple[str, int]] = []
        self.chunks: list[tuple[re.Pattern[str], list[tuple[re.Pattern[str], int]]]] | None = None

    def _seal(self) -> list[tuple[re.Pattern[str], list[tuple[re.Pattern[str], int]]]]:
        members = []
        for glob, owner in self.pending:
            p = compile_glob(glob, True)  # the same cache key as _patterns uses
            if p is not None:
                members.append((p.regex, owner))
        chunks = []
        for i in range(0, len(members), _CHUNK):
            part = members[i : i + _CHUNK]
            if len(part) == 1:
                chunks.append((part[0][0], part))
            else:
                chunks.append((re.compile("|".join(f"(?:{r.pattern})" for r, _ in part)), part))
        self.chunks = chunks
        self.pending = []
        return chunks

    def owners(self, path: str, into: set[int]) -> None:
        chunks = self.chunks if self.chunks is not None else self._seal()
        for combined, part in chunks:
            if combined.match(path) is None:
                continue
            if len(part) == 1:
                into.add(part[0][1])
                continue
            for regex, owner in part:
                if owner not in into and regex.match(path):
                    into.add(owner)


class RuleSet:
    """The `paths` of many rule files, indexed once; `owners_of(path)` is the hot call."""

    def __init__(self, paths_per_file: Sequence[Sequence[str]]) -> None:
        self._items = [list(items) for items in paths_per_file]
        self._compiled: dict[int, list[tuple[str, list[Pattern]]]] = {}
        self._has_negation: list[bool] = []
        buckets: dict[Key, _Bucket] = defaultdict(_Bucket)
        for owner, items in enumerate(self._items):
            negated = False
            for item in items:
                for glob, include in expand(item):
                    if include:
                        buckets[bucket_key(glob)].pending.append((glob, owner))
                    else:
                        negated = True
            self._has_negation.append(negated)
        self._buckets = dict(buckets)
        self._anywhere = self._buckets.pop(("*",), None)
        kinds = {k[0] for k in self._buckets}
        self._use_names = "N" in kinds
        self._use_suffixes = "S" in kinds
        self._use_prefix_names = "PN" in kinds

    def warm(self) -> None:
        """Compile every bucket now (e.g. in a background thread) instead of on first use.

        Safe beside lookups: a bucket sealed twice gives the same chunks, and the swap is atomic.
        """
        for bucket in (*self._buckets.values(), self._anywhere):
            if bucket is not None and bucket.chunks is None:
                bucket._seal()
        for owner in range(len(self._items)):
            self._patterns(owner)

    def owners_of(self, path: str) -> list[int]:
        """Indexes of the rule files whose globs select `path`, ascending."""
        found: set[int] = set()
        get = self._buckets.get
        segments = path.split("/")
        distinct = set(segments)
        prefix = ""
        for i, seg in enumerate(segments):
            prefix = seg if i == 0 else f"{prefix}/{seg}"
            bucket = get(("P", prefix))
            if bucket is not None:
                bucket.owners(path, found)
            if self._use_prefix_names:
                for later in set(segments[i + 1 :]):
                    bucket = get(("PN", prefix, later))
                    if bucket is not None:
                        bucket.owners(path, found)
        if self._use_names:
            for seg in distinct:
                bucket = get(("N", seg))
                if bucket is not None:
                    bucket.owners(path, found)
        if self._use_suffixes:
            for seg in distinct:
                dot = seg.rfind(".")
                if dot >= 0:
                    bucket = get(("S", seg[dot:]))
                    if bucket is not None:
                        bucket.owners(path, found)
        if self._anywhere is not None:
            self._anywhere.owners(path, found)
        return sorted(o for o in found if not self._has_negation[o] or self.selects(o, path))

    def _patterns(self, owner: int) -> list[tuple[str, list[Pattern]]]:
        compiled = self._compiled.get(owner)
        if compiled is None:
            compiled = []
            for item in self._items[owner]:
                patterns = [compile_glob(g, inc) for g, inc in expand(item)]
                compiled.append((item, [p for p in patterns if p is not None]))
            self._compiled[owner] = compiled
        return compiled

    def selects(self, owner: int, path: str) -> bool:
        """Gitignore order for one file: the last pattern that matches decides."""
        selected = False
        for _, patterns in self._patterns(owner):
            for p in patterns:
                if p.include != selected and p.regex.match(path):
                    selected = p.include
        return selected

    def matching_items(self, owner: int, path: str) -> list[str]:
        """The items as written that select `path` (only meaningful when `selects`)."""
        return [
            item
            for item, patterns in self._patterns(owner)
            if any(p.include and p.regex.match(path) for p in patterns)
        ]

    def matching_alternatives(self, owner: int, path: str) -> list[str]:
        """The expanded globs (after comma splitting and braces) that select `path`, in order."""
        out: list[str] = []
        for _, patterns in self._patterns(owner):
            for p in patterns:
                if p.include and p.source not in out and p.regex.match(path):
                    out.append(p.source)
        return out
