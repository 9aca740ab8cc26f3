"""Which words a search's matches show present: how the name search (text_search.py) reads
grep's `-o` output.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, as mypy reads it
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    Search = Callable[[list[str]], "set[str] | None"]  # words -> the texts it matched

# How grep reads the files for the words `present` reads from its `-o` output: binary files
# left out, unreadable ones quiet, whole words, each match on its own line, fixed strings.
GREP_FLAGS = ("-I", "-s", "-w", "-o", "-F")
# Where a word of ASCII letters, digits and underscores begins, and where one ends.
_STARTS = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z0-9_]")
_ENDS = re.compile(r"[A-Za-z0-9_](?![A-Za-z0-9_])")


def present(search: Search, words: Iterable[str], first: Search | None = None) -> set[str] | None:
    """The words that occur as whole words somewhere; None when the search failed.

    A search reports non-overlapping matches, the longest at each position, so a word can hide
    inside another's match (`Support` in `App\\Support`) or behind one that starts earlier and
    overlaps it (`b::c` in `a::b::c`, reported as `a::b`). A word inside a found match, at word
    boundaries, is present; a word that begins inside a found match and runs past its end is
    searched again on its own, until none could have been hidden. `first`, when given, answers
    the first round (the cached search: its answer is for all the words at once).
    """
    remaining = {w for w in words if w.strip()}
    found: set[str] = set()
    round_search = first or search
    while remaining:
        hits = round_search(sorted(remaining))
        round_search = search
        if hits is None:
            return None
        found |= hits & remaining
        found |= remaining & inner_words(hits)
        remaining -= found
        tails = {hit[i:] for hit in hits for i in _starts(hit) if i > 0}
        remaining = {w for w in remaining if any(w[:k] in tails for k in range(1, len(w)))}
    return found


def _starts(text: str) -> list[int]:
    """Where a word begins: a word character with none before it."""
    return [m.start() for m in _STARTS.finditer(text)]


def _ends(text: str) -> list[int]:
    """Just past where a word ends: a word character with none after it."""
    return [m.end() for m in _ENDS.finditer(text)]


def inner_words(hits: set[str]) -> set[str]:
    """Every whole-word piece of the matches: where another word is present because they are."""
    out: set[str] = set()
    for hit in hits:
        ends = _ends(hit)
        for i in _starts(hit):
            out.update(hit[i:j] for j in ends if j > i)
    return out
