"""Parsed frontmatters kept between runs (rules/format/yaml_cache.py): only what JSON holds
exactly is kept, and a value that would expand when written out is not."""

from __future__ import annotations

from pathlib import Path

from rulelens.rules.format.yaml_cache import FrontmatterCache


def test_aliases_and_huge_values_are_parsed_again_not_kept(tmp_path: Path) -> None:
    """A value that shares a list between places (YAML aliases: a "billion laughs" file) would
    expand when written out; it is not kept, and deciding so stops at the first repeat."""
    shared = ["lol"] * 9
    for _ in range(5):  # 9 ** 6 leaves if expanded (the hostile test's file has 9 ** 9)
        shared = [shared] * 9
    bomb = {"paths": ["bomb/**"], "a5": shared}
    cache = FrontmatterCache(tmp_path)
    assert cache.parse("strict", "bomb", lambda _: bomb) is bomb
    assert cache.parse("strict", "wide", lambda _: {"paths": ["x"] * 20_000})["paths"][0] == "x"
    assert cache.parse("strict", "tree", lambda _: {"paths": ["a/**", "b/**"]}) == {"paths": ["a/**", "b/**"]}
    assert list(cache._used.values()) == [{"paths": ["a/**", "b/**"]}]
