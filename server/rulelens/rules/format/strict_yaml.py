"""The strict reading's YAML: what Symfony YAML 7 (Boost's parser) makes of a frontmatter.

PyYAML parses the structure; this module swaps its YAML 1.1 scalar typing for Symfony's and
refuses what Symfony refuses, so that the index lists exactly the paths Boost would list:

- a duplicate key is an error (PyYAML keeps the last value);
- plain `yes`/`no`/`on`/`off` stay strings, `0o17` and `0x1F` are numbers, `1_000` is a number,
  dates become numbers (Symfony returns a timestamp without its PARSE_DATETIME flag);
- nesting deeper than `MAX_DEPTH` is an error of its own, whatever PyYAML's version does with it
  (6.0.4's C loader stops at its own depth; the pure-Python one would hit Python's recursion limit).

Written by hand because no Python library implements Symfony's scalar rules; the pure-Python
SafeLoader is used on purpose so that the answer never depends on whether libyaml is present.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode

from rulelens.rules.format.symfony_scalars import symfony_scalar

MAX_DEPTH = 64
_PLAIN = "tag:yaml.org,2002:str"


class StrictYamlError(yaml.MarkedYAMLError):
    """What Symfony refuses and PyYAML accepts (a duplicate key, runaway nesting)."""


class SymfonyLoader(yaml.SafeLoader):
    """SafeLoader with Symfony YAML 7's plain-scalar typing, duplicate keys and a depth cap."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise StrictYamlError(None, None, f"nested deeper than {MAX_DEPTH} levels",
                                      self.peek_event().start_mark)  # type: ignore[no-untyped-call]
            return super().compose_node(parent, index)  # type: ignore[no-any-return]
        finally:
            self._depth -= 1

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[object] = set()
        for key_node, _ in node.value:
            if isinstance(key_node, ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
                key = self.construct_object(key_node, deep=True)  # type: ignore[no-untyped-call]
                if key in seen:
                    raise StrictYamlError(None, None, f'duplicate key "{key}"', key_node.start_mark)
                seen.add(key)
        return super().construct_mapping(node, deep)  # type: ignore[no-any-return]

    def construct_plain_or_str(self, node: ScalarNode) -> object:
        value = self.construct_scalar(node)  # type: ignore[no-untyped-call]
        if node.style is None and node.tag == _PLAIN and isinstance(value, str):
            return symfony_scalar(value)
        return value


# Plain scalars all resolve to `str` here, and Symfony's rules type them at construction.
SymfonyLoader.yaml_implicit_resolvers = {
    key: [(tag, regex) for tag, regex in resolvers if tag == "tag:yaml.org,2002:merge"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
SymfonyLoader.add_constructor(_PLAIN, SymfonyLoader.construct_plain_or_str)


def load(text: str) -> Any:
    """Parse a frontmatter body as Boost would; raises yaml.YAMLError (or a subclass)."""
    return yaml.load(text, Loader=SymfonyLoader)
