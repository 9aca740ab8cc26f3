"""The `ignore` package's gitignore reading, as Claude Code 2.1.337 carries its own rewrite of it
(read from the released binary's embedded JavaScript on 2026-12-05): each pattern becomes one
regular expression, case-insensitive by default, tested against a root-relative path and each
of its parent folders (`a/`, `a/b/`), a parent's match covering everything below it; a later
`!pattern` takes a match back.

Ported, not read through pathspec: pathspec follows git's own wildmatch, and the `ignore`
package builds different regular expressions (a lone trailing `*` needs one character after a
`/`, `**` folds differently, character classes are copied as written, matching ignores case).
The port builds the same expression the package builds, step for step, so the two cannot drift
apart on the cases the conformance tests (tests/conformance/claude_code) compare.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache

# The package's tokenizer, as JavaScript writes it (`[^]` is any character there).
_TOKEN = re.compile(r"(\*+(?=.))|(\\*)(/\*\*(?![^/])|\w+|[\s\S]?)", re.ASCII)
_ESCAPED = ".$()+^{|*"


def _source(pattern: str) -> str:
    """The regular expression's source the package builds for one pattern (its `Ti`)."""
    whole = pattern[1:] if pattern.startswith("\ufeff") else pattern
    text = whole.rstrip()
    if not text:
        return ""
    lead = re.match(r"^/?(\*\*/)?", text)
    assert lead is not None  # both parts are optional: it always matches
    head, globstar = lead.group(0), lead.group(1)
    out = "^(?:.*\\/)?" if globstar else ("^" if head or re.search(r"/[\s\S]", whole) else "(?:^|\\/)")
    text = text[len(head):] + (" " if text != whole and text.endswith("\\") else "")
    bracket = ""  # the expression before an open `[`, while one is open
    slashes = ""  # the backslashes before that `[`
    previous: str | None = None
    for m in _TOKEN.finditer(text):
        stars, escapes, word = m.group(1), m.group(2) or "", m.group(3) or ""
        whole_token = m.group(0)
        last = m.end() == len(text)
        kept = escapes[len(escapes) % 2:]
        if bracket and (word == "]" or not whole_token[len(escapes):]):
            if slashes:
                out = f"{bracket}[{out}{kept}{word}"
            elif word and kept == escapes:
                out = f"{bracket}[{re.sub(r'[0-z]-[0-z]', _ordered_range, out)}{escapes}]"
            else:
                out = bracket + "[]"
            bracket = ""
        elif not bracket and word == "[":
            bracket, slashes, out = out + escapes, escapes, ""
        elif stars or word == "?" or word[:1] == "/":
            if word == "/**" and not last:
                tail = f"{escapes[1:] or escapes}(?:\\/[^\\/]+)*"
            else:
                tail = escapes + ("[^\\/]*" if stars else "[^\\/]" if word == "?" else
                                  "\\/" if word == "/" else "\\/.+")
            out = (f"{bracket}[" if bracket else "") + out + tail
            bracket = ""
        elif word == "*" and last:
            out += f"{escapes[1:]}[^/]{'+' if previous == '/' and len(escapes) < 2 else '*'}"
        elif escapes and re.fullmatch(r"\s", word):
            out += escapes if last and kept == escapes else f"{kept} "
        else:
            out += (escapes or ("\\" if word and word in _ESCAPED else "")) + word
        previous = word
    return out + ("$" if text.endswith("/") else "(?=$|\\/$)")


def _ordered_range(r: re.Match[str]) -> str:
    """A range written backwards (`z-a`) is dropped, as the package drops it."""
    return "" if r.group(0)[0] > r.group(0)[2] else r.group(0)


@lru_cache(maxsize=4096)
def compiled(pattern: str, ignore_case: bool = True) -> re.Pattern[str] | None:
    """The pattern's expression (its leading `!` and an escape before `!` or `#` dropped, as the
    package drops them), or None where it is no pattern or does not compile (Claude Code drops
    such a pattern with a warning)."""
    if not usable(pattern):
        return None
    try:
        source = _source(re.sub(r"^!?(\\(?=[!#]))?", "", pattern))
        return re.compile(source, re.IGNORECASE if ignore_case else 0)
    except (re.error, RecursionError):
        return None


def usable(pattern: str) -> bool:
    """The package skips blank lines, comments and a pattern ending in one backslash."""
    return (not pattern.startswith("#") and re.search(r"\S", pattern) is not None
            and re.search(r"(\\\\|[^\\])$", pattern) is not None)


def ignores(patterns: list[str], path: str, ignore_case: bool = True) -> bool:
    """`ignore().add(patterns).ignores(path)`: a parent folder's match covers the path."""
    rules = [(p.startswith("!"), c) for p in patterns if (c := compiled(p, ignore_case)) is not None]
    if not rules or not path:
        return False
    prefixes = [path[:i + 1] for i, ch in enumerate(path) if ch == "/" and 0 < i < len(path) - 1]
    for candidate in [*prefixes, path]:
        hit = False
        for negative, rule in rules:
            if (hit if negative else not hit) and rule.search(candidate):
                hit = not negative
        if hit:
            return True
    return False


