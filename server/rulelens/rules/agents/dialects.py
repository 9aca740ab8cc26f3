"""Each agent's glob dialect, through wcmatch (by bracex's author), never hand-written regexes.

The flag sets name the library or code each agent matches with:

- picomatch with `{dot: true}` (Cline): globstar, braces, extglob, `*` matches dotfiles;
- minimatch with default options (Continue): the same without dotfiles;
- VS Code's `glob.ts` with `ignoreCase` (Copilot in VS Code): globstar, braces, dotfiles,
  case-insensitive;
- undocumented matchers (Claude Code, Cursor, Windsurf, Kiro): globstar and braces with dotfiles,
  matched against the root-relative path. rulelens says so where it shows the result.
"""

from __future__ import annotations

from functools import lru_cache

from wcmatch import glob as wglob

PICOMATCH_DOT = wglob.GLOBSTAR | wglob.BRACE | wglob.EXTGLOB | wglob.DOTGLOB | wglob.FORCEUNIX
MINIMATCH = wglob.GLOBSTAR | wglob.BRACE | wglob.EXTGLOB | wglob.FORCEUNIX
VSCODE = wglob.GLOBSTAR | wglob.BRACE | wglob.DOTGLOB | wglob.IGNORECASE | wglob.FORCEUNIX
UNDOCUMENTED = wglob.GLOBSTAR | wglob.BRACE | wglob.DOTGLOB | wglob.FORCEUNIX


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


def first_match(patterns: list[str], paths: list[str], flags: int) -> str | None:
    for pattern in patterns:
        if any(matches(pattern, p, flags) for p in paths):
            return pattern
    return None
