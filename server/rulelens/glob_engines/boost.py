"""The glob dialect of docs/format.md §2: one `paths` item → compiled gitignore-style patterns.

pathspec gives the gitignore semantics (we take its per-pattern regexes so that we can say
*which* glob matched, which a combined PathSpec cannot); bracex expands braces. pathspec is
imported for the first glob that needs it: the regex text of a glob of literal text and stars,
the shape most globs take, is written here as pathspec writes it (`plain_source`). Splitting
comma-joined items outside braces is ours: no library knows that convention.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

# pathspec's regexes for `[[`-style globs make `re` warn "Possible nested set" (a FutureWarning);
# that is no message for a user, and the glob is still compiled. Silence exactly that warning.
warnings.filterwarnings("ignore", message="Possible nested set", category=FutureWarning)
# What makes a segment a pattern for pathspec (braces are expanded before it sees a glob).
_WILD = re.compile(r"[*?\[\\]")
MAX_EXPANSIONS = 1000
_BRACE_OR_COMMA = re.compile(r"[{},]")


@dataclass(frozen=True)
class Pattern:
    """One expanded glob: its regex, whether it includes, and its literal directory prefix."""

    source: str
    regex: re.Pattern[str]
    include: bool
    prefix: str


def split_commas(item: str) -> list[str]:
    """Split `a/**,b.php` on commas that sit outside braces; keep `{a,b}` whole."""
    if "{" not in item:  # every comma splits: the same parts, without the walk (the common case)
        return [p.strip() for p in item.split(",") if p.strip()]
    parts: list[str] = []
    depth = 0
    start = 0
    for found in _BRACE_OR_COMMA.finditer(item):  # only the characters that matter
        ch, i = found.group(), found.start()
        if ch == "{":
            depth += 1
        elif ch == "}":
            if depth:
                depth -= 1
        elif depth == 0:
            parts.append(item[start:i])
            start = i + 1
    parts.append(item[start:])
    return [p.strip() for p in parts if p.strip()]


def expand(item: str) -> list[tuple[str, bool]]:
    """Every concrete glob of one `paths` item, each with its include flag.

    A comma list is a list of items, so each part may carry its own `!`.
    """
    text = item.strip()
    if text and text[0] not in "!." and "," not in text and "{" not in text:
        return [(text, True)]  # one glob as written: what the loop below gives it
    out: list[tuple[str, bool]] = []
    for part in split_commas(text):
        include = not part.startswith("!")
        part = part.lstrip("!").strip()
        variants = (_braces(part) or (part,)) if "{" in part else (part,)  # unexpandable: as written
        for variant in variants:
            glob = normalise(variant)
            if glob:
                out.append((glob, include))
    return out


def expansion_error(item: str) -> str | None:
    """Why an item's braces cannot be expanded (it is then matched as literal text)."""
    for part in split_commas(item.strip()):
        if "{" in part and _braces(part.lstrip("!")) is None:
            return f"`{part}` expands to more than {MAX_EXPANSIONS:,} globs; split it up."
    return None


@lru_cache(maxsize=1024)
def _braces(part: str) -> tuple[str, ...] | None:
    """bracex's expansion of one glob, or None when bracex raises (a runaway expansion).

    Kept because one run expands each glob several times (lint, its expansion check, the
    matcher, the index), and bracex's parser is the larger part of linting a small project.
    """
    simple = _one_list(part)
    if simple is not None:
        return simple
    import bracex  # for a glob `_one_list` cannot expand: about 1.5 ms of a small `check`

    try:
        return tuple(bracex.expand(part, limit=MAX_EXPANSIONS))
    except Exception:
        return None


def _one_list(part: str) -> tuple[str, ...] | None:
    """The expansion of a glob with one brace list and nothing else bracex reads specially
    (`app/{Models,Http}/**`, the common shape), as bracex gives it; None for any other glob.

    By hand because bracex's parser costs about 15 us a glob (15 ms of a language server's first
    answer at 1,000 rule files); tests/unit/glob_engines/test_brace_lists.py compares the two.
    """
    open_at = part.find("{")
    close_at = part.find("}")
    if (open_at < 0 or close_at < open_at or part.count("{") != 1 or part.count("}") != 1
            or "\\" in part or "$" in part):
        return None
    alternatives = part[open_at + 1 : close_at].split(",")
    if len(alternatives) < 2 or len(alternatives) > MAX_EXPANSIONS or "" in alternatives \
            or any(".." in a for a in alternatives):
        return None
    head, tail = part[:open_at], part[close_at + 1 :]
    return tuple(head + a + tail for a in alternatives)