def _folder_test(searches: Sequence[Callable[[str], object]]) -> Callable[[str], bool]:
    """Whether a folder `prefix` (ending with `/`) or a parent of it matches one of the rules:
    `ignores`' parents of a path are its prefixes up to each `/` past the first character and
    before the last. Each folder is tested once, remembered."""
    folders: dict[str, bool] = {}

    def folder_hit(prefix: str) -> bool:
        hit = folders.get(prefix)
        if hit is None:
            cut = prefix.rfind("/", 0, len(prefix) - 1)
            hit = folders[prefix] = (any(search(prefix) for search in searches)
                                     or (cut > 0 and folder_hit(prefix[:cut + 1])))
        return hit

    return folder_hit


def ignored(patterns: list[str], paths: Iterable[str], ignore_case: bool = True) -> Iterator[str]:
    """The paths `ignores(patterns, path)` holds for, lazily, in their order: `check` asks it of
    every project path. Without a `!pattern` the answer is an OR over a path and its parent
    folders, so each folder is tested once for all the paths below it, remembered; with one,
    the order of the rules matters and each path is tested as `ignores` tests it."""
    rules = [(p.startswith("!"), c) for p in patterns if (c := compiled(p, ignore_case)) is not None]
    if not rules:
        return
    if any(negative for negative, _ in rules):
        yield from (p for p in paths if ignores(patterns, p, ignore_case))
        return
    searches = [rule.search for _, rule in rules]
    folder_hit = _folder_test(searches)
    one = searches[0] if len(searches) == 1 else None
    last, last_hit = "", False  # sorted paths come folder by folder: its answer, kept
    for path in paths:
        if not path:
            continue
        cut = path.rfind("/", 0, len(path) - 1)
        if cut > 0:
            parent = path[:cut + 1]
            if parent != last:
                last, last_hit = parent, folder_hit(parent)
            if last_hit:
                yield path
                continue
        if (one(path) is not None) if one is not None else any(search(path) for search in searches):
            yield path


# The last list's folders, with its length: `check` asks `ignored_sorted` once per pattern of the
# same file list, which nothing changes (a list is not hashable: compared by identity; at most
# one list is held beyond its use, until the next call).
_FOLDERS: list[tuple[Sequence[str], int, tuple[str, ...]]] = []


def _folders(paths: Sequence[str]) -> tuple[str, ...]:
    """Every folder `ignores` tests for some path (each path's last parent, `a/b/` of `a/b/c.ts`,
    and the parents of that up to the first `/` past the first character: `_folder_test`'s
    chain), worked out once per list."""
    if _FOLDERS and _FOLDERS[0][0] is paths and _FOLDERS[0][1] == len(paths):
        return _FOLDERS[0][2]
    found: set[str] = set()
    for parent in {p[:p.rfind("/", 0, len(p) - 1) + 1] for p in paths}:
        while len(parent) > 1 and parent not in found:
            found.add(parent)
            cut = parent.rfind("/", 0, len(parent) - 1)
            if cut <= 0:
                break
            parent = parent[:cut + 1]
    folders = tuple(found)
    _FOLDERS[:] = [(paths, len(paths), folders)]
    return folders


def ignored_sorted(patterns: list[str], paths: Sequence[str], ignore_case: bool = True) -> set[str]:
    """`ignored` for `paths` sorted, as a set, at C speed where no `!pattern` needs the order of
    the rules: each rule searched over the whole list (`filter`), each folder once, and the paths
    below a folder that matches taken as one slice of the sorted list. (A path `a/b/` itself is
    no path below `a/b/`, but it matches wherever that folder does: the same text searched.)"""
    rules = [(p.startswith("!"), c) for p in patterns if (c := compiled(p, ignore_case)) is not None]
    if not rules:
        return set()
    if any(negative for negative, _ in rules):
        return set(ignored(patterns, paths, ignore_case))
    searches = [rule.search for _, rule in rules]
    found: set[str] = set()
    for search in searches:
        found.update(filter(search, paths))
    found.discard("")  # no path: `ignores` matches nothing
    # A path's parents match when one folder of their chain does (`_folder_test`): the folders
    # that match by themselves, searched in C, each take every path below them.
    folders = _folders(paths)
    direct: set[str] = set()
    for search in searches:
        direct.update(filter(search, folders))
    covered = ""  # the last folder whose slice was taken: the folders below it are in it
    for parent in sorted(direct):
        if covered and parent.startswith(covered):
            continue
        covered = parent
        start = bisect_left(paths, parent)
        end = bisect_left(paths, parent[:-1] + "0", start)  # "0" follows "/": past every `a/b/…`
        found.update(paths[start:end])
    return found
