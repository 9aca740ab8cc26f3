"""Which rule files apply to a path, answered from an index built once per rules state.

pathspec answers only "does any pattern match", and one spec per rule file costs a full pass
per lookup; so we take pathspec's own per-glob regexes and bucket them by what a matching path
must contain (a literal folder prefix, a literal segment, a file extension), testing only the
buckets a path can reach (measured in bench/check_scale.py and bench/lsp_latency.py). A bucket is
prepared the first time a lookup reaches it, which keeps start-up cheap on large rule sets: globs
of the common shapes become string tests (no regex at all), the rest one regex per chunk. The
same pass says which globs matched, so the items and globs a match reports cost nothing more.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from rulelens.glob_engines.boost import (
    LiteralTest,
    Pattern,
    anchored_prefix,
    compile_glob,
    expand,
    is_literal,
    literal_matches,
    literal_test,
    plain_path,
    regex_source,
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
    """Globs tested together. A literal glob is a string test; the others are compiled a chunk
    at a time into one regex of optional lookaheads, whose groups say which members match, so
    each glob is compiled once and one call answers for the whole chunk."""

    __slots__ = ("chunks", "literals", "members", "pending")

    def __init__(self) -> None:
        self.pending: list[tuple[str, int]] = []
        self.literals: list[tuple[LiteralTest, list[tuple[str, int]]]] = []
        self.members: list[tuple[str, str, int]] | None = None  # the globs that need a regex
        self.chunks: list[tuple[re.Pattern[str], list[tuple[int, str, int]]]] | None = None

    def sort(self) -> list[tuple[str, str, int]]:
        """Read each glob's regex text: the string tests are ready, and the globs that need a
        regex are returned (compiled by `_seal`)."""
        members = self.members
        if members is None:
            literals: dict[LiteralTest, list[tuple[str, int]]] = {}
            members = []
            for glob, owner in self.pending:
                source = regex_source(glob)
                if source is None:
                    continue
                test = literal_test(source)
                if test is not None:  # one test for every owner of the same glob
                    literals.setdefault(test, []).append((glob, owner))
                else:
                    members.append((source, glob, owner))
            self.literals = list(literals.items())
            self.members = members
        return members

    def _seal(self) -> list[tuple[re.Pattern[str], list[tuple[int, str, int]]]]:
        members = self.sort()
        chunks = []
        for i in range(0, len(members), _CHUNK):
            chunks.extend(_compile_chunk(members[i : i + _CHUNK]))
        self.chunks = chunks
        self.pending = []
        return chunks

    def hits(self, path: str, into: dict[int, list[str]], plain: bool) -> None:
        """Add each member glob that selects `path` to its owner's list (`plain`: the path is
        a `plain_path`, for which the string tests answer as the regexes would)."""
        chunks = self.chunks if self.chunks is not None else self._seal()
        for test, owners in self.literals:
            if literal_matches(test, path) if plain else _regex_matches(owners[0][0], path):
                for glob, owner in owners:
                    into.setdefault(owner, []).append(glob)
        for combined, part in chunks:
            groups = combined.match(path).groups()  # type: ignore[union-attr]  # always matches
            for group, glob, owner in part:
                if groups[group] is not None:
                    into.setdefault(owner, []).append(glob)


def _regex_matches(glob: str, path: str) -> bool:
    pattern = compile_glob(glob, True)
    return pattern is not None and pattern.regex.match(path) is not None


def _compile_chunk(members: list[tuple[str, str, int]]) -> list[
        tuple[re.Pattern[str], list[tuple[int, str, int]]]]:
    """One regex `(?=(?P<m0>A)|)(?=(?P<m1>B)|)…` for the members; it matches every path (each
    lookahead may be empty) and group `mN` is set when member N matches. A member whose own
    regex has groups that clash gets a regex of its own."""
    try:
        combined = re.compile("".join(f"(?:(?=(?P<m{n}>{source}))|)"
                                      for n, (source, _, _) in enumerate(members)))
    except re.error:
        if len(members) == 1:
            return []
        return [chunk for m in members for chunk in _compile_chunk([m])]
    index = combined.groupindex
    return [(combined, [(index[f"m{n}"] - 1, glob, owner)
                        for n, (_, glob, owner) in enumerate(members)])]


class RuleSet:
    """The `paths` of many rule files, indexed once; `owners_of(path)` is the hot call."""

    def __init__(self, paths_per_file: Sequence[Sequence[str]]) -> None:
        self._items = [list(items) for items in paths_per_file]
        self._compiled: dict[int, list[tuple[str, list[Pattern]]]] = {}
        self._has_negation: list[bool] = []
        # Per owner, per item as written: its including globs (what `matches` reports).
        self._expanded: list[list[list[str]]] = []
        self._places: dict[int, dict[str, tuple[int, list[int]]]] = {}
        buckets: dict[Key, _Bucket] = defaultdict(_Bucket)
        for owner, items in enumerate(self._items):
            negated = False
            per_item = []
            for item in items:
                included = []
                for glob, include in expand(item):
                    if include:
                        buckets[bucket_key(glob)].pending.append((glob, owner))
                        included.append(glob)
                    else:
                        negated = True
                per_item.append(included)
            self._has_negation.append(negated)
            self._expanded.append(per_item)
        self._buckets = dict(buckets)
        self._anywhere = self._buckets.pop(("*",), None)
        kinds = {k[0] for k in self._buckets}
        self._use_names = "N" in kinds
        self._use_suffixes = "S" in kinds
        self._use_prefix_names = "PN" in kinds
        self._cold: list[_Bucket] | None = None  # what `warm_one` has left to compile
        self._cold_owners: list[int] = []
        self._big: list[_Bucket] = []  # buckets `warm_one(most)` left for a call without it

    def warm(self) -> None:
        """Compile every bucket now (e.g. in a background thread) instead of on first use.

        Safe beside lookups: a bucket sealed twice gives the same chunks, and the swap is atomic.
        """
        for bucket in (*self._buckets.values(), self._anywhere):
            if bucket is not None and bucket.chunks is None:
                bucket._seal()

    def warm_one(self, most: int | None = None) -> bool:
        """Prepare one more piece that no lookup has reached yet (what a rule file's matches
        report, then a bucket's tests); False when nothing is left (`most`: nothing but buckets
        of more than `most` globs and regexes to compile, left for a call without it).

        For a caller that spreads the warm-up over idle moments (the language server, between
        requests, after its first diagnostics) instead of doing it all at once: each step is
        short, so a request that arrives meanwhile waits for one step at most.
        """
        if self._cold is None:
            self._cold = [b for b in (*self._buckets.values(), self._anywhere) if b is not None]
            self._cold_owners = list(range(len(self._items) - 1, -1, -1))
        while self._cold_owners:
            owner = self._cold_owners.pop()
            if owner not in self._places:
                self._where(owner)
                return True
        while self._cold:
            bucket = self._cold.pop()
            if bucket.chunks is not None:
                continue
            if most is not None:
                if len(bucket.pending) > most:
                    self._big.append(bucket)
                    continue
                if bucket.sort():  # string tests ready; its regexes compile in a later call
                    self._big.append(bucket)
                    return True
            bucket._seal()
            return True
        while most is None and self._big:
            bucket = self._big.pop()
            if bucket.chunks is None:
                bucket._seal()
                return True
        return False

    def owners_of(self, path: str) -> list[int]:
        """Indexes of the rule files whose globs select `path`, ascending."""
        return [owner for owner, _ in self.selecting(path)]

    def matches(self, path: str) -> list[tuple[int, list[str], list[str]]]:
        """Per rule file that selects `path`, ascending: the items as written that select it and
        the expanded globs that do (what `matching_items` and `matching_alternatives` say),
        from the one pass over the buckets."""
        return [(owner, *self.reported(owner, hit, path)) for owner, hit in self.selecting(path)]

    def negated(self, owner: int) -> bool:
        """Whether the owner has an excluding glob: then what `reported` says of it depends on
        the path, not only on the including globs that matched it."""
        return self._has_negation[owner]

    def including(self, owner: int) -> list[str]:
        """The owner's including globs, each once, in their first order: what `selecting` can
        find of it alone."""
        return list(self._places.get(owner) or self._where(owner))

    def reported(self, owner: int, hit: list[str], path: str) -> tuple[list[str], list[str]]:
        """What `matches` says of one owner that `selecting` found with `hit`: the items as
        written and the expanded globs that select `path` (a function of `hit` alone unless the
        owner is `negated`)."""
        if self._has_negation[owner]:
            return self.matching_items(owner, path), self.matching_alternatives(owner, path)
        where = self._places.get(owner) or self._where(owner)
        items = self._items[owner]
        if len(hit) == 1:  # the common case, without the sorting
            return [items[n] for n in where[hit[0]][1]], hit
        globs = sorted(set(hit), key=lambda g: where[g][0])
        chosen = sorted({n for g in globs for n in where[g][1]})
        return [items[n] for n in chosen], globs

    def _where(self, owner: int) -> dict[str, tuple[int, list[int]]]:
        """Each including glob of the owner: its first place among them, and the items (by
        index) that expand to it."""
        where = self._places.get(owner)
        if where is None:
            where = {}
            for n, included in enumerate(self._expanded[owner]):
                for glob in included:
                    known = where.get(glob)
                    if known is None:
                        where[glob] = (len(where), [n])
                    elif known[1][-1] != n:
                        known[1].append(n)
            self._places[owner] = where
        return where

    def selecting(self, path: str) -> list[tuple[int, list[str]]]:
        """(owner, the including globs of it that match `path`) for each owner that selects it."""
        found: dict[int, list[str]] = {}
        plain = plain_path(path)
        get = self._buckets.get
        segments = path.split("/")
        distinct = set(segments)
        prefix = ""
        for i, seg in enumerate(segments):
            prefix = seg if i == 0 else f"{prefix}/{seg}"
            bucket = get(("P", prefix))
            if bucket is not None:
                bucket.hits(path, found, plain)
            if self._use_prefix_names:
                for later in set(segments[i + 1 :]):
                    bucket = get(("PN", prefix, later))
                    if bucket is not None:
                        bucket.hits(path, found, plain)
        if self._use_names:
            for seg in distinct:
                bucket = get(("N", seg))
                if bucket is not None:
                    bucket.hits(path, found, plain)
        if self._use_suffixes:
            for seg in distinct:
                dot = seg.rfind(".")
                if dot >= 0:
                    bucket = get(("S", seg[dot:]))
                    if bucket is not None:
                        bucket.hits(path, found, plain)
        if self._anywhere is not None:
            self._anywhere.hits(path, found, plain)
        return [(o, found[o]) for o in sorted(found)
                if not self._has_negation[o] or self.selects(o, path)]

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
