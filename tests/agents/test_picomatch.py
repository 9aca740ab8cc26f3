"""The picomatch port (Cline with `{dot: true}`, Qwen Code with defaults) on picomatch's own
shapes, pinned here and checked against picomatch itself under node where it is installed."""

from __future__ import annotations

import re

import pytest

from rulelens.glob_engines import picomatch
from tests.agents.generate import cases
from tests.agents.test_differential import PER_SEED, SEEDS, _real, node  # noqa: F401 - `node` is a fixture

# (pattern, path, answer with `{dot: true}`, answer with default options)
SHAPES = [
    ("!src/generated/**", "lib/a.ts", True, True),  # a leading `!` is "not"
    ("!src/generated/**", "src/generated/a.ts", False, False),
    ("[!x].ts", "!.ts", True, True),  # `[!x]` is the set {`!`, `x`}
    ("[!x].ts", "a.ts", False, False),
    ("src/(a|b).ts", "src/b.ts", True, True),  # a bare group
    ("[ab]+.ts", "abba.ts", True, True),  # `+` after `]` or `}` repeats it
    ("{a,b}+.ts", "abba.ts", True, True),
    ("!(foo)*", "foobar", False, False),  # `!(…)` is a look-ahead, not bash's "anything but"
    ("a!(b)*", "abb", False, False),
    ("*.!(js)", "a.ts", True, True),
    ("@(a+|b)", "aaa", True, True),  # `+` inside a group is a quantifier
    ('"a*"/*', "a*/x", True, True),  # quotes make the text literal
    ('"a*"/*', "ab/x", False, False),
    ("a[/]b", "a/b", True, True),
    ("src/**", "src", True, True),  # a trailing `/**` matches the folder itself
    ("src*/**", "src", False, False),
    ("./src/*.ts", "src/a.ts", True, True),
    ("*.ts", ".h.ts", True, False),  # dotfiles only with `dot`
    ("**/*.ts", "a/.b/c.ts", True, False),
    ("src/*", "src/", False, False),
    ("src/*", "/src/a", False, False),
    ("a/**/b", "a//b", True, True),
    ("[[:alpha:]]*.md", "r.md", True, True),
    ("(?:a|b).md", "b.md", True, True),  # regular-expression syntax passes through
    ("a\\d.md", "a1.md", True, True),
    ("*.{ts,tsx}", "x.tsx", True, True),
    ("{1..3}.md", "2.md", True, True),
    ("+(a|aa)", "aaa", False, False),  # a repeated group that could backtrack badly is literal
    ("*", "a/b", False, False),
    ("a/*/b", "a/./b", False, False),  # a wildcard never matches `.` or `..`
    ("a))|(", "b", True, True),  # the regex is searched: `|()$` matches the end of anything
]


@pytest.mark.parametrize("dot", [True, False])
def test_the_port_answers_as_picomatch(dot: bool) -> None:
    got = [picomatch.is_match(p, s, dot) for p, s, *_ in SHAPES]
    assert got == [with_dot if dot else default for _, _, with_dot, default in SHAPES]


@pytest.mark.parametrize("dot", [True, False])
def test_the_pinned_answers_are_picomatchs(node: str, dot: bool) -> None:  # noqa: F811
    real = _real(node, "picomatch" if dot else "picomatch-default", [(p, s) for p, s, *_ in SHAPES])
    assert real == [with_dot if dot else default for _, _, with_dot, default in SHAPES]


def test_default_options_agree_on_random_globs(node: str) -> None:  # noqa: F811
    """Qwen Code's reading (no dotfiles) on the seeded globs that test Cline's."""
    pairs = [pair for seed in SEEDS for pair in cases(seed, PER_SEED)]
    real = _real(node, "picomatch-default", pairs)
    differ = [(g, p, r) for (g, p), r in zip(pairs, real, strict=True) if picomatch.is_match(g, p, False) != r]
    assert 0 < sum(real) < len(pairs)
    assert differ == [], f"{len(differ)} of {len(pairs)} differ, first: {differ[:5]}"


def test_a_pattern_picomatch_never_returns_on_matches_nothing() -> None:
    """A run of backslashes that skips past the end: picomatch's tokenizer loops forever."""
    assert not picomatch.is_match("[\\\\\\", "[\\", dot=True)


def test_javascript_regular_expressions_read_as_javascript_reads_them() -> None:
    def js(source: str, text: str) -> bool:
        compiled = picomatch.compile_js(source)
        return compiled is not None and compiled.match(text) is not None

    assert not js("^a$", "a\n")  # `$` is the end of the input
    assert not js("^a.b$", "a\rb")  # `.` excludes every line terminator
    assert js("^\\q\\k$", "qk")  # identity escapes
    assert js("^a\\sb$", "a\u3000b")  # Unicode white space
    assert not js("^[]$", "a") and js("^[^]$", "a")
    assert js("^a{,2}$", "a{,2}")
    assert js("^[3-\\w]$", "-")
    assert js("^\\1$", "\x01") and js("^(a)\\1$", "aa")  # octal without the group, else a back-reference
    assert js("^\\1(a)$", "a")  # a group not yet closed matches the empty string
    with pytest.raises(re.error):
        picomatch.to_python("a++")  # no possessive quantifiers in JavaScript
