"""Qwen Code as its released code reads rules (agents/formats/qwen_code.py)."""

from __future__ import annotations

from rulelens.agents.formats.qwen_code import rule_body, rule_paths, simple_frontmatter


def test_paths_are_never_split_and_list_items_become_strings() -> None:
    assert rule_paths({"paths": "src/**, docs/**"}) == ["src/**, docs/**"]
    assert rule_paths({"paths": ["src/**", 7, None, ""]}) == ["src/**", "7"]
    assert rule_paths({"paths": []}) is None and rule_paths({"paths": ""}) is None
    assert rule_paths({"paths": 42}) is None and rule_paths({}) is None


def test_the_line_parser_reads_what_yaml_refuses() -> None:
    assert simple_frontmatter("paths:\n  - **/*.ts") == {"paths": ["**/*.ts"]}
    assert simple_frontmatter("paths: **/*.ts") == {"paths": "**/*.ts"}
    assert simple_frontmatter("paths:\n    - src/**") == {}  # four spaces: no item
    assert simple_frontmatter("description: x\npaths: [src/**") == {"description": "x", "paths": "[src/**"}


def test_a_body_of_html_comments_is_empty() -> None:
    assert rule_body("<!-- a --><!-- b -->\n") == ""
    assert rule_body("<!-- a -->Use cents.") == "Use cents."
