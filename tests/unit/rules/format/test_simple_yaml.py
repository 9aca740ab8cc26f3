"""The simple frontmatters read without PyYAML (rules/format/simple_yaml.py): wherever the module
answers, strict_yaml's loader gives the same value, of the same types, and raises nothing; and
wherever `load_safe` answers, so does PyYAML's `safe_load` (the other agents' strict reading)."""

from __future__ import annotations

import collections
import math
import random
from collections.abc import Callable
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


def agrees(body: str, simple_read: Callable[[str], object] = simple_yaml.load,
           full_read: Callable[[str], object] = loader) -> bool:
    """True when simple_yaml answers (and then agrees with the loader); False when it declines."""
    simple = simple_read(body)
    if simple is None:
        return False
    try:
        full = full_read(body)
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
    'description: "Use \\"infer\\" \\\\ to read"\npaths:\n  - "a\\\\b"',
    "description: C# coding standards\npaths:\n  - src/#/*.cs\n  - a#b#",
    # block scalars: folded and literal, clipped, stripped and kept
    "name: quote-journey-page\ndescription: >\n  Conventions and file structure. Read before\n  creating any page.",
    "description: >\n  one\n  two\n\n  three\n\n\nname: x",
    "description: >-\n    a: b # c\n    'q'\npaths:\n  - a",
    "body: |\n  line one\n    more indented\n\n  # not a comment\n  - not an item\n",
    "body: |-\n  a\n  b\n\n\n",
    "body: |+\n  a\n\n   \nnext: b",
    "body: >+\n a\n b\n\n",
    "body: |\n  a\n  \n    \nnext: b",
    "body: >   \n  café — ünï\n\n# a comment\nnext: ok",
    # one-level mappings of scalars (Boost's skills' `metadata`)
    "name: pest-testing\nlicense: MIT\nmetadata:\n  author: laravel\n",
    "metadata:\n    author: 'laravel'\n\n    # a comment\n    version: \"1.0\"\n    empty:\nnext: x",
    "metadata:\n author: a:b\n n: 0x1F\n d: 2024-01-02\n t: ~\n# c\npaths:\n  - a",
    "metadata:   \n  a: b\n # a comment less indented\n  c: d",
]

DECLINED = [
    "paths:\n  - *.php",  # an alias: the loader raises
    "paths:\n  - \"a\\tb\"",  # an escape
    "paths: [a, b]",  # a flow sequence
    "paths: {a: b}",
    "paths:\n  - a # comment",
    "description: C# coding # a comment",
    "paths:\n  - a#b #c",
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
    "paths: >\n  a\n    b",  # a more-indented line in a folded block
    "paths: |2\n    a",  # an indentation indicator
    "paths: | # c\n  a",
    "paths: |\n\n  a",  # a blank line before the first content line
    "paths: |\n",  # an empty block
    "paths: |\na",
    "paths: |-+\n  a",
    "paths: >\n  a\n   ",  # a line of spaces past the indentation, in a folded block
    "paths: |\n    a\n  b",  # a line less indented than the block, more than the key
    "key: a\n  - b",  # a continuation, not a list
    "- a",
    "a:\n  b:\n    c: d",  # nested two levels
    "a:\n  b: c\n   d: e",  # a key at another indentation
    "a:\n   b: c\n  d: e",
    "a:\n  b: c\n    d",  # a plain scalar over two lines
    "a:\n  b: c\n  - d",  # a list after a key
    "a:\n  b:\n  - d",  # a list as a value, at the mapping's indentation
    "a:\n  b: c\n  b: d",  # a duplicate key
    "a:\n  true: c",
    "a:\n  'b': c",
    "a:\n  b: [c]",
    "a:\n  b: |\n    c",
    "a:\n  b: c\n\tc: d",
    "a:\n  b: \"c\\td\"",  # an escape other than \" and \\
    "a:\n  - b\n  c: d",
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
          "- a", "--- a", "...", "a ---", '["a/**", \'b\']', '[ "a" ,"b" ]', '["a",]', "['a''b']",
          '["a", b]', '["a"] # c', "C#", "C# coding", "a#", "a ##", "a:#b", "a#:b", "a# b",
          "x#y #z", "a#b: c", "#", "'a'#", "0.3.2", "1.2.3-beta", "1.2.", "1..2", "..", "1.2.3:4",
          "2024-01-02 10:00:00.5.6", ".5.", "~.1.2", "1.0e+3.", "0x1.2.3", "1:2.3.4",
          '"a\\\\b"', '"a\\\\"', '"a\\"', '"\\""', '"a\\/b"', '"a\\\\\\"b"', '"\\\\\\\\"', '"a\\"b" c"']