def malformed_reason(item: str) -> str | None:
    """Why an item can never match as its author meant, or None.

    pathspec and bracex accept these silently (an unclosed `[` or `{` is taken as literal text),
    so the check is ours: it scans each comma part once, honouring backslash escapes.
    """
    for part in split_commas(item.strip()) or [item]:
        depth = 0
        alternative_empty = False
        i = 0
        while i < len(part):
            ch = part[i]
            if ch == "\\":
                i += 2
                continue
            if ch == "[":
                close = part.find("]", i + 2 if part[i + 1 : i + 2] in ("!", "^", "]") else i + 1)
                if close < 0 or "/" in part[i:close]:
                    return f"the `[` at position {i + 1} is never closed"
                i = close + 1
                continue
            if ch == "{":
                depth += 1
                alternative_empty = alternative_empty or part[i + 1 : i + 2] in (",", "}")
            elif ch == "}":
                if depth == 0:
                    return f"the `}}` at position {i + 1} closes no `{{`"
                depth -= 1
            elif ch == "," and depth and part[i + 1 : i + 2] in (",", "}"):
                alternative_empty = True
            i += 1
        if depth:
            return "a `{` is never closed"
        if alternative_empty:
            return "a brace group has an empty alternative"
    return None


def normalise(glob: str) -> str:
    """`./x` anchors like `/x` (pathspec would match nothing for `./`)."""
    glob = glob.strip()
    while glob.startswith("./"):
        glob = "/" + glob[2:].lstrip("/")
    return glob


@lru_cache(maxsize=65536)
def regex_source(glob: str) -> str | None:
    """pathspec's regex for one concrete glob, as text and anchored; None if it matches nothing.

    Text, not compiled: `re.compile` is most of a glob's cost, and an index compiles many globs
    together (rules/match/matcher.py) or tests a literal one without any regex (`literal_test`).
    """
    source = plain_source(glob)
    if source is None:
        try:
            source, _ = _to_regex()(glob)
        except Exception:  # pathspec rejects a few malformed forms; they match nothing
            return None
    if not isinstance(source, str):
        return None
    if not source.startswith("^"):
        # pathspec searches; a few special cases (`**` → ".", `*/` → "/") are unanchored.
        # Anchor them so that every regex here can be matched, alone or in an alternation.
        source = f"^.*?(?:{source})"
    return source


@lru_cache(maxsize=1)
def _to_regex() -> Callable[[str], tuple[str | None, bool | None]]:
    """pathspec's "gitignore" translation, imported on the first glob `plain_source` leaves to
    it (pathspec and typing_extensions: about 8 ms of a small project's `check`)."""
    from pathspec.util import lookup_pattern

    to_regex: Callable[[str], tuple[str | None, bool | None]] = \
        lookup_pattern("gitignore").pattern_to_regex  # type: ignore[attr-defined]
    return to_regex


def plain_source(glob: str) -> str | None:
    """pathspec's "gitignore" regex (`GitIgnoreBasicPattern.pattern_to_regex`) for a glob of
    literal text, `*` and `**` segments; None for any other glob, which pathspec translates.

    By hand so that a project whose globs all take this shape is checked without importing
    pathspec; the same steps as pathspec's (root anchoring, `**` collapsing, its special cases),
    and tests/unit/glob_engines/test_plain_sources.py holds the text equal to pathspec's over every short glob
    of these characters and many longer ones.
    """
    if (not glob or glob[0] in "#!" or glob[-1].isspace() or glob == "/"
            or "\\" in glob or "[" in glob or "?" in glob):
        return None  # comments, negation, trailing spaces, escapes, ranges: pathspec's own cases
    segments = glob.split("/")
    is_dir = not segments[-1]
    if not segments[0]:
        del segments[0]
    elif (len(segments) == 1 or (len(segments) == 2 and not segments[1])) and segments[0] != "**":
        segments.insert(0, "**")
    if not segments[-1]:
        segments[-1] = "**"
    for i in range(len(segments) - 1, 0, -1):
        if segments[i - 1] == "**" and segments[i] == "**":
            del segments[i]
    if segments == ["**"]:
        return "/" if is_dir else "."
    if segments in (["**", "*"], ["**", "*", "**"]):
        return "." if len(segments) == 2 else "/"
    parts: list[str] = []
    end = len(segments) - 1
    need_slash = False  # as pathspec: not after a leading `**`, whose regex ends with a slash
    for i, segment in enumerate(segments):
        if segment == "**":
            parts.append("^(?:.+/)?" if i == 0 else "(?:/.+)?" if i < end else "/")
            need_slash = i > 0
            continue
        if i == 0:
            parts.append("^")
        if need_slash:
            parts.append("/")
        need_slash = True
        if segment == "*":
            parts.append("[^/]+/?$" if i == end else "[^/]+")
            continue
        parts.append("[^/]*".join(re.escape(text) for text in segment.split("*")))
        if i == end:
            parts.append("(?:/|$)")
    return "".join(parts)


