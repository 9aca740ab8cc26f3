"""Both readings of every rule-file shape seen in real repositories (SPEC §1), on own fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelens.rules.format.reading import MAX_BYTES, read_rule_file
from rulelens.rules.model import RuleFile


def read(text: str | bytes, name: str = "x.md", boost: bool = False) -> RuleFile:
    raw = text if isinstance(text, bytes) else text.encode("utf-8")
    return read_rule_file(Path(name), f".ai/rules/{name}", boost, raw=raw)


def codes(rule: RuleFile) -> list[str]:
    return [p.code for p in rule.problems]


@pytest.mark.parametrize(
    ("text", "paths"),
    [
        ("---\npaths:\n  - 'app/**'\n  - routes/web.php\n---\n# H\n", ["app/**", "routes/web.php"]),
        ('---\npaths:\n  - "**/*.ts"\n---\n', ["**/*.ts"]),
        ("---\npaths: ['a/**', \"b/*.php\"]\n---\n", ["a/**", "b/*.php"]),
        ("---\npaths: 'app/Models/**'\n---\n", ["app/Models/**"]),
        ("---\npaths:\n- a/**\n- b/**\n---\n", ["a/**", "b/**"]),
        ("---\napplyTo: '**/*.cs'\npaths:\n  - '**/*.cs'\nprofile: application\n---\n", ["**/*.cs"]),
        ("---\ndescription: x\n---\n# No paths\n", []),
        ("# Only a heading\n\n## Entry\nnote\n", []),
        ("---\nglob: 'resources/js/**'\ntitle: 'T'\n---\nbody\n", []),
        ("---\npaths:\n  - 'a/**'\n  - 3\n  - null\n---\n", ["a/**"]),
        ("---\r\npaths:\r\n  - 'a/**'\r\n---\r\n\r\n# H\r\n", ["a/**"]),
        ("\n\n---\npaths:\n  - 'a/**'\n---", ["a/**"]),
        ("---   \npaths:\n  - a/** # trailing comment\n---\n", ["a/**"]),
    ],
)
def test_strict_and_lenient_agree_on_valid_yaml(text: str, paths: list[str]) -> None:
    rule = read(text)
    assert rule.strict_ok
    assert rule.strict_paths == paths
    assert rule.lenient_paths == paths
    assert [i.text for i in rule.glob_items] == [p for p in paths]


def test_unquoted_star_is_invalid_yaml_but_lenient_recovers() -> None:
    rule = read("---\npaths:\n  - **/*.php\n  - 'app/**'\n---\n\n# Php\n\n## Rule\nnote\n")
    assert not rule.strict_ok
    assert rule.strict_paths == []
    assert rule.lenient_paths == ["**/*.php", "app/**"]
    [problem] = [p for p in rule.problems if p.code == "frontmatter-invalid"]
    assert problem.severity == "error"
    assert problem.line == 2
    assert "agents" in problem.message and "'**/*.php'" in problem.message
    assert (problem.col, problem.end_col) == (4, 12)


def test_unclosed_frontmatter_is_an_error_and_no_paths() -> None:
    rule = read("---\npaths:\n  - 'a/**'\n# H\n")
    assert codes(rule) == ["frontmatter-invalid"]
    assert rule.strict_paths == [] and rule.lenient_paths == []


def test_paths_of_the_wrong_type() -> None:
    rule = read("---\npaths: 3\n---\n")
    assert "paths-invalid" in codes(rule)
    assert rule.strict_paths == []


def test_a_paths_mapping_gives_its_string_values_as_boost_does() -> None:
    rule = read("---\npaths:\n  web: routes/web.php\n  api: routes/api.php\n  n: 3\n---\n# M\n")
    assert rule.strict_paths == ["routes/web.php", "routes/api.php"]


def test_a_bom_hides_the_frontmatter_from_the_strict_reading_only() -> None:
    rule = read("\ufeff---\npaths:\n  - 'a/**'\n---\n# H\n")
    assert rule.strict_paths == [] and not rule.strict_ok
    assert rule.lenient_paths == ["a/**"]
    assert "frontmatter-bom" in codes(rule)


def test_a_duplicate_paths_key_is_invalid_yaml_as_in_symfony() -> None:
    rule = read("---\npaths:\n  - a/**\npaths:\n  - b/**\n---\n# Dup\n")
    assert rule.strict_paths == [] and not rule.strict_ok
    problem = next(p for p in rule.problems if p.code == "frontmatter-invalid")
    assert "duplicate key" in problem.message and problem.line == 3


@pytest.mark.parametrize(("scalar", "kept"), [
    ("0o17", False), ("0x1F", False), ("123", False), ("1_000", False), ("-5", False), ("1.5e3", False),
    (".inf", False), ("2024-01-01", False), ("null", False), ("TRUE", False), ("~", False),
    ("yes", True), ("off", True), ("y", True), ("0b101", True), ("1:20", True), ("=", True),
    ("app/**", True), ("0o8", True), ("12abc", True),
])
def test_plain_scalars_are_typed_as_symfony_yaml_7_types_them(scalar: str, kept: bool) -> None:
    rule = read(f"---\npaths:\n  - {scalar}\n  - 'x/**'\n---\n")
    assert rule.strict_ok
    assert rule.strict_paths == ([scalar, "x/**"] if kept else ["x/**"])


@pytest.mark.parametrize("text", [
    "---\npaths: " + "[" * 20_000 + "]" * 20_000 + "\n---\n",
    "---\npaths:\n" + "".join("  " * i + "- x:\n" for i in range(1, 400)) + "---\n",
    "---\npaths: [unclosed\n---\n",
    "---\npaths:\n  - *alias\n---\n",
    "---\npaths:\n  - !custom x\n---\n",
])
def test_every_loader_error_is_one_finding(text: str) -> None:
    rule = read(text)
    assert not rule.strict_ok and rule.strict_paths == []
    assert [p.code for p in rule.problems] == ["frontmatter-invalid"]


def test_frontmatter_that_is_not_a_mapping() -> None:
    assert "frontmatter-invalid" in codes(read("---\n- a\n- b\n---\n"))


def test_heading_and_entries_with_lines() -> None:
    rule = read("---\npaths:\n  - 'a/**'\n---\n\n# Heading\n\nintro\n\n## First\nline one\n\n### sub\nmore\n\n## Second\nx\n")
    assert (rule.heading, rule.heading_line) == ("Heading", 5)
    assert [(e.title, e.line, e.end_line) for e in rule.entries] == [("First", 9, 15), ("Second", 15, 17)]
    assert rule.entries[0].note == "line one\n\n### sub\nmore"


def test_boost_file_without_heading() -> None:
    rule = read("---\npaths:\n  - 'routes/*.php'\n---\n\n## Routes\nName them.", "routes.md", boost=True)
    assert rule.is_boost and rule.heading is None
    assert [e.title for e in rule.entries] == ["Routes"]
    assert rule.entries[0].note == "Name them."


def test_crlf_and_bom_entries() -> None:
    rule = read("\ufeff# H\r\n\r\n## A\r\nnote a\r\n## B\r\nnote b")
    assert [(e.title, e.note) for e in rule.entries] == [("A", "note a"), ("B", "note b")]


def test_multibyte_text_keeps_code_point_columns() -> None:
    rule = read("---\npaths:\n  - 'app/Ünïcode/**'\n---\n## Größe\nÜber\n")
    [item] = rule.glob_items
    assert item.text == "app/Ünïcode/**"
    assert (item.line, item.start_col, item.end_col) == (2, 4, 20)
    assert rule.entries[0].title == "Größe"


def test_invalid_utf8_is_flagged_not_fatal() -> None:
    rule = read(b"---\npaths:\n  - 'a/**'\n---\n## T\n\xff\xfe broken\n")
    assert "encoding-invalid" in codes(rule)
    assert rule.strict_paths == ["a/**"]


def test_binary_file_named_md() -> None:
    rule = read(b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR" * 10)
    assert codes(rule) == ["file-binary"]
    assert rule.entries == []


def test_yaml_bomb_of_nested_aliases_is_harmless() -> None:
    bomb = "---\na: &a ['x','x','x','x','x','x','x','x','x']\n"
    for i in range(1, 12):
        bomb += f"a{i}: &a{i} [*{'a' if i == 1 else f'a{i-1}'}, *{'a' if i == 1 else f'a{i-1}'}]\n"
    bomb += "paths: *a11\n---\n"
    rule = read(bomb)
    assert rule.strict_paths == []
    assert "paths-invalid" in codes(rule)


def test_deeply_nested_yaml_is_a_diagnostic() -> None:
    rule = read("---\npaths: " + "[" * 5000 + "]" * 5000 + "\n---\n")
    assert rule.strict_paths == []
    assert codes(rule)


def test_oversized_file_is_capped_and_flagged() -> None:
    rule = read("---\npaths:\n  - 'a/**'\n---\n## T\n" + "x" * (MAX_BYTES + 10))
    assert "file-too-large" in codes(rule)
    assert rule.strict_paths == ["a/**"]


def test_lines_are_numbered_as_editors_number_them() -> None:
    # U+2028 and form feeds are not line breaks for editors or agents; str.splitlines says they are.
    rule = read("# H\nintro \u2028 still intro \x0c too\n## A\nnote\u2028same line\n## B\nb\n")
    assert [(e.title, e.line) for e in rule.entries] == [("A", 2), ("B", 4)]
    assert rule.entries[0].note == "note\u2028same line"
