"""minimatch's bracket expressions with POSIX classes (`[[:alpha:]]`), as explicit Unicode ranges.

minimatch reads each class as Unicode properties (`[:alpha:]` is `\\p{L}\\p{Nl}`, so it takes `å`);
wcmatch reads them as ASCII, and Python's `re` has no `\\p{…}`. So a bracket that names a class is
rewritten as the code points it stands for, from `unicodedata` (scanned once, the first time a
pattern names a class). The scanner is hand-written because it must read the bracket exactly as
minimatch's `parseClass` does, quirks included: a range ending in a class (`[a-[:alpha:]]`)
matches nothing, `[:print:]` is `\\p{C}` (minimatch's table, as published), and `[:graph:]`
("not `\\p{Z}\\p{C}`") is joined to the other items of a negated bracket by "or".
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

Ranges = tuple[tuple[int, int], ...]
_MAX = 0x10FFFF

# name: (Unicode categories, by prefix; extra characters; complemented), as minimatch's table.
_CLASSES: dict[str, tuple[tuple[str, ...], str, bool]] = {
    "[:alnum:]": (("L", "Nl", "Nd"), "", False),
    "[:alpha:]": (("L", "Nl"), "", False),
    "[:ascii:]": ((), "".join(map(chr, range(0x80))), False),
    "[:blank:]": (("Zs",), "\t", False),
    "[:cntrl:]": (("Cc",), "", False),
    "[:digit:]": (("Nd",), "", False),
    "[:graph:]": (("Z", "C"), "", True),
    "[:lower:]": (("Ll",), "", False),
    "[:print:]": (("C",), "", False),
    "[:punct:]": (("P",), "", False),
    "[:space:]": (("Z",), "\t\r\n\v\f", False),
    "[:upper:]": (("Lu",), "", False),
    "[:word:]": (("L", "Nl", "Nd", "Pc"), "", False),
    "[:xdigit:]": ((), "ABCDEFabcdef0123456789", False),
}


@lru_cache(maxsize=1)
def _categories() -> dict[str, Ranges]:
    """Each two-letter Unicode category's code points, as ranges."""
    found: dict[str, list[tuple[int, int]]] = {}
    start, current = 0, unicodedata.category("\0")
    for code in range(1, _MAX + 2):
        category = unicodedata.category(chr(code)) if code <= _MAX else ""
        if category != current:
            found.setdefault(current, []).append((start, code - 1))
            start, current = code, category
    return {name: tuple(ranges) for name, ranges in found.items()}


def _union(*sets: Ranges) -> Ranges:
    merged: list[tuple[int, int]] = []
    for lo, hi in sorted(r for s in sets for r in s):
        if merged and lo <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    return tuple(merged)


def _complement(ranges: Ranges) -> Ranges:
    out, next_free = [], 0
    for lo, hi in ranges:
        if lo > next_free:
            out.append((next_free, lo - 1))
        next_free = hi + 1
    if next_free <= _MAX:
        out.append((next_free, _MAX))
    return tuple(out)


@lru_cache(maxsize=32)
def _class(name: str) -> Ranges:
    prefixes, extra, _ = _CLASSES[name]
    table = _categories()
    sets = [ranges for category, ranges in table.items() if category.startswith(prefixes)]
    return _union(*sets, tuple((ord(c), ord(c)) for c in extra))


def _chars(ranges: Ranges) -> str:
    """The ranges as the inside of a wcmatch bracket, without `/` (no segment holds one)."""
    out = []
    for lo, hi in _union(ranges):
        for a, b in ((lo, min(hi, 0x2E)), (max(lo, 0x30), hi)) if lo <= 0x2F <= hi else ((lo, hi),):
            if a <= b:
                out.append(_escape(a) if a == b else f"{_escape(a)}-{_escape(b)}")
    return "".join(out)


def _escape(code: int) -> str:
    char = chr(code)
    return "\\" + char if char in "\\[]-^!" else char


def rewrite(glob: str, pos: int) -> tuple[str | None, int] | None:
    """The bracket at `glob[pos]` (a `[`) with its POSIX classes spelled out, and where it ends.

    None when the bracket names no class or is not closed (wcmatch reads it as minimatch does);
    a None text when minimatch's bracket can match nothing, which fails the whole pattern.
    """
    items: list[tuple[int, int]] = []
    negs: list[Ranges] = []
    named = False
    i, negate, seen, escaping, range_start = pos + 1, False, False, False, ""
    while i < len(glob):
        c = glob[i]
        if c in "!^" and i == pos + 1:
            negate, i = True, i + 1
            continue
        if c == "]" and seen and not escaping:
            break
        seen = True
        if c == "\\" and not escaping:
            escaping, i = True, i + 1
            continue
        if c == "[" and not escaping:
            name = next((n for n in _CLASSES if glob.startswith(n, i)), None)
            if name is not None:
                if range_start:
                    return None, len(glob)  # `[a-[:alpha:]]`: minimatch's `$.`
                named, i = True, i + len(name)
                if _CLASSES[name][2]:
                    negs.append(_class(name))
                else:
                    items.extend(_class(name))
                continue
        escaping = False
        if range_start:
            if c >= range_start:  # a backwards range is dropped, the rest still counts
                items.append((ord(range_start), ord(c)))
            range_start, i = "", i + 1
            continue
        if glob.startswith("-]", i + 1):
            items += [(ord(c), ord(c)), (ord("-"), ord("-"))]
            i += 2
            continue
        if glob.startswith("-", i + 1):
            range_start, i = c, i + 2
            continue
        items.append((ord(c), ord(c)))
        i += 1
    else:
        return None  # not closed: a literal `[`
    if not named:
        return None
    positive = _union(tuple(items))
    excluded = _union(*negs)
    if negate:
        parts = ((_complement(positive),) if items else ()) + ((excluded,) if negs else ())
    else:
        parts = ((positive,) if items else ()) + ((_complement(excluded),) if negs else ())
    chars = _chars(_union(*parts))
    return (f"[{chars}]" if chars else None), i + 1
