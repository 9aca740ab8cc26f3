"""The frontmatters nearly every rule file has, read without PyYAML.

The strict reading parses with PyYAML's pure-Python loader (strict_yaml.py says why), about half
a millisecond a frontmatter: half a second for 1,000 rule files before a language server's first
answer. Almost every frontmatter is a few top-level keys, each with one single-line scalar, a
block list of them, or, in skills' and agents' files, a block scalar (`>` or `|`, see `_block`)
or a one-level mapping of scalars (Boost's skills' `metadata`, see `_mapping`):

    paths:
      - 'app/**'
      - "src/*.ts"
    description: Money is integer cents
    summary: >
      A long text, folded into one line,
      each content line at one indentation
    metadata:
      author: laravel

`load` reads exactly that shape, with strict_yaml's typing of plain scalars, and declines (None)
anything else: escapes other than `\\"` and `\\\\`, flow collections, comments after a value,
anchors, tags, deeper nesting, tabs, odd line breaks, duplicate keys. What it declines,
strict_yaml parses, so no answer depends on this module; tests/unit/rules/format/test_simple_yaml.py compares
both on generated frontmatters.
`load_safe` reads the same shape as PyYAML's SafeLoader (YAML 1.1) does, for the other agents'
frontmatters (agents/reading.py), and also declines every plain scalar that loader would type as
a number or a date: PyYAML is then not even imported for the usual `globs: app/**` one.
Written by hand because the point is not to run a YAML parser; it is kept to what can be read
line by line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from rulelens.rules.format.symfony_scalars import symfony_scalar

# One line at a time is only safe where YAML and this module agree on what a line is, and every
# character is one the reader accepts: no tab, no CR, NEL or U+2028/9 line breaks, no BOM.
UNSAFE = "[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]"
# The same class's ASCII part, for ASCII text: compiling the whole class takes about half a
# millisecond (its ranges past ASCII), which a project of ASCII frontmatters never needs.
UNSAFE_ASCII = "[\x00-\x09\x0b-\x1f\x7f]"
_UNSAFE_ASCII = re.compile(UNSAFE_ASCII)
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?\Z")
_ITEM = re.compile(r"( *)- +(.*)\Z")
# Double-quoted: of YAML's escapes only `\"` and `\\`, which stand for the character escaped.
_DOUBLE = re.compile(r'"((?:[^"\\]|\\["\\])*)"\Z')
_ESCAPED = re.compile(r"\\(.)")
_SINGLE = re.compile(r"'((?:[^']|'')*)'\Z")
# YAML's indicators (and `<`, for the merge key `<<`) may not start a plain scalar here.
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`<")
_TYPED_KEYS = frozenset(("null", "true", "false"))  # keys strict_yaml would not keep as strings
_MAX_KEY = 1000  # PyYAML refuses a plain key longer than 1,024 characters
_PENDING = object()
# A block scalar's header: literal or folded, clip, strip or keep (no indentation indicator).
_BLOCK_HEADERS = frozenset(("|", "|-", "|+", ">", ">-", ">+"))

# SafeLoader types a plain scalar by the implicit resolvers for its first character: these words
# (booleans, null) start with a letter; numbers, dates, `~`, `=` and `<<` start with one of
# _SAFE_TYPED_FIRST, and are declined rather than typed here unless they hold two dots, which none
# of those patterns allows. Any other plain scalar is a string.
_SAFE_WORDS: dict[str, object] = {
    **dict.fromkeys(("yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"), True),
    **dict.fromkeys(("no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"), False),
    **dict.fromkeys(("null", "Null", "NULL"), None),
}
_SAFE_TYPED_FIRST = frozenset("+-.0123456789<=~")
_SAFE_TYPED_KEYS = frozenset(word.lower() for word in _SAFE_WORDS)
Plain = Callable[[str], "tuple[bool, object]"]
_QUOTED = r"""(?:"([^"\\]*)"|'((?:[^']|'')*)')"""
_QUOTED_ITEM = re.compile(_QUOTED)
_QUOTED_LIST = re.compile(rf"\[ *{_QUOTED}(?: *, *{_QUOTED})* *\] *")


