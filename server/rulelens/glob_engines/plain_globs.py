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

tests/unit/glob_engines/test_plain_globs.py holds each answer to the dialect's matcher over generated globs
and paths.
"""

from __future__ import annotations

from collections.abc import Callable
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


def plain_answer(pattern: str, path: str, *, dot: bool, folder_itself: bool,
                 ignore_case: bool = False) -> bool | None:
    """`plain_matches` for `pattern` when it has a plain shape; None when the dialect's matcher
    must answer (not a plain glob, or a path this reading does not cover)."""
    found = shape(pattern)
    if found is None:
        return None
    return plain_matches(found, path, dot=dot, folder_itself=folder_itself, ignore_case=ignore_case)


def plain_matches(found: Shape, path: str, *, dot: bool, folder_itself: bool,
                  ignore_case: bool = False) -> bool | None:
    """Whether a dialect matches `path` for a glob of shape `found`; None for a path this reading
    does not cover (not ASCII, or not a plain relative path). One path's question, answered by
    the shape's tester, kept per shape and reading."""
    return _kept_tester(found, dot, folder_itself, ignore_case)(path)


@lru_cache(maxsize=4096)
def _kept_tester(found: Shape, dot: bool, folder_itself: bool,
                 ignore_case: bool) -> Callable[[str], bool | None]:
    return plain_tester(found, dot=dot, folder_itself=folder_itself, ignore_case=ignore_case)


def plain_tester(found: Shape, *, dot: bool, folder_itself: bool,
                 ignore_case: bool = False) -> Callable[[str], bool | None]:
    """`plain_matches` for one shape, as a test of one path, its text (folded where the
    reading ignores case) worked out once: for a pattern asked about every project file."""
    wanted = tuple(s.lower() for s in found.segments) if ignore_case else found.segments
    ending = found.ending.lower() if ignore_case and found.ending is not None else found.ending
    text, size = "/".join(wanted), len(wanted)
    leading, trailing = found.leading, found.trailing

    def anywhere(path: str) -> bool:
        if dot and (ending is None or not wanted):  # string tests, as from the root
            if ending is not None:
                return path.endswith(ending)
            if trailing:
                return f"/{text}/" in (f"/{path}/" if folder_itself else f"/{path}")
            return path == text or path.endswith("/" + text)
        names = path.split("/")
        if ending is not None:
            last = names.pop()
            if not last.endswith(ending) or (not dot and last.startswith(".")):
                return False
        for start in range(len(names) - size + 1):
            if tuple(names[start:start + size]) != wanted:
                continue
            before, after = names[:start], names[start + size:]
            if after and not trailing:
                continue
            if not after and trailing and ending is None and not folder_itself:
                continue
            if not dot and any(n.startswith(".") for n in before + after):
                continue
            return True
        return False

    def from_root(path: str) -> bool:
        rest = path
        if text:
            if not trailing and ending is None:
                return path == text
            if path == text:
                return ending is None and folder_itself
            if not path.startswith(text) or path[len(text)] != "/":
                return False
            rest = path[len(text) + 1:]
        if ending is not None and (not rest.endswith(ending) or ("/" in rest and not trailing)):
            return False
        return dot or (rest[0] != "." and "/." not in rest)

    answer = anywhere if leading else from_root

    def test(path: str) -> bool | None:
        if not path or not path.isascii() or path[0] == "/" or path[-1] == "/" or "//" in path:
            return None
        if (path[0] == "." or "/." in path) and any(n in (".", "..") for n in path.split("/")):
            return None
        return answer(path.lower() if ignore_case else path)

    return test
