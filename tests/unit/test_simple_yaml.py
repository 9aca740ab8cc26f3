"""The simple frontmatters read without PyYAML (rules/format/simple_yaml.py): wherever the module
answers, strict_yaml's loader gives the same value, of the same types, and raises nothing."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelens.rules.format import reading, simple_yaml, strict_yaml


def typed(value: Any) -> Any:
    """The value with every scalar's type beside it (True == 1 and 1 == 1.0 in Python)."""
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [typed(v) for v in value])
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)


def loader(body: str) -> Any:
    return yaml.load(body, Loader=strict_yaml.SymfonyLoader)


def agrees(body: str) -> bool:
    """True when simple_yaml answers (and then agrees with the loader); False when it declines."""
    simple = simple_yaml.load(body)
    if simple is None:
        return False
    try:
        full = loader(body)
    except yaml.YAMLError as exc:
        raise AssertionError(f"simple_yaml read {body!r} as {simple!r}; the loader raised {exc}") from exc
    assert typed(simple) == typed(full), body
    return True


ACCEPTED = [
    "paths:\n  - 'app/**'\n  - \"src/*.ts\"",
    "paths:\n- app/**\n- src/*.ts\ndescription: Money is integer cents",
    "paths:\n    - app/Models/**\n\n    # the views\n    - 'resources/views/**'",
    "paths: 'app/**'",
    "paths: []",
    "paths:",
    "description: 'It''s a rule'\npaths:\n  - 'a b/**'",
    "alwaysApply: true\nglobs: 0x1F\nn: 1_000\nf: .5\nd: 2024-01-02\nempty: ~\nyes: yes",
    "name: café — ünïcode\npaths:\n  - \"docs/ünï/**\"",
    "paths:\n  - a:b\n  - a,b\n  - 'x # y'\n  - \"x: y\"",
    "# a comment\npaths:\n  - a\n# between\nother:\n  - b",
    "key:   spaced   \npaths:   \n  -   a   ",
]

DECLINED = [
    "paths:\n  - *.php",  # an alias: the loader raises
    "paths:\n  - \"a\\tb\"",  # an escape
    "paths: [a, b]",  # a flow sequence
    "paths: {a: b}",
    "paths:\n  - a # comment",
    "paths:\n  - a\n   - b",  # indentation differs
    "paths:\n  - a\n    b",  # a plain scalar over two lines
    "paths:\n\t- a",
    "paths:\n  - a\npaths:\n  - b",  # a duplicate key
    "true: a",
    "Null: a",
    "  paths:\n  - a",
    "paths:\n  -",
    "paths:\n  - - a",
    "paths:\n  - a: b",
    "paths:\n  - 'a' 'b'",
    "paths: !!str a",
    "paths: &x a",
    "paths:\n  - |\n    a",
    "paths: >\n  a",
    "key: a\n  - b",  # a continuation, not a list
    "- a",
    "a:\n  b: c",
    "paths:\n  - <<",
    "paths:\n  - a\u2028b",
    "paths:\n  - a\x85b",
    "paths:\n  - \ufeffa",
    "# only a comment",
    "---\npaths: a",
    "%YAML 1.1\n---\npaths: a",
]


@pytest.mark.parametrize("body", ACCEPTED)
def test_the_simple_shapes_are_read_as_the_loader_reads_them(body: str) -> None:
    assert agrees(body)


@pytest.mark.parametrize("body", DECLINED)
def test_anything_else_is_left_to_the_loader(body: str) -> None:
    assert simple_yaml.load(body) is None


KEYS = ["paths", "description", "alwaysApply", "globs", "a-b", "_x", "true", "k", "paths ",
        "Yes", "x" * 1100, "1", "a b", "'q'"]
VALUES = ["app/**", "'app/**'", '"app/**"', "*.php", "**/*.php", "'*.php'", "a:b", "a: b", "a:",
          "a #c", "a#c", "'it''s'", "'it's'", '"a\\"b"', '"a\\nb"', "\"a'b\"", "'a\"b'", "", " ",
          "~", "null", "NULL", "true", "False", "yes", "on", "0x1F", "0o17", "017", "1_000",
          "1.5", ".5", "-1", "+1", "1e3", ".inf", "-.inf", ".NaN", "2024-01-02",
          "2024-01-02 10:00:00", "[]", "[a]", "{}", "{a,b}/**", "src/{a,b}/*.ts", "-a", "?a",
          ":a", "@a", "`a`", "%a", "!a", "&a", "|", ">", "<<", "<a", "a  b", "a\u00a0", "\u00a0a",
          "café", "a\tb", "a\u2028b", "'a'  ", "\"a\"  ", "'a' # c", "=", "a,b", "a]", "a}",
          "- a", "--- a", "...", "a ---", '["a"]', "['a', \"b\"]", '["a",]', '[ "a" ]', '["a", b]',
          '["a" "b"]', "['it''s', 'x,y']", '["a\\"b"]', "[ ]", '["a"] # c', '["a"]x', "[[\"a\"]]"]
