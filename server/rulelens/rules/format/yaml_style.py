"""Glob scalars in Symfony YAML's dump style, so files rulelens writes match Boost's bytes.

Written by hand: PyYAML's emitter quotes by different rules, and byte compatibility with
Boost (which dumps with Symfony YAML) is the point.
"""

from __future__ import annotations

import re

from rulelens.rules.format.symfony_scalars import SHAPES

_DOUBLE = re.compile("[\x00-\x1f\x7f\u0085\u00a0\u2028\u2029]")
_SINGLE = re.compile(r"[\s'\":{}\[\],&*#?]|\A[-?|<>=!%@`]")
_RESERVED = {"null", "~", "true", "false", "y", "n", "yes", "no", "on", "off"}
# Symfony quotes these too (digits with underscores, hexadecimal) but not `0o17`, which it then
# reads back as a number: Boost's index drops such a glob, and so does rulelens's strict reading.
_DIGITS = re.compile(r"\A[0-9]+[_0-9]*\Z")
_ESCAPES = {
    "\\": "\\\\", '"': '\\"', "\x00": "\\0", "\x07": "\\a", "\x08": "\\b", "\t": "\\t",
    "\n": "\\n", "\x0b": "\\v", "\x0c": "\\f", "\r": "\\r", "\x1b": "\\e",
    "\u0085": "\\N", "\u00a0": "\\_", "\u2028": "\\L", "\u2029": "\\P",
}


def double_quoted(value: str) -> str:
    out = []
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ch == "\x7f":
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def single_quoted(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def dump_scalar(value: str) -> str:
    """One glob as Symfony's `Yaml::dump` writes it (docs/format.md §3, 'What Boost writes')."""
    if _DOUBLE.search(value):
        return double_quoted(value)
    needs_quotes = (
        value == ""
        or _SINGLE.search(value) is not None
        or value.lower() in _RESERVED
        or SHAPES.php_numeric.match(value) is not None
        or SHAPES.timestamp.match(value) is not None
        or _DIGITS.match(value) is not None
        or SHAPES.hex.match(value) is not None
    )
    if not needs_quotes:
        return value
    single = single_quoted(value)
    if "'" in value:
        double = double_quoted(value)
        if len(double) < len(single):
            return double
    return single


def paths_block(globs: list[str], newline: str = "\n") -> str:
    """The `paths:` block Boost writes, ending with a newline."""
    return "paths:" + newline + "".join(f"  - {dump_scalar(g)}{newline}" for g in globs)