def _symfony_plain(text: str) -> tuple[bool, object]:
    return True, symfony_scalar(text)


def _safe_plain(text: str) -> tuple[bool, object]:
    if text in _SAFE_WORDS:
        return True, _SAFE_WORDS[text]
    # No resolver's pattern has two dots (a version, `0.3.2`, is a string).
    return (False, None) if text[0] in _SAFE_TYPED_FIRST and text.count(".") < 2 else (True, text)


def _scalar(text: str, plain: Plain = _symfony_plain) -> tuple[bool, object]:
    """A single-line scalar's value, as the loader gives it (strict_yaml's unless `plain` types
    plain scalars otherwise); (False, None) when unsure."""
    text = text.rstrip(" ")
    if not text:
        return False, None
    first = text[0]
    if first == '"':
        m = _DOUBLE.match(text)
        if m is None:
            return False, None
        found = m.group(1)
        return True, _ESCAPED.sub(r"\1", found) if "\\" in found else found
    if first == "'":
        m = _SINGLE.match(text)
        return (True, m.group(1).replace("''", "'")) if m else (False, None)
    # A comment starts at a `#` after a space; any other `#` is part of the plain scalar.
    if first in _INDICATORS or " #" in text or ": " in text or text.endswith(":"):
        return False, None
    return plain(text)


def load(body: str) -> dict[str, object] | None:
    """The frontmatter's value, as strict_yaml.SymfonyLoader gives it; None when the text is not
    of the simple shape (the caller then parses it with the loader)."""
    return _load(body, _symfony_plain, _TYPED_KEYS)


def load_safe(body: str) -> dict[str, object] | None:
    """The frontmatter's value, as PyYAML's `yaml.safe_load` gives it; None when the text is not
    of the simple shape or holds a plain scalar typed other than as a string, boolean or null.
    A value may also be a one-line flow list of quoted strings (Kiro's `["src/**"]`)."""
    return _load(body, _safe_plain, _SAFE_TYPED_KEYS, flow=True)


def _quoted_list(text: str) -> list[object] | None:
    """`["a", 'b']`: quoted items only (a plain item in a flow list ends at `,[]{}` too)."""
    if not _QUOTED_LIST.fullmatch(text):
        return None
    return [m.group(1) if m.group(2) is None else m.group(2).replace("''", "'")
            for m in _QUOTED_ITEM.finditer(text)]


@lru_cache(maxsize=1)
def _unsafe() -> re.Pattern[str]:
    return re.compile(UNSAFE)


def _refused(name: str, out: dict[str, object], typed_keys: frozenset[str]) -> bool:
    """A key left to the loader: a duplicate, one it would type, or one too long for it."""
    return name in out or name.lower() in typed_keys or len(name) > _MAX_KEY


def _load(body: str, plain: Plain, typed_keys: frozenset[str],
          flow: bool = False) -> dict[str, object] | None:
    if (_UNSAFE_ASCII if body.isascii() else _unsafe()).search(body):
        return None
    out: dict[str, object] = {}
    key: str | None = None  # the key whose block list is being read
    items: list[object] = []
    indent = -1
    lines = body.split("\n")
    i, count = 0, len(lines)
    while i < count:
        line = lines[i]
        i += 1
        stripped = line.lstrip(" ")
        if not stripped or stripped[0] == "#":
            continue
        if line[0] == "-" or stripped[0] == "-":
            item = _ITEM.match(line)
            if key is None or item is None or (indent >= 0 and len(item.group(1)) != indent):
                return None
            indent = len(item.group(1))
            ok, value = _scalar(item.group(2), plain)
            if not ok:
                return None
            items.append(value)
            continue
        if line[0] == " " and key is not None and indent < 0:
            mapping = _mapping(lines, i - 1, plain, typed_keys)
            if mapping is None:
                return None
            out[key], i = mapping
            key = None
            continue
        m = _KEY.match(line)
        if m is None:
            return None
        if key is not None:
            out[key] = items if indent >= 0 else None
            key = None
        name, rest = m.group(1), (m.group(2) or "").strip(" ")
        if _refused(name, out, typed_keys):
            return None
        if not rest:
            key, items, indent = name, [], -1
            out[name] = _PENDING
        elif rest == "[]":
            out[name] = []
        elif rest in _BLOCK_HEADERS:
            block = _block(lines, i, rest)
            if block is None:
                return None
            out[name], i = block
        elif flow and rest[0] == "[":
            found = _quoted_list(rest)
            if found is None:
                return None
            out[name] = found
        else:
            ok, value = _scalar(rest, plain)
            if not ok:
                return None
            out[name] = value
    if key is not None:
        out[key] = items if indent >= 0 else None
    return out or None


