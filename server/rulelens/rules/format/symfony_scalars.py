"""Symfony YAML's scalar shapes that both the strict reading (strict_yaml.py) and the writer's
quoting (yaml_style.py) need: here, so that writing a glob does not import PyYAML."""

from __future__ import annotations

import re

PHP_NUMERIC = re.compile(r"[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*\Z")
HEX = re.compile(r"0x[0-9a-f_]+\Z", re.IGNORECASE)
TIMESTAMP = re.compile(
    r"[0-9]{4}-[0-9][0-9]?-[0-9][0-9]?"
    r"(?:(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?"
    r"(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9]{2})?))?)?\Z"
)
