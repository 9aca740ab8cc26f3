"""The frontmatters nearly every rule file has, read without PyYAML.

The strict reading parses with PyYAML's pure-Python loader (strict_yaml.py says why), about half
a millisecond a frontmatter: half a second for 1,000 rule files before a language server's first
answer. Almost every frontmatter is a few top-level keys, each with one single-line scalar or a
block list of them:

    paths:
      - 'app/**'
      - "src/*.ts"
    description: Money is integer cents

`load` reads exactly that shape, with strict_yaml's typing of plain scalars (or, for the agents'
files, PyYAML's safe loader's: `yaml11_plain`), and declines (None)
anything else: quotes with escapes, flow collections, comments after a value, anchors, tags,
nesting, tabs, odd line breaks, duplicate keys. What it declines, strict_yaml parses, so no answer
depends on this module; tests/unit/test_simple_yaml.py compares both on generated frontmatters.
Written by hand because the point is not to run a YAML parser; it is kept to what can be read
line by line.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rulelens.rules.format.symfony_scalars import symfony_scalar

# One line at a time is only safe where YAML and this module agree on what a line is, and every
# character is one the reader accepts: no tab, no CR, NEL or U+2028/9 line breaks, no BOM.
_UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?\Z")
_ITEM = re.compile(r"( *)- +(.*)\Z")
_DOUBLE = re.compile(r'"([^"\\]*)"\Z')
_SINGLE = re.compile(r"'((?:[^']|'')*)'\Z")
# YAML's indicators (and `<`, for the merge key `<<`) may not start a plain scalar here.
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`<")
_TYPED_KEYS = frozenset(("null", "true", "false"))  # keys strict_yaml would not keep as strings
_MAX_KEY = 1000  # PyYAML refuses a plain key longer than 1,024 characters
_QUOTED = r"""(?:"[^"\\]*"|'(?:[^']|'')*')"""
_FLOW = re.compile(rf"\[ *(?:{_QUOTED} *(?:, *{_QUOTED} *)*)?\]\Z")
_FLOW_ITEM = re.compile(r"""(?:"([^"\\]*)"|'((?:[^']|'')*)')""")
_PENDING = object()
Plain = Callable[[str], tuple[bool, object]]


def _symfony_plain(text: str) -> tuple[bool, object]:
    return True, symfony_scalar(text)


_YAML11_BOOLS = {"yes": True, "true": True, "on": True, "no": False, "false": False, "off": False}


def yaml11_plain(text: str) -> tuple[bool, object]:
    """A plain scalar as PyYAML's safe loader (YAML 1.1) types it, where that is sure: a bool
    word, or a string no implicit resolver takes (none starts with a letter other than a bool's
    or null's, and every other one starts with one of `-+.~<=` or a digit); else (False, None)."""
    if text[0] in "-+.~<=0123456789":
        return False, None
    lower = text.lower()
    if lower in _YAML11_BOOLS:
        # PyYAML's bool resolver takes `yes`, `Yes` and `YES`, not `yEs`.
        sure = text in (lower, lower.capitalize(), lower.upper())
        return (True, _YAML11_BOOLS[lower]) if sure else (False, None)
    if lower == "null":
        return False, None
    return True, text


def _scalar(text: str, plain: Plain = _symfony_plain) -> tuple[bool, object]:
    """A single-line scalar's value, as strict_yaml gives it (`plain` types a plain scalar);
    (False, None) when unsure."""
    text = text.rstrip(" ")
    if not text:
        return False, None
    first = text[0]
    if first == "[" and _FLOW.match(text):  # `["src/**", 'lib/**']`: quoted items only
        items = _FLOW_ITEM.finditer(text)
        return True, [m[1] if m[1] is not None else m[2].replace("''", "'") for m in items]
    if first == '"':
        m = _DOUBLE.match(text)
        return (True, m.group(1)) if m else (False, None)
    if first == "'":
        m = _SINGLE.match(text)
        return (True, m.group(1).replace("''", "'")) if m else (False, None)
    if first in _INDICATORS or "#" in text or ": " in text or text.endswith(":"):
        return False, None
    return plain(text)


def load(body: str, plain: Plain = _symfony_plain) -> dict[str, object] | None:
    """The frontmatter's value, as strict_yaml.SymfonyLoader gives it; None when the text is not
    of the simple shape (the caller then parses it with the loader). `plain`: how a plain scalar
    is typed (`yaml11_plain`: as PyYAML's safe loader, which the agents' reading uses)."""
    if _UNSAFE.search(body):
        return None
    out: dict[str, object] = {}
    key: str | None = None  # the key whose block list is being read
    items: list[object] = []
    indent = -1
    for line in body.split("\n"):
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
        m = _KEY.match(line)
        if m is None:
            return None
        if key is not None:
            out[key] = items if indent >= 0 else None
            key = None
        name, rest = m.group(1), (m.group(2) or "").strip(" ")
        typed_key = plain is not _symfony_plain and plain(name) != (True, name)  # `on:` is True
        if name in out or name.lower() in _TYPED_KEYS or len(name) > _MAX_KEY or typed_key:
            return None
        if not rest:
            key, items, indent = name, [], -1
            out[name] = _PENDING
        elif rest == "[]":
            out[name] = []
        else:
            ok, value = _scalar(rest, plain)
            if not ok:
                return None
            out[name] = value
    if key is not None:
        out[key] = items if indent >= 0 else None
    return out or None
