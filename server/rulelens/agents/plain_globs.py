"""The answer every dialect gives for the plainest globs, without compiling them.

Most agents' globs name a file (`docs/api.md`), a folder's files (`src/app/**`,
`**/tests/**`) or files by their ending (`**/*.ts`, `src/**/*.test.ts`, `docs/*`). Each
dialect's matcher compiles such a glob into a regular expression, and a first `check` pays for
that (and for importing wcmatch or the picomatch port) on every run; the same answer is a
comparison of path segments. Only globs of literal segments of `[A-Za-z0-9._-]` (not `.` or
`..`), with an optional leading and trailing `**`, and optionally a last segment of `*` and
literal text, are read here; anything else, and any path that is not plain ASCII, goes to the
dialect's matcher.

Where the dialects differ on these shapes:
- dotfiles: without `dot`, neither a `**` nor a `*` takes a name starting with `.` (a literal
  one in the glob still matches);
- a trailing `/**` matches the folder itself in picomatch's and VS Code's readings, only the
  files below it in wcmatch's and minimatch's;
- VS Code compares without case.

tests/agents/test_plain_globs.py holds each answer to the dialect's matcher over generated globs
and paths.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

_LITERAL = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


class Shape(NamedTuple):
    """`**/` + `segments` + `/**`, each `**` present or not; or `**/` + `segments` + `/**/*ending`
    (`ending` set: its last segment is a `*` then literal text, each `**` present or not)."""

    leading: bool
    segments: tuple[str, ...]
    trailing: bool
    ending: str | None = None


@lru_cache(maxsize=4096)
def shape(pattern: str) -> Shape | None:
    """The plain shape of `pattern`, or None when a dialect's matcher must read it."""
    parts = pattern.split("/")
    ending = None
    if parts[-1].startswith("*") and parts[-1] != "**":
        ending = parts.pop()[1:]
        if not _LITERAL.issuperset(ending):
            return None
    leading = (len(parts) > 1 and parts[0] == "**") or (ending is not None and parts == ["**"])
    trailing = len(parts) > int(leading) and parts[-1] == "**" if ending is not None \
        else len(parts) > 1 and parts[-1] == "**"
    body = parts[int(leading):len(parts) - int(trailing)]
    if not body and (ending is None or (leading and trailing)):
        return None
    for segment in body:
        if segment in ("", ".", "..") or not _LITERAL.issuperset(segment):
            return None
    return Shape(leading, tuple(body), trailing, ending)


def plain_matches(found: Shape, path: str, *, dot: bool, folder_itself: bool,
                  ignore_case: bool = False) -> bool | None:
    """Whether a dialect matches `path` for a glob of shape `found`; None for a path this reading
    does not cover (not ASCII, or not a plain relative path)."""
    if not path.isascii() or not path or path.startswith("/") or path.endswith("/"):
        return None
    names = path.split("/")
    if "" in names or "." in names or ".." in names:
        return None
    wanted = found.segments
    if ignore_case:
        names = [n.lower() for n in names]
        wanted = tuple(s.lower() for s in wanted)
    ending = found.ending
    if ending is not None:
        last = names.pop()
        if ignore_case:
            ending = ending.lower()
        if not last.endswith(ending) or (not dot and last.startswith(".")):
            return False
    size = len(wanted)
    starts = range(len(names) - size + 1) if found.leading else range(min(1, len(names) - size + 1))
    for start in starts:
        if tuple(names[start:start + size]) != wanted:
            continue
        before, after = names[:start], names[start + size:]
        if after and not found.trailing:
            continue
        if not after and found.trailing and ending is None and not folder_itself:
            continue
        if not dot and any(n.startswith(".") for n in before + after):
            continue
        return True
    return False