def _block(lines: list[str], start: int, header: str) -> tuple[str, int] | None:
    """The block scalar whose header (`|`, `>-`, ...) ends the line before `start`: its value
    as PyYAML's scanner builds it, and the index of the first line after it; None for the
    shapes left to the loader.

    Read here: content lines all at the first one's indentation (more than the key's), blank
    lines of at most that many spaces between and after them (a longer line of spaces is
    content), and, folded, no content line that starts with a space (YAML folds around those
    otherwise). Declined: an empty block, blank lines before the first content line (they set
    the indentation in their own way), an indentation indicator, a comment after the header.
    Between two content lines the scanner keeps their line break and every blank line's;
    folded, a lone break becomes a space and the first of several is dropped. After the last
    one: nothing (`-`), its line break if the source has one (clip), or that and every blank
    line's (`+`).
    """
    if start >= len(lines):
        return None
    first = lines[start]
    text = first.lstrip(" ")
    indent = len(first) - len(text)
    if not text or not indent:
        return None
    folded = header[0] == ">"
    parts = [text]
    blank = 0
    i, count = start + 1, len(lines)
    while i < count:
        line = lines[i]
        if len(line) <= indent and not line.strip(" "):
            blank += 1
        elif line[:indent].strip(" "):
            break  # less indented, and not blank: the block has ended
        else:
            content = line[indent:]
            if folded and content[0] == " ":
                return None
            parts.append(("\n" * blank or " ") if folded else "\n" * (blank + 1))
            parts.append(content)
            blank = 0
        i += 1
    breaks = blank if i == count else blank + 1  # line breaks after the last content line
    chomping = header[1:]
    if chomping == "":
        parts.append("\n" if breaks else "")
    elif chomping == "+":
        parts.append("\n" * breaks)
    return "".join(parts), i


def _mapping(lines: list[str], start: int, plain: Plain,
             typed_keys: frozenset[str]) -> tuple[dict[str, object], int] | None:
    """The one-level mapping whose first key is on line `start` (indented, under a top-level
    `key:` with nothing after it): its value, and the index of the first line after it; None
    for the shapes left to the loader.

    Read here: `subkey: scalar` or `subkey:` (null) lines, all at the first one's indentation,
    with blank and comment lines between; the mapping ends at the first line that is not
    indented. Declined: a line at another indentation (nesting, a continuation, a misaligned
    key), a list, a block scalar or a flow collection as a value, a duplicate or typed key.
    """
    first = lines[start]
    indent = len(first) - len(first.lstrip(" "))
    out: dict[str, object] = {}
    i, count = start, len(lines)
    while i < count:
        line = lines[i]
        stripped = line.lstrip(" ")
        if stripped and stripped[0] != "#":
            if line[0] != " ":
                break
            m = _KEY.match(stripped)
            if m is None or len(line) - len(stripped) != indent:
                return None
            name, rest = m.group(1), (m.group(2) or "").strip(" ")
            if _refused(name, out, typed_keys):
                return None
            ok, value = _scalar(rest, plain) if rest else (True, None)
            if not ok:
                return None
            out[name] = value
        i += 1
    return out, i
