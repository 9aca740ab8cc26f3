"""Which rule files apply to a path, answered from an index built once per rules state.

pathspec answers only "does any pattern match", and one spec per rule file costs a full pass
per lookup; so we bucket pathspec's own regexes by literal folder prefix and by literal file
name, and test only the buckets a path can reach (see ../shared/notes/glob-performance.md).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from rulelens.rules.globs import Pattern, patterns_of

_CHUNK = 24


@dataclass(frozen=True)
class _Member:
    regex: re.Pattern[str]
    owner: int


class _Bucket:
    """Patterns tested together; a combined alternation rejects most paths in one call."""

    def __init__(self) -> None:
        self.members: list[_Member] = []
        self.chunks: list[tuple[re.Pattern[str], list[_Member]]] = []

    def seal(self) -> None:
        self.chunks = []
        for i in range(0, len(self.members), _CHUNK):
            part = self.members[i : i + _CHUNK]
            if len(part) == 1:
                self.chunks.append((part[0].regex, part))
            else:
                joined = "|".join(f"(?:{m.regex.pattern})" for m in part)
                self.chunks.append((re.compile(joined), part))

    def owners(self, path: str, into: set[int]) -> None:
        for combined, part in self.chunks:
            if combined.match(path) is None:
                continue
            if len(part) == 1:
                into.add(part[0].owner)
                continue
            for member in part:
                if member.owner not in into and member.regex.match(path):
                    into.add(member.owner)


class RuleSet:
    """The `paths` of many rule files, compiled once; `owners_of(path)` is the hot call."""

    def __init__(self, paths_per_file: Sequence[Sequence[str]]) -> None:
        self._items: list[list[tuple[str, list[Pattern]]]] = []
        self._has_negation: list[bool] = []
        self._by_prefix: dict[str, _Bucket] = defaultdict(_Bucket)
        self._by_name: dict[str, _Bucket] = defaultdict(_Bucket)
        self._anywhere = _Bucket()
        for owner, items in enumerate(paths_per_file):
            compiled = [(item, patterns_of(item)) for item in items]
            self._items.append(compiled)
            self._has_negation.append(any(not p.include for _, ps in compiled for p in ps))
            for _, patterns in compiled:
                for p in patterns:
                    if p.include:
                        self._bucket_for(p).members.append(_Member(p.regex, owner))
        for bucket in (*self._by_prefix.values(), *self._by_name.values(), self._anywhere):
            bucket.seal()
        self._by_prefix = dict(self._by_prefix)
        self._by_name = dict(self._by_name)

    def _bucket_for(self, p: Pattern) -> _Bucket:
        if p.anchored:
            return self._by_prefix[p.prefix]
        if p.literal_name is not None:
            return self._by_name[p.literal_name]
        return self._anywhere

    def owners_of(self, path: str) -> list[int]:
        """Indexes of the rule files whose globs select `path`, ascending."""
        found: set[int] = set()
        segments = path.split("/")
        by_prefix = self._by_prefix
        bucket = by_prefix.get("")
        if bucket is not None:
            bucket.owners(path, found)
        for i in range(1, len(segments) + 1):
            bucket = by_prefix.get("/".join(segments[:i]))
            if bucket is not None:
                bucket.owners(path, found)
        if self._by_name:
            for seg in set(segments):
                bucket = self._by_name.get(seg)
                if bucket is not None:
                    bucket.owners(path, found)
        self._anywhere.owners(path, found)
        return sorted(o for o in found if not self._has_negation[o] or self.selects(o, path))

    def selects(self, owner: int, path: str) -> bool:
        """Gitignore order for one file: the last pattern that matches decides."""
        selected = False
        for _, patterns in self._items[owner]:
            for p in patterns:
                if p.include != selected and p.regex.match(path):
                    selected = p.include
        return selected

    def matching_items(self, owner: int, path: str) -> list[str]:
        """The items as written that select `path` (only meaningful when `selects`)."""
        return [
            item
            for item, patterns in self._items[owner]
            if any(p.include and p.regex.match(path) for p in patterns)
        ]