INDENTS = ["", " ", "  ", "   ", "    ", "\t"]
COMMON = ["app/**", "'app/**'", '"app/**"', "'*.php'", '["src/**", \'lib/**\']', "a:b", "'it''s'", "~", "true", "0x1F",
          "1_000", "2024-01-02", "src/{a,b}/*.ts", "a  b", "café", "'a'  ", "a,b"]


def value(rng: random.Random) -> str:
    """Mostly the shapes simple_yaml reads, so that many bodies are compared, not declined."""
    return rng.choice(COMMON if rng.random() < 0.7 else VALUES)


def body_from(rng: random.Random) -> str:
    """A few keys, each with a scalar or a block list; one body in two has odd lines too
    (items at another indentation, continuations, comments and blank lines)."""
    odd = rng.random() < 0.5
    lines: list[str] = []
    for _ in range(rng.randint(1, 4)):
        key = rng.choice(KEYS[:3] if rng.random() < 0.6 else KEYS)
        if rng.random() < 0.5:
            lines.append(f"{key}: {value(rng)}" if rng.random() < 0.9 else f"{key}:")
            continue
        lines.append(f"{key}:" + rng.choice(["", " ", "  # c"]))
        indent = rng.choice(INDENTS[:5])
        for _ in range(rng.randint(0, 4)):
            roll = rng.random() if odd else 1.0
            if roll < 0.1:
                lines.append(rng.choice(["", "  ", "# c", "  # c"]))
            elif roll < 0.2:
                lines.append(rng.choice(INDENTS) + "- " + value(rng))
            elif roll < 0.3:
                lines.append(indent + "  " + value(rng))
            else:
                lines.append(indent + "-" + rng.choice([" ", "  ", ""]) + value(rng))
    return "\n".join(lines)


def test_generated_frontmatters_agree_wherever_simple_yaml_answers() -> None:
    rng = random.Random(23)
    answered = 0
    for _ in range(4_000):
        answered += agrees(body_from(rng))
    assert answered > 400  # it answers often enough for the comparison to mean something


ALPHABET = "pa: -'\"#\\\n\t*{}[],&!|>%@`<~.01x_\u00a0\u2028é"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=40))
def test_arbitrary_text_is_read_as_the_loader_reads_it_or_declined(body: str) -> None:
    agrees(body)


def agrees_safe(body: str) -> bool:
    """The same for the agents' reading: typed as PyYAML's safe loader (YAML 1.1) types it."""
    simple = simple_yaml.load(body, simple_yaml.yaml11_plain)
    if simple is None:
        return False
    try:
        full = yaml.safe_load(body)
    except yaml.YAMLError as exc:
        raise AssertionError(f"simple_yaml read {body!r} as {simple!r}; PyYAML refuses it: {exc}") from exc
    assert typed(simple) == typed(full), body
    return True


YAML11 = ["on", "On", "ON", "oN", "off", "Off", "yes", "YES", "yEs", "no", "No", "y", "n", "Y", "N",
          "true", "TRUE", "tRue", "Null", "NULL", "nul", "=", "<<", "1:20", "0b101", "1_0", "+.5",
          ".Inf", "2001-12-14t21:59:43.10-05:00", "glob", "fileMatch", "always_on", "area-4",
          "pkg3/mod32/**", '"on"', "'no'"]


def body_yaml11(rng: random.Random) -> str:
    """Keys and values that YAML 1.1 types where Symfony's YAML does not (`on`, `no`, `y`)."""
    lines: list[str] = []
    for _ in range(rng.randint(1, 4)):
        key = rng.choice(["paths", "globs", "applyTo", "on", "Off", "y", "NO", "yes", "n", "Null"])
        if rng.random() < 0.5:
            lines.append(f"{key}: {rng.choice(YAML11 if rng.random() < 0.6 else VALUES)}")
            continue
        lines.append(f"{key}:")
        indent = rng.choice(INDENTS[:4])
        lines.extend(f"{indent}- {rng.choice(YAML11)}" for _ in range(rng.randint(0, 3)))
    return "\n".join(lines)


def test_generated_frontmatters_agree_with_pyyaml_wherever_simple_yaml_answers() -> None:
    rng = random.Random(11)
    answered = sum(agrees_safe(body_yaml11(rng)) for _ in range(3_000))
    answered += sum(agrees_safe(body_from(rng)) for _ in range(3_000))
    assert answered > 400  # it answers often enough for the comparison to mean something


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=ALPHABET + "onyNfUL", max_size=40))
def test_arbitrary_text_is_read_as_pyyaml_reads_it_or_declined(body: str) -> None:
    agrees_safe(body)


def test_a_rule_file_reads_the_same_with_or_without_the_simple_reading(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    text = "---\npaths:\n  - 'app/**'\n  - src/*.ts\n  - 7\n---\n\n# Billing\n\n## Cents\nInteger cents.\n"
    path = tmp_path / "billing.md"
    path.write_text(text)
    fast = reading.read_rule_file(path, ".ai/rules/billing.md", False)
    monkeypatch.setattr(simple_yaml, "load", lambda body: None)
    slow = reading.read_rule_file(path, ".ai/rules/billing.md", False)
    assert fast == slow
    assert fast.strict_paths == ["app/**", "src/*.ts"] and fast.problems == slow.problems
