"""Symfony YAML's scalar shapes and typing, which the strict reading (strict_yaml.py, and
simple_yaml.py for the simple frontmatters) and the writer's quoting (yaml_style.py) need: here,
so that writing a glob, or reading a simple frontmatter, does not import PyYAML."""

from __future__ import annotations

import re
from functools import cached_property


class _Shapes:
    """Symfony's scalar shapes, each compiled when first used: most plain scalars of a rule's
    frontmatter are paths and names, which reach none but `octal`."""

    @cached_property
    def php_numeric(self) -> re.Pattern[str]:
        return re.compile(r"[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*\Z")

    @cached_property
    def hex(self) -> re.Pattern[str]:
        return re.compile(r"0x[0-9a-f_]+\Z", re.IGNORECASE)

    @cached_property
    def timestamp(self) -> re.Pattern[str]:
        return re.compile(
            r"[0-9]{4}-[0-9][0-9]?-[0-9][0-9]?"
            r"(?:(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?"
            r"(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9]{2})?))?)?\Z"
        )

    @cached_property
    def octal(self) -> re.Pattern[str]:
        return re.compile(r"[+-]?0o([0-7_]+)\Z")

    @cached_property
    def digits_underscore(self) -> re.Pattern[str]:
        return re.compile(r"[+-]?[0-9][0-9_]*\Z")

    @cached_property
    def float_underscore(self) -> re.Pattern[str]:
        return re.compile(r"[+-]?[0-9][0-9_]*(\.[0-9_]+)?\Z")


SHAPES = _Shapes()


def symfony_scalar(text: str) -> object:
    """A plain scalar's value as Symfony's `Inline::evaluateScalar` gives it (types only)."""
    scalar = text.strip()
    lower = scalar.lower()
    if lower == "null" or scalar in ("", "~"):
        return None
    if lower in ("true", "false"):
        return lower == "true"
    if SHAPES.octal.match(scalar):
        return int(scalar.replace("_", "").replace("0o", ""), 8)
    if scalar[0] in "+-." or scalar[0].isdigit():
        if SHAPES.digits_underscore.match(scalar):
            scalar = scalar.replace("_", "")
        digits = scalar[1:] if scalar[0] == "-" else scalar
        if digits.isascii() and digits.isdigit():
            return int(scalar) if str(int(scalar)) == scalar else scalar
        if SHAPES.php_numeric.match(scalar):
            return float(scalar)
        if SHAPES.hex.match(scalar):
            return int(scalar.replace("_", ""), 16)
        if lower in (".inf", ".nan", "-.inf"):
            return float(lower.replace(".", ""))
        if SHAPES.float_underscore.match(scalar):
            return float(scalar.replace("_", ""))
        if SHAPES.timestamp.match(scalar):
            return 0  # a timestamp: a number, never a glob
    return text
