"""Symfony YAML's scalar shapes and typing, which the strict reading (strict_yaml.py, and
simple_yaml.py for the simple frontmatters) and the writer's quoting (yaml_style.py) need: here,
so that writing a glob, or reading a simple frontmatter, does not import PyYAML."""

from __future__ import annotations

import re

PHP_NUMERIC = re.compile(r"[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*\Z")
HEX = re.compile(r"0x[0-9a-f_]+\Z", re.IGNORECASE)
TIMESTAMP = re.compile(
    r"[0-9]{4}-[0-9][0-9]?-[0-9][0-9]?"
    r"(?:(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?"
    r"(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9]{2})?))?)?\Z"
)
_OCTAL = re.compile(r"[+-]?0o([0-7_]+)\Z")
_DIGITS_UNDERSCORE = re.compile(r"[+-]?[0-9][0-9_]*\Z")
_FLOAT_UNDERSCORE = re.compile(r"[+-]?[0-9][0-9_]*(\.[0-9_]+)?\Z")


def symfony_scalar(text: str) -> object:
    """A plain scalar's value as Symfony's `Inline::evaluateScalar` gives it (types only)."""
    scalar = text.strip()
    lower = scalar.lower()
    if lower == "null" or scalar in ("", "~"):
        return None
    if lower in ("true", "false"):
        return lower == "true"
    if _OCTAL.match(scalar):
        return int(scalar.replace("_", "").replace("0o", ""), 8)
    if scalar[0] in "+-." or scalar[0].isdigit():
        if _DIGITS_UNDERSCORE.match(scalar):
            scalar = scalar.replace("_", "")
        digits = scalar[1:] if scalar[0] == "-" else scalar
        if digits.isascii() and digits.isdigit():
            return int(scalar) if str(int(scalar)) == scalar else scalar
        if PHP_NUMERIC.match(scalar):
            return float(scalar)
        if HEX.match(scalar):
            return int(scalar.replace("_", ""), 16)
        if lower in (".inf", ".nan", "-.inf"):
            return float(lower.replace(".", ""))
        if _FLOAT_UNDERSCORE.match(scalar):
            return float(scalar.replace("_", ""))
        if TIMESTAMP.match(scalar):
            return 0  # a timestamp: a number, never a glob
    return text
