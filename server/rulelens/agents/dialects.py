"""Each agent's glob dialect, through wcmatch (by bracex's author), never hand-written regexes.

The flag sets name the library or code each agent matches with:

- picomatch with `{dot: true}` (Cline): globstar, braces, extglob, `*` matches dotfiles;
- minimatch with default options (Continue): the same without dotfiles;
- VS Code's `glob.ts` with `ignoreCase` (Copilot in VS Code): globstar, braces, dotfiles,
  case-insensitive;
- picomatch with default options (Qwen Code): as Cline's, without dotfiles;
- gitignore-style through pathspec (OpenHands skills), case-sensitive;
- undocumented matchers (Claude Code, Cursor, Windsurf, Kiro): globstar and braces with dotfiles,
  matched against the root-relative path. rulelens says so where it shows the result.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pathspec
from wcmatch import glob as wglob

PICOMATCH_DOT = wglob.GLOBSTAR | wglob.BRACE | wglob.EXTGLOB | wglob.DOTGLOB | wglob.FORCEUNIX
MINIMATCH = wglob.GLOBSTAR | wglob.BRACE | wglob.EXTGLOB | wglob.FORCEUNIX
VSCODE = wglob.GLOBSTAR | wglob.BRACE | wglob.DOTGLOB | wglob.IGNORECASE | wglob.FORCEUNIX
UNDOCUMENTED = wglob.GLOBSTAR | wglob.BRACE | wglob.DOTGLOB | wglob.FORCEUNIX
PICOMATCH = wglob.GLOBSTAR | wglob.BRACE | wglob.EXTGLOB | wglob.FORCEUNIX


@lru_cache(maxsize=4096)
def _compiled(pattern: str, flags: int) -> wglob.WcMatcher[str] | None:
    try:
        return wglob.compile(pattern, flags=flags)
    except (ValueError, RecursionError):
        return None


def matches(pattern: str, path: str, flags: int) -> bool:
    """Whether the dialect's matcher takes `path` for `pattern`; a bad pattern matches nothing."""
    if not pattern:
        return False
    matcher = _compiled(pattern, flags)
    return matcher is not None and bool(matcher.match(path))


def picomatch_patterns(pattern: str) -> list[str]:
    """The wcmatch patterns for one picomatch pattern.

    picomatch drops a leading `./`; and trailing `/**` segments also match the folder before
    them (`src/**` matches `src`), except when that folder segment ends in `*` (`src*/**` does
    not match `src`). The differential tests against picomatch pin both.
    """
    while pattern.startswith("./"):
        pattern = pattern[2:]
    out = [pattern]
    base, trailing = pattern, 0
    while base.endswith("/**") and len(base) > 3:
        base, trailing = base[:-3], trailing + 1
    if trailing and not base.endswith("*"):
        out.append(base)
    return out


def picomatch_matches(pattern: str, path: str) -> bool:
    """`picomatch(pattern, {dot: true})(path)`, as Cline calls it."""
    return any(matches(p, path, PICOMATCH_DOT) for p in picomatch_patterns(pattern))


def picomatch_default_matches(pattern: str, path: str) -> bool:
    """`picomatch(pattern)(path)` with default options (no dotfiles), as Qwen Code calls it."""
    return any(matches(p, path, PICOMATCH) for p in picomatch_patterns(pattern))


@lru_cache(maxsize=4096)
def _gitignore(pattern: str) -> pathspec.PathSpec[Any] | None:
    try:
        return pathspec.PathSpec.from_lines("gitwildmatch", [pattern])
    except (ValueError, TypeError):
        return None


def gitignore_matches(pattern: str, path: str) -> bool:
    """A gitignore-style pattern (pathspec's gitwildmatch, case-sensitive) against a root-relative
    path, as OpenHands matches skill `paths`."""
    spec = _gitignore(pattern.strip()) if pattern.strip() else None
    return spec is not None and spec.match_file(path)


def minimatch_matches(pattern: str, path: str) -> bool:
    """`minimatch(path, pattern)` with default options, as Continue calls it.

    minimatch 10 never matches a dot segment that follows a second `**` with other segments in
    between (`**/b/**/.env` does not match `a/b/.env`); the differential tests pin this.
    """
    segments = pattern.split("/")
    seen_globstar = False
    for i, segment in enumerate(segments):
        if segment != "**":
            continue
        follows_globstar = i > 0 and segments[i - 1] == "**"
        dot_next = i + 1 < len(segments) and segments[i + 1].startswith(".")
        if seen_globstar and not follows_globstar and dot_next:
            return False
        seen_globstar = True
    return matches(pattern, path, MINIMATCH)


def first_match(patterns: list[str], paths: list[str], flags: int) -> str | None:
    for pattern in patterns:
        if any(matches(pattern, p, flags) for p in paths):
            return pattern
    return None