_UNESCAPE = re.compile(r"\\(.)", re.DOTALL)
_END = "(?:/|$)"  # pathspec's tail: the match ends at a segment's end
_ANY_FOLDERS = "(?:.+/)?"  # a leading `**/`
_DEEP = "(?:/.+)?/"  # a `/**/` after a literal prefix
_STAR = "[^/]*"  # a `*` before a literal end of segment

# A glob that needs no regex: (prefix, deep, exact, text). The path starts with `prefix` and
# then one segment (`deep`: any later segment) equals `text` (`exact`) or ends with it; a deep
# `text` with slashes is segments in a row: equal (`exact`), or equal folders then a segment
# ending with the text after the last slash (`**/Models/*.php`).
LiteralTest = tuple[str, bool, bool, str]


def _literal(escaped: str) -> str | None:
    text = _UNESCAPE.sub(r"\1", escaped)
    return text if re.escape(text) == escaped else None


@lru_cache(maxsize=65536)
def literal_test(source: str) -> LiteralTest | None:
    """The string test that answers as pathspec's regex `source` does, for the shapes most
    globs take (`app/Models/**`, a file's path, `src/*.php`, `src/**/x.php`, `**/*.php`); None
    for any other regex.

    Read from pathspec's own regex text, so the semantics stay pathspec's; a string test costs
    well under a microsecond where compiling the regex costs 30 to 60 µs per glob, which a lookup
    that first reaches a bucket would pay (bench/lsp_latency.py). Only for paths as a project
    lists them (`plain_path`): `.` in these regexes does not match a line break.
    """
    if not source.startswith("^") or source.startswith("^.*?"):
        return None
    body = source[1:]
    if body.endswith("/") and not body.endswith(_END):  # `^a/b/`: below a folder
        prefix = _literal(body[:-1])
        return (prefix + "/", False, True, "") if prefix else None
    if not body.endswith(_END):
        return None
    body = body[: -len(_END)]
    if body.startswith(_ANY_FOLDERS):
        prefix_text, deep, last = "", True, body[len(_ANY_FOLDERS):]
    elif _DEEP in body:
        head, _, last = body.partition(_DEEP)
        literal_head = _literal(head)
        if not literal_head:
            return None
        prefix_text, deep = literal_head + "/", True
    else:
        folded = body.replace(_STAR, "\0")
        if "/" not in folded:  # `^a(?:/|$)` and `^[^/]*\.php(?:/|$)`: the first segment
            prefix_text, deep, last = "", False, body
        else:
            head, _, tail = folded.rpartition("/")
            if "\0" in head:
                return None
            literal_head = _literal(head)
            if literal_head is None:
                return None
            prefix_text, deep, last = literal_head + "/", False, tail.replace("\0", _STAR)
    exact = not last.startswith(_STAR)
    if deep and exact and _STAR in last:  # `**/Models/*.php`: literal segments, then `*<end>`
        return _folders_then_end(prefix_text, last)
    text = _literal(last if exact else last[len(_STAR):])
    if not text or ("/" in text and not (deep and exact)):
        return None
    return prefix_text, deep, exact, text


def _folders_then_end(prefix: str, last: str) -> LiteralTest | None:
    """`dir/.../[^/]*end` after a deep start: literal folder segments, then one segment
    ending with a literal; as (prefix, True, False, "dir/.../end")."""
    head, _, tail = last.replace(_STAR, "\0").rpartition("/")
    if not tail.startswith("\0") or "\0" in head or "\0" in tail[1:]:
        return None
    folders = _literal(head)
    end = _literal(tail[1:])
    if not folders or not end or "/" in end or "" in folders.split("/"):
        return None
    return prefix, True, False, f"{folders}/{end}"