INDENTS = ["", " ", "  ", "   ", "    ", "\t"]
HEADERS = ["|", ">", "|-", ">-", "|+", ">+", "| ", ">- ", "|2", ">1-", "|-2", "| # c", "|-+", "|\t",
           "> a", ">>"]
BLOCK_LINES = ["word", "two words", "a: b", "a #c", "# c", "- x", "'q'", '"q"', "{a}", "[a]", "|",
               ">", "café ünï", "a\u00a0b", "tab\there", "end  ", "---", "...", "*a", "&a", "!a"]


def block_from(rng: random.Random) -> list[str]:
    """A block scalar's lines after its header: content at one indentation, with blank lines,
    lines of spaces, more-indented lines and, in one block in four, a line less indented."""
    indent = rng.choice([" ", "  ", "  ", "    "])
    lines = []
    for _ in range(rng.randint(0, 5)):
        roll = rng.random()
        if roll < 0.2:
            lines.append(rng.choice(["", "", " ", "  ", "     "]))
        elif roll < 0.3:
            lines.append(indent + rng.choice(["  ", " ", "\t"]) + rng.choice(BLOCK_LINES))
        else:
            lines.append(indent + rng.choice(BLOCK_LINES))
    if rng.random() < 0.25:
        lines.insert(rng.randint(0, len(lines)), rng.choice(["", " ", "  "]) + rng.choice(BLOCK_LINES))
    return lines
COMMON = ["C# coding", '"a \\"b\\" \\\\c"', "app/**", "'app/**'", '"app/**"', "'*.php'", "a:b", "'it''s'", "~", "true", "0x1F",
          "1_000", "2024-01-02", "src/{a,b}/*.ts", "a  b", "café", "'a'  ", "a,b"]


def value(rng: random.Random) -> str:
    """Mostly the shapes simple_yaml reads, so that many bodies are compared, not declined."""
    return rng.choice(COMMON if rng.random() < 0.7 else VALUES)


def body_from(rng: random.Random) -> str:
    """A few keys, each with a scalar, a block scalar or a block list; one body in two has odd
    lines too (items at another indentation, continuations, comments and blank lines); the
    source ends with or without line breaks."""
    odd = rng.random() < 0.5
    lines: list[str] = []
    for _ in range(rng.randint(1, 4)):
        key = rng.choice(KEYS[:3] if rng.random() < 0.6 else KEYS)
        if rng.random() < 0.5:
            lines.append(f"{key}: {value(rng)}" if rng.random() < 0.9 else f"{key}:")
            continue
        if rng.random() < 0.3:
            header = rng.choice(HEADERS[:6] if rng.random() < 0.7 else HEADERS)
            lines += [f"{key}: {header}", *block_from(rng)]
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
    return "\n".join(lines) + rng.choice(["", "", "\n", "\n\n", "\n  "])


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


def agrees_safe(body: str) -> bool:
    """As `agrees`, for `load_safe` against `yaml.safe_load`."""
    return agrees(body, simple_yaml.load_safe, yaml.safe_load)


SAFE_ACCEPTED = [
    'applyTo: "src/**/*.ts"',
    "globs: app/**\nalwaysApply: false",
    "description: Money is integer cents\nglobs:\n  - 'app/**'\n  - src/{a,b}/*.ts",
    "alwaysApply: yes\nenabled: On\nskip: NO\nnothing: null\nempty:",
    "name: café\npath: /abs/**\nunder: _x\nslash: \\x",
    "paths: []\nother: 'it''s'",
    "inclusion: fileMatch\nfileMatchPattern: [\"pkg0/mod18/**\", 'a''b, ]']",
    "name: sync-swagger\ndescription: >\n  Audit and fix the annotations: in\n  every file.\n\n  Twice.\n",
    "description: |-\n  first\n\n    indented\nglobs:\n  - 'app/**'\nalwaysApply: false",
    "description: >+\n  kept\n\n",
    "name: pest-testing\ndescription: \"Tests with Pest\"\nlicense: MIT\nmetadata:\n  author: laravel",
    "metadata:\n  enabled: yes\n  name: 'x'\n  none:\nglobs: a",
    "name: tool\nversion: 0.3.2\nmetadata:\n  version: 1.2.3-beta",
]

