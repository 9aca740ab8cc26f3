"""The globs expanded without bracex (glob_engines/boost.py `_one_list`, and `expand`'s one-glob
path): wherever they answer, bracex and the general path give the same globs in the same order."""

from __future__ import annotations

import random

import bracex
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelens.glob_engines import boost as globs

PIECES = ["app", "src", "*", "**", "/", "{", "}", ",", ".", "..", "\\", "$", "[", "]", "!", "a b",
          "~", "@", "-", "1", "x.php", "{a,b}", "{1..3}", ""]


def agrees(part: str) -> bool:
    simple = globs._one_list(part)
    if simple is None:
        return False
    assert simple == tuple(bracex.expand(part, limit=globs.MAX_EXPANSIONS)), part
    return True


@pytest.mark.parametrize("part", ["app/{Models,Http}/**", "{a,b}", "src/*.{ts,tsx,vue}",
                                  "x/{a b,c}", "[{a,b}]", "{!a,b}", "{a,b}**", "a/{b,c}/{d"[:-3]])
def test_one_brace_list_is_expanded_as_bracex_expands_it(part: str) -> None:
    assert agrees(part)


@pytest.mark.parametrize("part", ["a{b}", "{a,b}{c,d}", "a{b,{c,d}}", "a{,b}", "a{b,}", "${a,b}",
                                  "a{b\\,c}", "{1..3,a}", "{a..c}", "{a,b", "a,b}", "}{", "a{b,c}}"])
def test_anything_else_is_left_to_bracex(part: str) -> None:
    assert globs._one_list(part) is None


def test_generated_globs_agree() -> None:
    rng = random.Random(23)
    answered = 0
    for _ in range(20_000):
        part = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 8)))
        answered += agrees(part)
    assert answered > 1_000


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab{},.\\$[]!*/ ", max_size=16))
def test_arbitrary_text_agrees(part: str) -> None:
    agrees(part)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab,.!/* \t\u00a0", max_size=16))
def test_one_glob_as_written_is_what_the_general_path_gives(item: str) -> None:
    # Without braces (an item with one never takes the short path), a trailing comma sends the
    # item through the general path and changes nothing else.
    assert globs.expand(item) == globs.expand(item + ",")
