"""Each agent's glob dialect: through wcmatch (by bracex's author) where it reads the dialect,
through a port of the agent's own matcher where no library does.

- picomatch 4 with `{dot: true}` (Cline) and with default options (Qwen Code): the port in
  `picomatch.py`;
- minimatch with default options (Continue): globstar, braces, extglob, no dotfiles;
- VS Code's `glob.ts` with `ignoreCase` (Copilot in VS Code): globstar, braces, dotfiles,
  case-insensitive;
- gitignore-style through pathspec (OpenHands skills), case-sensitive;
- undocumented matchers (Claude Code, Cursor, Windsurf, Kiro): globstar and braces with dotfiles,
  matched against the root-relative path. rulelens says so where it shows the result.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rulelens.glob_engines.boost import plain_source
from rulelens.glob_engines.plain_globs import plain_answer, plain_matches, shape

if TYPE_CHECKING:
    import pathspec
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


def picomatch_negated(pattern: str) -> tuple[bool, str]:
    """picomatch's leading `!`: each one not opening an extglob `!(…)` flips the answer."""
    negated = False
    while pattern.startswith("!") and not pattern.startswith("!("):
        negated, pattern = not negated, pattern[1:]
    return negated, pattern


def picomatch_matches(pattern: str, path: str) -> bool:
    """`picomatch(pattern, {dot: true})(path)`, as Cline calls it: a leading `!` means "not"."""
    plain = plain_answer(pattern, path, dot=True, folder_itself=True)
    if plain is not None:
        return plain
    from rulelens.glob_engines import picomatch  # its regexes cost 8 ms to load; few projects need them

    return picomatch.is_match(pattern, path, dot=True)


def minimatch_matches(pattern: str, path: str) -> bool:
    """`minimatch(path, pattern)` with default options, as Continue calls it: the reading in
    `minimatch.py`, loaded when a pattern is matched, as picomatch's is."""
    plain = plain_answer(pattern, path, dot=False, folder_itself=False)
    if plain is not None:
        return plain
    from rulelens.glob_engines import minimatch

    return minimatch.minimatch_matches(pattern, path)


def picomatch_default_matches(pattern: str, path: str) -> bool:
    """`picomatch(pattern)(path)` with default options (no dotfiles), as Qwen Code calls it."""
    plain = plain_answer(pattern, path, dot=False, folder_itself=True)
    if plain is not None:
        return plain
    from rulelens.glob_engines import picomatch

    return picomatch.is_match(pattern, path, dot=False)


@lru_cache(maxsize=4096)
def _gitignore(pattern: str) -> pathspec.PathSpec[Any] | None:
    import pathspec  # on first match: most projects have no OpenHands skill with paths

    try:
        # "gitignore" is pathspec 1.x's name for the regexes "gitwildmatch" (deprecated) gave;
        # the plain `re` backend, not whichever of re2 or hyperscan happens to be installed.
        return pathspec.PathSpec.from_lines("gitignore", [pattern], backend="simple")
    except (ValueError, TypeError):
        return None


def gitignore_matches(pattern: str, path: str) -> bool:
    """A gitignore-style pattern (pathspec's, case-sensitive) against a root-relative
    path, as OpenHands matches skill `paths`."""
    text = pattern.strip()
    source = plain_source(text) if text else None
    if source is not None:  # pathspec's regex without pathspec: what its one-pattern spec does
        return _searcher(source)(_normalised(path)) is not None
    spec = _gitignore(text) if text else None
    return spec is not None and spec.match_file(path)


@lru_cache(maxsize=4096)
def _searcher(source: str) -> Callable[[str], re.Match[str] | None]:
    return re.compile(source).search  # pathspec's RegexPattern.match_file searches


def _normalised(path: str) -> str:
    """pathspec's `normalize_file`: POSIX separators, and no leading `/` or `./`."""
    for sep in (os.sep, os.altsep):
        if sep and sep != "/":
            path = path.replace(sep, "/")
    return path[1:] if path.startswith("/") else path[2:] if path.startswith("./") else path


def first_match(patterns: list[str], paths: list[str], flags: int) -> str | None:
    for pattern in patterns:
        if any(matches(pattern, p, flags) for p in paths):
            return pattern
    return None