SAFE_DECLINED = [
    "globs: 1", "globs: 0x1F", "globs: .5", "globs: -1", "globs: +1", "globs: ~", "globs: =",
    "globs: 2024-01-02", "globs: 1:20", "globs:\n  - 7", "on: push", "Yes: a", "NULL: a",
    "globs: a # c", "globs: [a, b]", "globs: *.php", 'globs: ["a",]', 'globs: ["a"] # c',
    'globs: ["a\\tb"]', "globs: [\"a\", [\"b\"]]", "metadata:\n  version: 1.0",
    "metadata:\n  on: a", "metadata:\n  a: b\n  a: c", "metadata:\n  a: ['b', c]",
]


@pytest.mark.parametrize("body", SAFE_ACCEPTED)
def test_the_simple_shapes_are_read_as_safe_load_reads_them(body: str) -> None:
    assert agrees_safe(body)


@pytest.mark.parametrize("body", SAFE_DECLINED)
def test_numbers_dates_and_the_rest_are_left_to_safe_load(body: str) -> None:
    assert simple_yaml.load_safe(body) is None


def test_generated_frontmatters_agree_with_safe_load_wherever_load_safe_answers() -> None:
    rng = random.Random(24)
    answered = 0
    for _ in range(4_000):
        answered += agrees_safe(body_from(rng))
    assert answered > 400


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=ALPHABET + "yYnNoOtTfF~=+", max_size=40))
def test_arbitrary_text_is_read_as_safe_load_reads_it_or_declined(body: str) -> None:
    agrees_safe(body)