def plain_path(path: str) -> bool:
    """A path as a project lists it: relative, no empty segment, no line break."""
    return bool(path) and "\n" not in path and "\r" not in path and "//" not in path \
        and not path.startswith("/")


def literal_matches(test: LiteralTest, path: str) -> bool:
    """What pathspec's regex answers for a `plain_path`, from `literal_test`'s description."""
    prefix, deep, exact, text = test
    if not path.startswith(prefix):
        return False
    rest = path[len(prefix):]
    if not text:  # `^a/b/`: anything below the folder
        return True
    if not deep:
        segment = rest.split("/", 1)[0]
        return segment == text if exact else segment.endswith(text)
    if exact:
        return rest == text or rest.startswith(text + "/") or f"/{text}/" in f"/{rest}/"
    if "/" in text:  # folder segments in a row, then a segment ending with the rest
        folders, _, end = text.rpartition("/")
        segments = rest.split("/")
        wanted = folders.split("/")
        n = len(wanted)
        return any(segments[i : i + n] == wanted and segments[i + n].endswith(end)
                   for i in range(len(segments) - n))
    return any(seg.endswith(text) for seg in rest.split("/"))


@lru_cache(maxsize=65536)
def compile_glob(glob: str, include: bool = True) -> Pattern | None:
    """The pathspec regex for one concrete glob, with what an index needs to find it fast."""
    source = regex_source(glob)
    if source is None:
        return None
    return Pattern(glob, re.compile(source), include, anchored_prefix(glob))


_MAGIC = frozenset("*?[]{}!\\")


@lru_cache(maxsize=65536)
def literal_end(glob: str) -> str:
    """Text every path the glob selects contains: the literal end of its last segment (`.php`
    of `app/**/*.php`); '' when it has none. A substring search for it (C speed, no regex)
    answers "matches nothing" for most globs that do."""
    last = glob.strip().rstrip("/").rpartition("/")[2]
    start = len(last)
    while start > 0 and last[start - 1] not in _MAGIC:
        start -= 1
    return last[start:]


def is_literal(segment: str) -> bool:
    return bool(segment) and not _WILD.search(segment)


def segments_of(glob: str) -> tuple[list[str], bool]:
    """The glob's segments, and whether it is anchored (gitignore: a slash before the end)."""
    segments = glob.lstrip("/").rstrip("/").split("/")
    return segments, glob.startswith("/") or len(segments) > 1


def anchored_prefix(glob: str) -> str:
    """The leading literal segments of an anchored glob: every match lies at or below them."""
    segments, anchored = segments_of(glob)
    if not anchored:
        return ""
    n = 0
    while n < len(segments) and is_literal(segments[n]):
        n += 1
    return "/".join(segments[:n])


def patterns_of(item: str) -> list[Pattern]:
    """Compiled patterns of one `paths` item, in order."""
    out = []
    for glob, include in expand(item):
        pattern = compile_glob(glob, include)
        if pattern is not None:
            out.append(pattern)
    return out


def line_regex(pattern: Pattern) -> re.Pattern[str]:
    """The same pattern for searching a newline-joined file list in one C-level scan."""
    return _line_regex(pattern.regex.pattern)


@lru_cache(maxsize=65536)
def _line_regex(source: str) -> re.Pattern[str]:
    # Negated classes ([^/] for `*`, [^x] for `[!x]`) must not cross into the next line.
    return re.compile(source.replace("[^", "[^\\n"), re.MULTILINE)


def dialect_hints(item: str) -> list[str]:
    """How other agents read this item differently (docs/format.md §2, last point). Which agents
    read it how is said by agents/dialect_words.py, from each agent's own matcher."""
    hints = []
    text = item.strip().lstrip("!")
    for part in split_commas(text):
        body = part.strip()
        if body and "/" not in body.rstrip("/") and body not in ("**", "*"):
            hints.append(
                f"`{body}` has no slash: rulelens matches it at any depth; agents that match globs "
                f"themselves may not. Write `**/{body}` for any depth, or `/{body}` for the root."
            )
    return hints
