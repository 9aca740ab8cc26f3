"""`minimatch(path, pattern)` with default options (minimatch 10, as Continue calls it).

wcmatch matches (flags `MINIMATCH`); this module first reads the pattern as minimatch does before
it matches, where bash's glob, which wcmatch follows, reads it otherwise:

- a pattern starting with `#` is a comment and matches nothing; each leading `!` flips the
  answer, an extglob's too (`!(a)` is "not `(a)`": minimatch takes the `!`s off first);
- braces are expanded (bracex, as wcmatch expands them; brace-expansion then drops the `\\` of
  `\\\\`, `\\{`, `\\}`, `\\,` and `\\.`), then each alternative is split on runs
  of `/` and simplified as minimatch's `levelOneOptimize` does: `x/..` is dropped (`x/*/../a` is
  `x/a`) and repeated `**` segments are one;
- per segment: minimatch tests `*.ext` and `??.ext` segments with `endsWith(ext)`, so their
  extension is literal text, backslashes included (`*\\.ts` does not match `a.ts`); a segment
  that is only an empty extglob (`+()`) is literal; a `\\` ending a segment is a literal
  backslash; POSIX classes are Unicode (rulelens.glob_engines.posix_classes);
- `?` takes one UTF-16 half of a character past U+FFFF (an emoji), as JavaScript counts.

These rewrites are hand-written because no library reads minimatch's dialect; the differential
tests (tests/agents/test_differential.py) hold each one to the real minimatch.
"""

from __future__ import annotations

import re
from functools import lru_cache

import bracex

from rulelens.glob_engines import posix_classes
from rulelens.glob_engines.wcmatch_glob import BRACE, MINIMATCH, matches

# Braces are expanded here, so wcmatch must not expand them again.
_EXPANDED = MINIMATCH & ~BRACE
# minimatch expands braces when this finds a set; brace-expansion then drops the backslash of
# these escapes, in every alternative (`{a,b}/*\.ts` is `a/*.ts` and `b/*.ts`).
_BRACES = re.compile(r"\{(?:(?!\{).)*\}")
_BRACE_ESCAPE = re.compile(r"\\([\\{},.])")
# minimatch's fast paths (`starDotExtRE`, `qmarksRE`): the rest of the segment is compared as text.
_STAR_EXT = re.compile(r"\*+([^+@!?*\[(]*)")
_QMARKS_EXT = re.compile(r"(\?+)([^+@!?*\[(]*)")
# An extglob with nothing in it, alone in its segment: minimatch reads it as literal text.
_EMPTY_EXTGLOB = re.compile(r"[?*+@]\(\|*\)")
_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


def minimatch_negated(pattern: str) -> tuple[bool, str]:
    """minimatch's `parseNegate`: every leading `!` flips the answer, even one opening `!(…)`."""
    bangs = len(pattern) - len(pattern.lstrip("!"))
    return bangs % 2 == 1, pattern[bangs:]


def minimatch_matches(pattern: str, path: str) -> bool:
    """Whether minimatch takes `path` for `pattern`; a pattern it cannot read matches nothing."""
    if pattern.startswith("#"):
        return False  # a comment
    negated, pattern = minimatch_negated(pattern)
    if not pattern:
        return (path == "") != negated
    if "[:" not in pattern and _ASTRAL.search(pattern + path):
        pattern, path = _utf16(pattern), _utf16(path)
    found = any(_matches_one(p, path) for p in minimatch_patterns(pattern))
    return found != negated


def _utf16(text: str) -> str:
    """`text` as JavaScript strings hold it: a character past U+FFFF is two UTF-16 halves, and
    minimatch's `?` (a regular expression without the `u` flag) takes one half. A POSIX class
    turns the `u` flag on, so patterns with one are left alone."""
    return "".join(c if ord(c) <= 0xFFFF else chr(0xD7C0 + (ord(c) >> 10)) + chr(0xDC00 + (ord(c) & 0x3FF))
                   for c in text)


def _matches_one(pattern: str, path: str) -> bool:
    if not pattern:
        return path == ""  # `x/..` is the empty pattern, which matches only the empty path
    if _dot_after_second_globstar(pattern):
        return False
    return matches(pattern, path, _EXPANDED)


def _dot_after_second_globstar(pattern: str) -> bool:
    """minimatch 10 never matches a dot segment that follows a second `**` with other segments
    in between (`**/b/**/.env` does not match `a/b/.env`)."""
    segments = pattern.split("/")
    seen = False
    for i, segment in enumerate(segments):
        if segment == "**":
            if seen and i + 1 < len(segments) and segments[i + 1].startswith("."):
                return True
            seen = True
    return False


@lru_cache(maxsize=4096)
def minimatch_patterns(pattern: str) -> tuple[str, ...]:
    """The wcmatch patterns (no braces) that together read as minimatch reads `pattern`."""
    if _BRACES.search(pattern):
        try:
            expanded = [_BRACE_ESCAPE.sub(r"\1", alternative)
                        for alternative in bracex.expand(pattern, keep_escapes=True, limit=1000)]
        except (bracex.ExpansionLimitException, ValueError, RecursionError):
            return ()
    else:
        expanded = [pattern]
    out: list[str] = []
    for alternative in expanded:
        segments = [_segment(s) for s in _simplify(re.split("/+", alternative))]
        if any(s is None for s in segments):
            continue  # a segment that can match nothing
        joined = "/".join(s for s in segments if s is not None)
        if joined not in out:
            out.append(joined)
    return tuple(out)


def _simplify(segments: list[str]) -> list[str]:
    """minimatch's `levelOneOptimize`: `x/..` goes (unless `x` is `.`, `..`, `**` or empty),
    and a `**` right after a `**` goes."""
    out: list[str] = []
    for segment in segments:
        previous = out[-1] if out else ""
        if segment == "**" and previous == "**":
            continue
        if segment == ".." and previous not in ("", ".", "..", "**"):
            out.pop()
            continue
        out.append(segment)
    return out or [""]


def _segment(segment: str) -> str | None:
    """One segment in wcmatch's syntax, as minimatch's `parse` reads it; None if it can match
    nothing."""
    if segment in ("", "**"):
        return segment
    from wcmatch.glob import escape  # when a pattern is read, as dialects.py loads wcmatch

    if _EMPTY_EXTGLOB.fullmatch(segment):
        return escape(segment)
    star = _STAR_EXT.fullmatch(segment)
    if star:
        return "*" + escape(star.group(1))
    qmarks = _QMARKS_EXT.fullmatch(segment)
    if qmarks:
        return qmarks.group(1) + escape(qmarks.group(2))
    if "[:" in segment:
        spelled = _posix_classes(segment)
        if spelled is None:
            return None
        segment = spelled
    trailing = len(segment) - len(segment.rstrip("\\"))
    return segment + "\\" if trailing % 2 else segment


def _posix_classes(segment: str) -> str | None:
    out, i = [], 0
    while i < len(segment):
        ch = segment[i]
        if ch == "\\":
            out.append(segment[i:i + 2])
            i += 2
            continue
        if ch == "[":
            found = posix_classes.rewrite(segment, i)
            if found is not None:
                text, i = found
                if text is None:
                    return None
                out.append(text)
                continue
        out.append(ch)
        i += 1
    return "".join(out)
