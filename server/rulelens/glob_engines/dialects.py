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
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rulelens.glob_engines.boost import plain_source
from rulelens.glob_engines.plain_globs import plain_answer, plain_matches, plain_tester, shape
from rulelens.glob_engines.wcmatch_glob import (
    BRACE,
    DOTGLOB,
    EXTGLOB,
    FORCEUNIX,
    GLOBSET,
    GLOBSTAR,
    IGNORECASE,
    MINIMATCH,
    NODOTDIR,
    PLAIN_FLAGS,
    UNDOCUMENTED,
    VSCODE,
    literal_end,
    matches,
    matching,
    wcmatch_matches,
)

if TYPE_CHECKING:
    import pathspec

# The engine most dialects go through (wcmatch_glob.py: its flags and matching) is named here
# with the others.
__all__ = [
    "BRACE", "DOTGLOB", "EXTGLOB", "FORCEUNIX", "GLOBSET", "GLOBSTAR", "IGNORECASE",
    "MINIMATCH", "NODOTDIR", "PLAIN_FLAGS", "UNDOCUMENTED", "VSCODE", "first_match",
    "gitignore_matches", "literal_end", "matches", "matching", "minimatch_matches",
    "picomatch_default_matches", "picomatch_matches", "picomatch_negated", "split_glob_aware",
    "vscode_full_matches", "vscode_matches", "wcmatch_matches",
]


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


def split_glob_aware(value: str, split: str, nested: bool = False) -> list[str]:
    """VS Code's `splitGlobAware`: `split` does not split inside `{}` or `[]` (on/off flags, not
    depths); an empty tail is dropped. `nested` counts braces instead, as Copilot CLI does:
    `{a/**/*.{ts,tsx},b/**}` is then one pattern, where VS Code cuts it after the first `}`."""
    parts: list[str] = []
    depth, in_brackets = 0, False
    current = ""
    for ch in value:
        if ch == split and not depth and not in_brackets:
            parts.append(current)
            current = ""
            continue
        if ch == "{" and not in_brackets:
            depth = depth + 1 if nested else 1
        elif ch == "}" and not in_brackets:
            depth = max(depth - 1, 0) if nested else 0
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


def vscode_matching(pattern: str, prefix: str, paths: Iterable[str]) -> Iterator[str]:
    """The `paths` for which `vscode_matches(pattern, prefix + path)` holds, lazily, in their
    order (`prefix`: "" for root-relative paths, or an absolute folder's path and its `/`, which
    Copilot matches from): the pattern's plain shape read once (plain_globs.py), not once a
    path."""
    found = shape(pattern)
    if found is None:
        return (p for p in paths if vscode_full_matches(pattern, prefix + p))
    test = plain_tester(found, dot=True, folder_itself=True, ignore_case=True)
    leading = found.leading

    def hit(path: str) -> bool:
        full = prefix + path
        if "\\" in full:  # VS Code splits at either slash
            return vscode_full_matches(pattern, full)
        # a leading `**` takes the `/` that starts an absolute path (Copilot matches those)
        plain = test(full[1:] if leading and full.startswith("/") else full)
        return plain if plain is not None else vscode_full_matches(pattern, full)

    return (p for p in paths if hit(p))


def vscode_full_matches(pattern: str, path: str) -> bool:
    """`vscode_matches` through the port's regular expression alone."""
    compiled = _vscode_compiled(pattern) if pattern.strip() else None
    return compiled is not None and compiled.fullmatch(path) is not None
