"""`ignore_js.ignored`, the list-at-once reading `check` uses, against `ignores` path by path."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rulelens.glob_engines import ignore_js
from tests.agents.generate import PROJECT_PATHS, RULE_GLOBS, glob, path

# Paths `ignores` reads in its own way: a leading or trailing `/`, `//`, a lone name, none.
ODD_PATHS = ("/src/a.ts", "src/a/", "src//a.ts", "a", "", "/", "//", "src/.env", "..", "../src/a.ts")


def test_ignored_is_ignores_for_each_path() -> None:
    rng = random.Random(7)
    paths = [*PROJECT_PATHS, *ODD_PATHS, *(path(rng) for _ in range(300))]
    lists = [[g] for g in RULE_GLOBS] + [[glob(rng) for _ in range(rng.randint(1, 3))] for _ in range(300)]
    lists += [["src/**", "!src/generated/**"], ["!**/*.ts", "src"], ["#comment"], ["a\\"]]
    found_some = 0
    for patterns in lists:
        for ignore_case in (True, False):
            slow = [p for p in paths if ignore_js.ignores(patterns, p, ignore_case)]
            assert list(ignore_js.ignored(patterns, paths, ignore_case)) == slow, patterns
            found_some += bool(slow)
    assert found_some > 100


def test_ignored_is_lazy() -> None:
    """`matches_any` stops at the first hit: the paths after it are not read."""

    def paths() -> Iterator[str]:
        yield "src/a.ts"
        raise AssertionError("read past the first hit")

    assert next(ignore_js.ignored(["src"], paths())) == "src/a.ts"


def test_ignored_sorted_is_ignores_for_each_path() -> None:
    """The sorted list's reading, with folders that are paths too (`src/a/` and `src/a/b.ts`)."""
    rng = random.Random(11)
    paths = sorted({*PROJECT_PATHS, *ODD_PATHS, "src/a/", "src/a/b/", "src/a/b/c.ts", "src0/x.ts",
                    "src-/y.ts", *(path(rng) for _ in range(400))})
    lists = [[g] for g in RULE_GLOBS] + [[glob(rng) for _ in range(rng.randint(1, 3))] for _ in range(300)]
    lists += [["src/a"], ["src/a/"], ["a"], ["src/**", "!src/generated/**"], ["#comment"]]
    for patterns in lists:
        for ignore_case in (True, False):
            slow = {p for p in paths if ignore_js.ignores(patterns, p, ignore_case)}
            assert ignore_js.ignored_sorted(patterns, paths, ignore_case) == slow, patterns
