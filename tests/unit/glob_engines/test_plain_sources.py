"""Shortcuts that must answer as what they stand for.

`plain_source` writes pathspec's "gitignore" regex for globs of literal text and stars, so that a
project whose globs all take that shape is checked without importing pathspec: the text must be
pathspec's own, character for character, and OpenHands' matching through it must answer as
pathspec's one-pattern spec does. simple_yaml tests ASCII text with its unsafe class's ASCII
part."""

from __future__ import annotations

import itertools
import random
import re

import pathspec
import pytest
from pathspec.util import lookup_pattern

from rulelens.glob_engines import dialects
from rulelens.glob_engines.boost import plain_source, regex_source
from rulelens.rules.format import simple_yaml

TO_REGEX = lookup_pattern("gitignore").pattern_to_regex
# Every character pathspec reads specially in these globs, beside plain ones (`.` and `-` are
# escaped by re.escape; `#`, `!` and spaces start or end pathspec's own cases).
ALPHABET = ("a", "*", "/", ".", "-", "#", "!", " ", "?", "[", "\\", "é")
PIECES = ("app", "Models", "*", "**", "*.php", "f1.py", "a b", "x+y", "./", "", "é", "{a}", "$")


def _pathspec(glob: str) -> str | None:
    try:
        source, _ = TO_REGEX(glob)
    except ValueError:
        return None
    return source if isinstance(source, str) else None


def test_every_short_glob_is_written_as_pathspec_writes_it() -> None:
    written = 0
    for size in range(1, 6):
        for chars in itertools.product(ALPHABET, repeat=size):
            glob = "".join(chars)
            mine = plain_source(glob)
            if mine is not None:
                written += 1
                assert mine == _pathspec(glob), glob
    assert written > 20_000  # the shape is common: a test that skips everything proves nothing


def test_longer_globs_agree_and_the_usual_shapes_are_written() -> None:
    rng = random.Random(23)
    for _ in range(20_000):
        glob = "/".join(rng.choice(PIECES) for _ in range(rng.randint(1, 6)))
        glob = rng.choice(("", "/", "**/")) + glob + rng.choice(("", "/", "/**", "/*"))
        mine = plain_source(glob)
        if mine is not None:
            assert mine == _pathspec(glob), glob
    for glob in ("app/Models/**", "src/**/*.php", "**/*.php", "docs/api.md", "app/*", "*", "**/",
                 "pkg4/{mod9}/x"):
        assert plain_source(glob) == _pathspec(glob) is not None


@pytest.mark.parametrize("glob", ["!app/**", "#app", "app/[ab].php", "app/?.php", "a\\*b", "app ", "/"])
def test_pathspecs_own_cases_are_left_to_it(glob: str) -> None:
    assert plain_source(glob) is None
    source = _pathspec(glob)  # and regex_source still gives pathspec's answer
    assert regex_source(glob) == (source if source is None or source.startswith("^")
                                  else f"^.*?(?:{source})")


def test_openhands_plain_answers_are_pathspecs() -> None:
    rng = random.Random(5)
    segments = ("app", "Models", "a.php", "x", ".hidden", "é")
    paths = ["/".join(rng.choice(segments) for _ in range(rng.randint(1, 4))) for _ in range(60)]
    paths += ["./app/a.php", "/app/a.php", "app/", "app"]
    checked = 0
    for _ in range(600):
        glob = "/".join(rng.choice(("app", "*", "**", "*.php", "Models", "x*", "a.php"))
                        for _ in range(rng.randint(1, 4)))
        glob = rng.choice(("", "/")) + glob + rng.choice(("", "/"))
        if plain_source(glob) is None:
            continue
        spec = pathspec.PathSpec.from_lines("gitignore", [glob], backend="simple")
        for path in paths:
            checked += 1
            assert dialects.gitignore_matches(glob, path) == spec.match_file(path), (glob, path)
    assert checked > 10_000


def test_the_ascii_test_of_unsafe_characters_is_the_whole_class_on_ascii() -> None:
    whole, ascii_part = re.compile(simple_yaml.UNSAFE), re.compile(simple_yaml.UNSAFE_ASCII)
    for code in range(128):
        assert bool(whole.search(chr(code))) == bool(ascii_part.search(chr(code))), code
