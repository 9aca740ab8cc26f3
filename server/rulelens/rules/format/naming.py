"""Laravel's string helpers as Boost uses them to name new rule files.

Written by hand: no Python library reproduces `Str::snake`, `Str::slug` and `Str::headline`
exactly, and the names must match byte for byte what Boost would create.
"""

from __future__ import annotations

import re

from anyascii import anyascii

_UPPER_AHEAD = re.compile(r"(.)(?=[A-Z])")


def area_key(glob: str) -> str:
    """The segments that name a place: non-empty, without `*` or `.` (docs/format.md §3)."""
    return "/".join(s for s in glob.split("/") if s and "*" not in s and "." not in s)


def snake(value: str) -> str:
    """`Str::snake($value)` with the `_` delimiter."""
    if value.isascii() and value.isalpha() and value.islower():
        return value
    words = re.sub(r"\s+", "", _ucwords(value))
    return _UPPER_AHEAD.sub(r"\1_", words).lower()


def _ucwords(value: str) -> str:
    # PHP's ucwords() upper-cases the first byte after each space, tab, newline, CR, FF, VT.
    out = []
    prev_sep = True
    for ch in value:
        out.append(ch.upper() if prev_sep else ch)
        prev_sep = ch in " \t\r\n\f\v"
    return "".join(out)


# Scripts that Boost's `Str::ascii` (voku/portable-ascii, language 'en') transliterates: Latin,
# Greek, Cyrillic, Armenian, Hebrew and the Latin/Greek extensions. It drops the rest (CJK, emoji),
# so `app/模型/**` falls back to the name `app`, as Boost does. Measured on the recorded vectors:
# anyascii limited to these blocks matches every non-ASCII name Boost chose; anyascii or
# Unidecode on every character miss the CJK and emoji cases.
_TRANSLITERATED = ((0x80, 0x5FF), (0x1E00, 0x1FFF))


def _ascii(value: str) -> str:
    return "".join(
        ch if ch.isascii() else anyascii(ch) if any(lo <= ord(ch) <= hi for lo, hi in _TRANSLITERATED)
        else ""
        for ch in value
    )


def slug(value: str) -> str:
    """`Str::slug($value)` with `-`, the `@` → `at` dictionary and ASCII folding."""
    text = _ascii(value)
    text = re.sub(r"_+", "-", text)
    text = text.replace("@", "-at-")
    text = re.sub(r"[^-a-zA-Z0-9\s]+", "", text.lower())
    text = re.sub(r"[-\s]+", "-", text)
    return text.strip("-")


def headline(value: str) -> str:
    """`Str::headline($value)` for the slug names rulelens creates."""
    parts = value.split()
    if len(parts) > 1:
        words = [p.title() for p in parts]
    else:
        words = [p.title() for p in re.split(r"(?=[A-Z])", "_".join(parts)) if p]
    collapsed = re.sub(r"[-_ ]", "_", "_".join(words))
    return " ".join(w for w in collapsed.split("_") if w)


def candidate_names(glob: str) -> list[str]:
    """File-name candidates from the last 1, 2, … n meaningful segments (docs/format.md §3)."""
    key = area_key(glob)
    segments = key.split("/") if key else []
    names: list[str] = []
    for n in range(1, len(segments) + 1):
        name = slug(snake(" ".join(segments[-n:])))
        if name and name not in names:
            names.append(name)
    return names or ["general"]