def test_an_agent_file_reads_the_same_with_or_without_the_simple_reading(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from rulelens.agents.reading import parse_agent_text

    text = "---\nglobs:\n  - app/**\n  - 'src/*.ts'\nalwaysApply: on\nn: 7\n---\n\n# Money\n"
    fast = parse_agent_text(text, ".cursor/rules/money.mdc", "cursor")
    monkeypatch.setattr(simple_yaml, "load_safe", lambda body: None)
    slow = parse_agent_text(text, ".cursor/rules/money.mdc", "cursor")
    assert fast == slow and fast.data == {"globs": ["app/**", "src/*.ts"], "alwaysApply": True, "n": 7}
    simple = "---\nglobs: app/**\nalwaysApply: false\n---\n# M\n"
    assert parse_agent_text(simple, "a.mdc", "cursor").data == {"globs": "app/**", "alwaysApply": False}


def test_every_first_character_safe_load_types_by_is_declined_or_a_known_word() -> None:
    """load_safe types plain scalars from what SafeLoader's resolvers were when it was written;
    a resolver added for another first character would have to be handled there."""
    words = {word[0] for word in simple_yaml._SAFE_WORDS}
    for first in yaml.SafeLoader.yaml_implicit_resolvers:
        if first:
            assert first in simple_yaml._SAFE_TYPED_FIRST | simple_yaml._INDICATORS | words, first


def block_body_from(rng: random.Random) -> str:
    """Mostly block scalars of the shapes simple_yaml reads, between plain keys, so that each
    header, blank lines inside and after, and each ending of the source are compared often."""
    lines: list[str] = []
    for n in range(rng.randint(1, 3)):
        if rng.random() < 0.3:
            lines.append(f"k{n}: {rng.choice(COMMON)}")
            continue
        lines.append(f"b{n}: " + rng.choice(HEADERS[:6] if rng.random() < 0.9 else HEADERS))
        lines += block_from(rng) if rng.random() < 0.3 else [rng.choice(["  ", "    "]) + "first"]
        lines += [rng.choice(["", "", "  ", " "]) if rng.random() < 0.3 else "  " + rng.choice(BLOCK_LINES[:8])
                  for _ in range(rng.randint(0, 4))]
        if rng.random() < 0.2:
            lines.append(rng.choice(["# c", "  # c"]))
    return "\n".join(lines) + rng.choice(["", "\n", "\n\n", "\n  ", "\n\n   "])


@pytest.mark.parametrize("read", [agrees, agrees_safe])
def test_generated_block_scalars_agree_wherever_simple_yaml_answers(read: Callable[[str], bool]) -> None:
    rng = random.Random(25)
    answered = collections.Counter()
    for _ in range(6_000):
        body = block_body_from(rng)
        if read(body):
            answered.update(h for h in HEADERS[:6] if f": {h}\n" in body)
    assert min(answered.values()) > 200 and len(answered) == 6, answered


SUBKEYS = ["author", "version", "a-b", "_x", "author", "true", "Yes", "null", "on", "'q'", '"q"',
           "a b", "1", "x" * 1100, "author ", "- a"]


def sub_value(rng: random.Random) -> str:
    """Mostly strings both loaders read as strings, so that many mappings are compared."""
    return rng.choice(["laravel", "'1.0'", '"a b"', "a:b", "café"]) if rng.random() < 0.6 else value(rng)


def mapping_body_from(rng: random.Random) -> str:
    """Top-level keys with scalars, and one or two `key:` lines each followed by a mapping of
    scalars, mostly at one indentation; one body in two has odd lines too (another indentation,
    a deeper key, a list item, a block scalar, a key with nothing after it, a continuation,
    comments, blank lines, a tab, a duplicate key, a top-level item)."""
    odd = rng.random() < 0.5
    lines: list[str] = []
    for n in range(rng.randint(1, 4)):
        if rng.random() < 0.4:
            lines.append(f"k{n}: {value(rng)}")
            continue
        lines.append(f"m{n}:" + rng.choice(["", "", " ", "  # c"]))
        indent = rng.choice([" ", "  ", "  ", "    "])
        for j in range(rng.randint(0, 4)):
            key = rng.choice(SUBKEYS) if rng.random() < 0.2 else f"s{j}"
            roll = rng.random() if odd else 1.0
            if roll < 0.05:
                lines.append(rng.choice(["", "  ", "# c", " # c", indent + "# c", "\t# c"]))
            elif roll < 0.1:
                lines.append(rng.choice(["", " ", "   ", indent + " ", indent[1:]]) + f"{key}: {value(rng)}")
            elif roll < 0.15:
                lines.append(indent + rng.choice(["- a", "  deeper: b", "  - a", "  more", "\tc: d"]))
            elif roll < 0.2:
                lines.append(rng.choice(["- a", "...", "---", "k: v", "m0: v", "  ", "\t"]))
            elif roll < 0.25:
                lines += [f"{indent}{key}: " + rng.choice(HEADERS[:6]), indent + "  text"]
            elif roll < 0.3:
                lines.append(f"{indent}{key}:" + rng.choice(["", " ", "  # c"]))
            else:
                lines.append(f"{indent}{key}: {sub_value(rng)}" if rng.random() < 0.9 else f"{indent}{key}:")
    return "\n".join(lines) + rng.choice(["", "", "\n", "\n\n", "\n  ", "\n# c"])


@pytest.mark.parametrize("read", [agrees, agrees_safe])
def test_generated_mappings_agree_wherever_simple_yaml_answers(read: Callable[[str], bool]) -> None:
    rng = random.Random(26)
    answered = collections.Counter()
    for _ in range(6_000):
        body = mapping_body_from(rng)
        if read(body) and ":\n " in body:
            lines = body.split("\n")
            answered.update(["a mapping"] * 1 + ["two"] * (body.count(":\n ") > 1)
                            + ["a null"] * any(line[:1] == " " and line.endswith(":") for line in lines)
                            + ["a comment"] * ("# c" in body)
                            + ["at the end"] * (body.rstrip("\n").split("\n")[-1][:1] == " "))
    assert min(answered.values()) > 60 and len(answered) == 5, answered


@settings(max_examples=2_000, deadline=None)
@given(st.text(alphabet="0123456789._:-+eExXbo~=<TZ ", min_size=2, max_size=24))
def test_no_implicit_resolver_types_a_plain_scalar_with_two_dots(text: str) -> None:
    """load_safe reads `0.3.2` as a string because no resolver's pattern allows two dots."""
    if text.count(".") >= 2 and text.strip() == text:
        resolved = yaml.SafeLoader.resolve(yaml.SafeLoader, yaml.ScalarNode, text, (True, False))  # type: ignore[arg-type]
        assert resolved == "tag:yaml.org,2002:str", text


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab: \n#-'\"\\|>[]~1.y", max_size=40))
def test_arbitrary_text_under_a_key_is_read_as_both_loaders_read_it_or_declined(text: str) -> None:
    body = "m:\n " + text
    agrees(body)
    agrees_safe(body)
