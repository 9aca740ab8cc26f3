"""wcmatch's glob (by bracex's author) as the engine most dialects go through: its flags by
value, and matching with the cheap answers first (a literal end, plain_globs.py's segments)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from rulelens.glob_engines.plain_globs import plain_answer, plain_tester, shape

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from wcmatch import glob as wglob

# wcmatch.glob's flags, by value: every agent's module names its dialect when it is imported,
# and wcmatch itself (5 ms of regexes compiled at its import) is loaded only when a pattern is
# matched, which most projects, having few agents' files with globs, never ask for.
# tests/unit/glob_engines/test_dialects.py checks each against wcmatch's own.
IGNORECASE = 0x0002
DOTGLOB = 0x0040
EXTGLOB = 0x0080
GLOBSTAR = 0x0100
BRACE = 0x0200
FORCEUNIX = 0x20000
NODOTDIR = 0x100000

MINIMATCH = GLOBSTAR | BRACE | EXTGLOB | NODOTDIR | FORCEUNIX
VSCODE = GLOBSTAR | BRACE | DOTGLOB | IGNORECASE | FORCEUNIX
UNDOCUMENTED = GLOBSTAR | BRACE | DOTGLOB | FORCEUNIX
# The `globset` crate as Copilot CLI builds its matchers: `*` stops at `/`, dotfiles match,
# case-sensitive; the same flags, named for the engine they stand for.
GLOBSET = UNDOCUMENTED
# The flags whose answers for plain globs plain_globs.py gives (MINIMATCH without BRACE is how
# minimatch.py passes a pattern it has expanded), each held to wcmatch by its test.
PLAIN_FLAGS = (UNDOCUMENTED, MINIMATCH, MINIMATCH & ~BRACE)


@lru_cache(maxsize=4096)
def _compiled(pattern: str, flags: int) -> wglob.WcMatcher[str] | None:
    from wcmatch import glob as wglob  # on first match: see the flags above

    try:
        return wglob.compile(pattern, flags=flags)
    except (ValueError, RecursionError):
        return None


# Characters that can end a glob's magic part in any dialect here: past the last of them, a
# pattern is literal text.
_MAGIC = frozenset('*?[]{}()!@+|\\"')


@lru_cache(maxsize=4096)
def literal_end(pattern: str, flags: int) -> str:
    """The literal text every match of `pattern` ends with ('' when none is sure): `.ts` of
    `**/*.ts`. A string test turns most paths away before wcmatch's regex, which `check` runs
    over every project file for each pattern that matches few of them."""
    if flags & IGNORECASE:
        return ""
    last = pattern.rpartition("/")[2]
    start = len(last)
    while start > 0 and last[start - 1] not in _MAGIC:
        start -= 1
    return last[start:]


def matching(pattern: str, flags: int, paths: Iterable[str]) -> Iterator[str]:
    """The `paths` `matches(pattern, path, flags)` takes, lazily, in their order: the pattern's
    literal ending and plain shape worked out once, not once a path (`check` asks this of every
    project file for each pattern)."""
    if not pattern:
        return iter(())
    end = literal_end(pattern, flags)
    found = shape(pattern) if flags in PLAIN_FLAGS else None
    if found is None:
        return (p for p in paths if p.endswith(end) and wcmatch_matches(pattern, p, flags))
    test = plain_tester(found, dot=bool(flags & DOTGLOB), folder_itself=False)

    def hit(path: str) -> bool:
        if not path.endswith(end):
            return False
        plain = test(path)
        return plain if plain is not None else wcmatch_matches(pattern, path, flags)

    return (p for p in paths if hit(p))


def matches(pattern: str, path: str, flags: int) -> bool:
    """Whether the dialect's matcher takes `path` for `pattern`; a bad pattern matches nothing."""
    if not pattern or not path.endswith(literal_end(pattern, flags)):
        return False
    if flags in PLAIN_FLAGS:
        plain = plain_answer(pattern, path, dot=bool(flags & DOTGLOB), folder_itself=False)
        if plain is not None:
            return plain
    return wcmatch_matches(pattern, path, flags)


def wcmatch_matches(pattern: str, path: str, flags: int) -> bool:
    """`matches` through wcmatch's compiled pattern alone."""
    matcher = _compiled(pattern, flags)
    return matcher is not None and bool(matcher.match(path))
