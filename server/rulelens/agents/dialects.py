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

import re
from functools import lru_cache
from typing import Any

import pathspec
from wcmatch import glob as wglob

# NODOTDIR: picomatch never matches a `.` or `..` segment with a wildcard, even with `dot`.
PICOMATCH_DOT = (wglob.GLOBSTAR | wglob.BRACE | wglob.EXTGLOB | wglob.DOTGLOB | wglob.NODOTDIR
                 | wglob.FORCEUNIX)
MINIMATCH = wglob.GLOBSTAR | wglob.BRACE | wglob.EXTGLOB | wglob.NODOTDIR | wglob.FORCEUNIX
VSCODE = wglob.GLOBSTAR | wglob.BRACE | wglob.DOTGLOB | wglob.IGNORECASE | wglob.FORCEUNIX
UNDOCUMENTED = wglob.GLOBSTAR | wglob.BRACE | wglob.DOTGLOB | wglob.FORCEUNIX
PICOMATCH = wglob.GLOBSTAR | wglob.BRACE | wglob.EXTGLOB | wglob.FORCEUNIX


@lru_cache(maxsize=4096)
def _compiled(pattern: str, flags: int) -> wglob.WcMatcher[str] | None:
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
    if flags & wglob.IGNORECASE:
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
    matcher = _compiled(pattern, flags)
    return matcher is not None and bool(matcher.match(path))


def picomatch_syntax(pattern: str) -> str:
    """picomatch 4's extras, written in wcmatch's syntax.

    wcmatch reads bash's glob; picomatch adds to it: `[!x]` is the set {`!`, `x`} (only `[^x]`
    negates), a bare `(a|b)` is a group, `+` after a `]` repeats the set, and `"…"` quotes a
    literal. wcmatch has no switch for these, so this small scanner rewrites them; what it does
    not rewrite is listed in docs/agents.md ("Matcher differences").
    """
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\" and i + 1 < n:
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if ch == '"':
            end = pattern.find('"', i + 1)
            if end > i:
                out.append(wglob.escape(pattern[i + 1:end]))
                i = end + 1
                continue
        if ch == "[":
            end = _bracket_end(pattern, i)
            if end > i:
                body = pattern[i + 1:end]
                if body.startswith("!"):
                    body = "\\!" + body[1:]
                bracket = f"[{body}]"
                if pattern[end + 1:end + 2] == "+" and pattern[end + 2:end + 3] != "(":
                    out.append(f"+({bracket})")
                    i = end + 2
                else:
                    out.append(bracket)
                    i = end + 1
                continue
        if ch == "{":
            end = _close(pattern, i, "{", "}")
            if end > i and pattern[end + 1:end + 2] == "+" and "{" not in pattern[i + 1:end]:
                items = pattern[i + 1:end].split(",")
                out.append("+(" + "|".join(picomatch_syntax(x) for x in items) + ")")
                i = end + 2
                continue
        bare_group = ch == "(" and not (out and out[-1] and out[-1][-1] in "?*+@!")
        if bare_group and _close(pattern, i, "(", ")") > i:
            end = _close(pattern, i, "(", ")")
            repeat = end > i and pattern[end + 1:end + 2] == "+"
            out.append("+(" if repeat else "@(")
            if repeat:  # `(a|b)+`: the group, one or more times
                out.append(picomatch_syntax(pattern[i + 1:end]) + ")")
                i = end + 2
                continue
            i += 1
            continue
        if ch == "+" and _open_groups(out) and pattern[i + 1:i + 2] != "(" and out and len(out[-1]) == 1 \
                and out[-1] not in "(|)":
            out[-1] = f"+({out[-1]})"  # inside a group, `+` repeats the character before it
            i += 1
            continue
        out.append(ch)
        i += 1
    text = "".join(out)
    if "|" in text and "/" not in text and _top_level_bar(pattern):
        text = f"@({text})"  # picomatch reads a `|` outside any group as alternation
    return text


def _open_groups(out: list[str]) -> bool:
    text = "".join(out)
    return text.count("(") > text.count(")")


def _bracket_end(pattern: str, start: int) -> int:
    """The `]` closing the bracket at `start`, past POSIX classes (`[[:alpha:]]`); -1 if none."""
    i = start + 2 if pattern[start + 1:start + 2] in ("!", "^") else start + 1
    if pattern[i:i + 1] == "]":
        i += 1  # a `]` first in the set is literal
    while i < len(pattern):
        if pattern.startswith("[:", i):
            close = pattern.find(":]", i + 2)
            if close > 0:
                i = close + 2
                continue
        if pattern[i] == "]":
            return i
        i += 1
    return -1


def _close(pattern: str, start: int, opener: str, closer: str) -> int:
    depth = 0
    for i in range(start, len(pattern)):
        if pattern[i] == opener:
            depth += 1
        elif pattern[i] == closer:
            depth -= 1
            if depth == 0:
                return i
    return -1


def _top_level_bar(pattern: str) -> bool:
    depth = 0
    for ch in pattern:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "|" and depth == 0:
            return True
    return False


@lru_cache(maxsize=4096)
def picomatch_patterns(pattern: str) -> tuple[str, ...]:
    """The wcmatch patterns for one picomatch pattern (its negation taken off).

    picomatch drops a leading `./`; and trailing `/**` segments also match the folder before
    them (`src/**` matches `src`), except when that folder segment ends in `*` (`src*/**` does
    not match `src`). The differential tests against picomatch pin both.
    """
    while pattern.startswith("./"):
        pattern = pattern[2:]
    pattern = picomatch_syntax(pattern)
    out = [pattern]
    base, trailing = pattern, 0
    while base.endswith("/**") and len(base) > 3:
        base, trailing = base[:-3], trailing + 1
    if trailing and not base.endswith("*"):
        out.append(base)
    return tuple(out)


def picomatch_negated(pattern: str) -> tuple[bool, str]:
    """picomatch's leading `!`: each one not opening an extglob `!(…)` flips the answer."""
    negated = False
    while pattern.startswith("!") and not pattern.startswith("!("):
        negated, pattern = not negated, pattern[1:]
    return negated, pattern


def picomatch_matches(pattern: str, path: str) -> bool:
    """`picomatch(pattern, {dot: true})(path)`, as Cline calls it: a leading `!` means "not"."""
    negated, pattern = picomatch_negated(pattern)
    if not pattern:
        return False
    found = any(matches(p, path, PICOMATCH_DOT) for p in picomatch_patterns(pattern))
    return found != negated


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
    compiled = _vscode_compiled(pattern) if pattern.strip() else None
    return compiled is not None and compiled.fullmatch(path) is not None