# VS Code's `glob.ts`, ported: its own dialect, not a shell glob. Segments are split outside
# braces and brackets and an empty last segment is dropped (`src/` is `src`); a last `**` also
# matches the folder before it (`src/**` matches `src`); braces of one item are a group
# (`*.{ts}`); `[!x]` and `[^x]` negate; a `/` inside brackets is dropped; an unclosed bracket or
# brace is dropped with what follows it in the segment; no extglob. No library reads this dialect,
# and VS Code builds one regular expression from it, so the port builds the same one.
_SEP, _NOT_SEP = "[/\\\\]", "[^/\\\\]"


def split_glob_aware(value: str, split: str) -> list[str]:
    """VS Code's `splitGlobAware`: `split` does not split inside `{}` or `[]` (on/off flags, not
    depths); an empty tail is dropped."""
    parts: list[str] = []
    in_braces = in_brackets = False
    current = ""
    for ch in value:
        if ch == split and not in_braces and not in_brackets:
            parts.append(current)
            current = ""
            continue
        if ch in "{}":
            in_braces = ch == "{"
        elif ch in "[]":
            in_brackets = ch == "["
        current += ch
    if current:
        parts.append(current)
    return parts


def _stars(count: int, last: bool = False) -> str:
    if count == 1:
        return f"{_NOT_SEP}*?"
    tail = f"|{_SEP}{_NOT_SEP}+" if last else ""
    return f"(?:{_SEP}|{_NOT_SEP}+{_SEP}{tail})*?"


def _vscode_regex(pattern: str) -> str:
    if not pattern:
        return ""
    segments = split_glob_aware(pattern, "/")
    if all(s == "**" for s in segments):
        return ".*"
    out = ""
    previous_globstar = False
    for index, segment in enumerate(segments):
        if segment == "**":
            if not previous_globstar:
                out += _stars(2, index == len(segments) - 1)
            previous_globstar = True
            continue
        in_braces = in_brackets = False
        brace = bracket = ""
        for ch in segment:
            if ch != "}" and in_braces:
                brace += ch
                continue
            if in_brackets and (ch != "]" or not bracket):
                if ch == "-":
                    bracket += ch
                elif ch in "^!" and not bracket:
                    bracket += "^"
                elif ch == "/":
                    pass
                else:
                    bracket += re.escape(ch)
                continue
            if ch == "{":
                in_braces = True
            elif ch == "[":
                in_brackets = True
            elif ch == "}":
                out += "(?:" + "|".join(_vscode_regex(c) for c in split_glob_aware(brace, ",")) + ")"
                in_braces, brace = False, ""
            elif ch == "]":
                out += f"[{bracket}]"
                in_brackets, bracket = False, ""
            elif ch == "?":
                out += _NOT_SEP
            elif ch == "*":
                out += _stars(1)
            else:
                out += re.escape(ch)
        if index < len(segments) - 1 and (segments[index + 1] != "**" or index + 2 < len(segments)):
            out += _SEP
        previous_globstar = False
    return out


@lru_cache(maxsize=4096)
def _vscode_compiled(pattern: str) -> re.Pattern[str] | None:
    try:
        return re.compile(_vscode_regex(pattern.strip()), re.IGNORECASE)
    except (re.error, RecursionError):
        return None  # glob.ts catches the RegExp error: the pattern matches nothing


def vscode_matches(pattern: str, path: str) -> bool:
    """VS Code's `glob.match(pattern, path, {ignoreCase: true})`."""
    found = shape(pattern)
    if found is not None and "\\" not in path:  # VS Code splits at either slash
        # a leading `**` takes the `/` that starts an absolute path (Copilot matches those)
        rest = path[1:] if found.leading and path.startswith("/") else path
        plain = plain_matches(found, rest, dot=True, folder_itself=True, ignore_case=True)
        if plain is not None:
            return plain
    return vscode_full_matches(pattern, path)


def vscode_full_matches(pattern: str, path: str) -> bool:
    """`vscode_matches` through the port's regular expression alone."""
    compiled = _vscode_compiled(pattern) if pattern.strip() else None
    return compiled is not None and compiled.fullmatch(path) is not None
