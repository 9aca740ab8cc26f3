"""The plain-glob answers (plain_globs.py) against each dialect's own matcher, over generated
globs and paths: where the reading answers, it answers as the matcher does."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from rulelens.glob_engines import dialects, minimatch, picomatch
from rulelens.glob_engines.plain_globs import Shape, plain_matches, plain_tester, shape

SEGMENTS = ("a", "ab", "b", "A", "a.ts", "A.TS", ".h", ".env", "x-y_z", "a.", "1")
PATH_NAMES = (*SEGMENTS, "", ".", "..", "B", "aB", "é", "a b", "a\\b", "ab.ts", "*")


def globs(rng: random.Random, n: int) -> list[str]:
    out = []
    for _ in range(n):
        body = [rng.choice(SEGMENTS) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.5:
            body.insert(0, "**")
        if rng.random() < 0.5:
            body.append("**")
        if rng.random() < 0.4:  # a last `*ending` segment
            if rng.random() < 0.3:
                body = body[:1] if body[0] == "**" else []
            body.append("*" + rng.choice(("", ".ts", "ts", ".h", "a", "-1", "A.TS")))
        out.append("/".join(body))
    return out


def paths(rng: random.Random, wanted: str, n: int) -> list[str]:
    """Paths near `wanted` (its segments with others around them, some changed) and random ones."""
    out = []
    core = [s if not s.startswith("*") else rng.choice(("x", "")) + s[1:] for s in wanted.split("/") if s != "**"]
    for _ in range(n):
        if rng.random() < 0.6:
            names = [rng.choice(PATH_NAMES) for _ in range(rng.randint(0, 2))] + list(core)
            names += [rng.choice(PATH_NAMES) for _ in range(rng.randint(0, 2))]
            if rng.random() < 0.3:
                i = rng.randrange(len(names))
                names[i] = rng.choice(PATH_NAMES)
        else:
            names = [rng.choice(PATH_NAMES) for _ in range(rng.randint(1, 4))]
        text = "/".join(names)
        roll = rng.random()
        text = "/" + text if roll < 0.1 else text + "/" if roll < 0.15 else text
        out.append(text)
    return out


def _minimatch(pattern: str, path: str) -> bool:
    # its reading of the pattern, then wcmatch's match (the `plain` fixture turns the plain
    # reading off inside `dialects.matches`)
    return minimatch.minimatch_matches(pattern, path)


def _wcmatch_entry(glob: str, path: str) -> bool:
    """`matches` before the plain reading: its literal-end test, then wcmatch."""
    end = dialects.literal_end(glob, dialects.UNDOCUMENTED)
    return path.endswith(end) and dialects.wcmatch_matches(glob, path, dialects.UNDOCUMENTED)


def _vscode_plain(found: Shape, path: str) -> bool | None:
    if "\\" in path:
        return None
    rest = path[1:] if found.leading and path.startswith("/") else path
    return plain_matches(found, rest, dot=True, folder_itself=True, ignore_case=True)


DIALECTS: dict[str, tuple[Callable[[Shape, str], bool | None], Callable[[str, str], bool]]] = {
    "undocumented": (lambda s, p: plain_matches(s, p, dot=True, folder_itself=False),
                     lambda g, p: dialects.wcmatch_matches(g, p, dialects.UNDOCUMENTED)),
    "wcmatch-minimatch": (lambda s, p: plain_matches(s, p, dot=False, folder_itself=False),
                          lambda g, p: dialects.wcmatch_matches(g, p, dialects.MINIMATCH)),
    "minimatch": (lambda s, p: plain_matches(s, p, dot=False, folder_itself=False), _minimatch),
    "picomatch-dot": (lambda s, p: plain_matches(s, p, dot=True, folder_itself=True),
                      lambda g, p: picomatch.is_match(g, p, dot=True)),
    "picomatch": (lambda s, p: plain_matches(s, p, dot=False, folder_itself=True),
                  lambda g, p: picomatch.is_match(g, p, dot=False)),
    "vscode": (_vscode_plain, dialects.vscode_full_matches),
}


@pytest.fixture
def no_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    """`dialects.matches` without its plain reading, as minimatch.py's reading calls it."""
    monkeypatch.setattr(dialects, "PLAIN_FLAGS", ())


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_plain_answers_agree_with_the_matcher(dialect: str, no_plain: None) -> None:
    plain, full = DIALECTS[dialect]
    rng = random.Random(dialect)
    answered = matched = 0
    for glob in globs(rng, 400):
        found = shape(glob)
        assert found is not None, glob
        for path in paths(rng, glob, 40):
            answer = plain(found, path)
            if answer is None:
                continue
            answered += 1
            matched += answer
            assert answer == full(glob, path), (glob, path)
    assert answered > 8000 and 1000 < matched < answered - 1000  # both answers well tested


@pytest.mark.parametrize("glob", ["src/*.ts*", "*.m?", "src/**/*.{ts,js}", "{a,b}/**", "**/*/a",
                                  "*a*", "**/**/*.ts", "a/**/**", "a/*/b", "a/[b]", "!a/**",
                                  "#a", "a//b", "a/./b", "a/../b", "/a/**", "a/", "**", "**/**",
                                  "a/**/b", "a b/**", "é/**", " a/**", "a\\b", "+(a)/**", "a/**/"])
def test_other_globs_go_to_the_matcher(glob: str) -> None:
    assert shape(glob) is None


def test_each_entry_point_answers_as_its_matcher(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dialects' public functions, which take the plain reading first, against the full
    matchers on the same cases."""
    plain_flags = dialects.PLAIN_FLAGS
    rng = random.Random(7)
    entry: dict[str, tuple[Callable[[str, str], bool], Callable[[str, str], bool]]] = {
        "undocumented": (lambda g, p: dialects.matches(g, p, dialects.UNDOCUMENTED), _wcmatch_entry),
        "minimatch": (dialects.minimatch_matches, lambda g, p: minimatch.minimatch_matches(g, p)),
        "picomatch-dot": (dialects.picomatch_matches, DIALECTS["picomatch-dot"][1]),
        "picomatch": (dialects.picomatch_default_matches, DIALECTS["picomatch"][1]),
        "vscode": (dialects.vscode_matches, dialects.vscode_full_matches),
    }
    for name, (ours, full) in entry.items():
        for glob in globs(rng, 100):
            for path in paths(rng, glob, 20):
                answer = ours(glob, path)
                monkeypatch.setattr(dialects, "PLAIN_FLAGS", ())
                assert answer == full(glob, path), (name, glob, path)
                monkeypatch.setattr(dialects, "PLAIN_FLAGS", plain_flags)


@pytest.mark.parametrize("prefix", ["", "/home/a/project/", "/A/B/"])
def test_vscode_matching_is_vscode_matches_for_each_path(prefix: str) -> None:
    """The bulk reading Copilot's coverage uses answers each path as `vscode_matches` does: plain
    shapes with and without `**/`, from the root and below an absolute folder, odd paths too."""
    rng = random.Random(7)
    for glob in [*globs(rng, 300), "**/a/**/*.ts", "**/a/*.ts", "**/*.TS", "a/**"]:
        listed = paths(rng, glob, 40)
        slow = [p for p in listed if dialects.vscode_matches(glob, prefix + p)]
        assert list(dialects.vscode_matching(glob, prefix, listed)) == slow, glob


@pytest.mark.parametrize("flags", [dialects.UNDOCUMENTED, dialects.MINIMATCH, dialects.MINIMATCH & ~dialects.BRACE,
                                   dialects.GLOBSET, dialects.MINIMATCH | dialects.IGNORECASE])
def test_matching_is_matches_for_each_path(flags: int) -> None:
    """The bulk reading the glob agents' coverage uses answers each path as `matches` does."""
    rng = random.Random(9)
    for glob in [*globs(rng, 200), "src/{a,b}/*.ts", "**/[ab].ts", "!a/**", ""]:
        listed = paths(rng, glob or "a", 30)
        slow = [p for p in listed if dialects.matches(glob, p, flags)]
        assert list(dialects.matching(glob, flags, listed)) == slow, glob


@pytest.mark.parametrize("dot", [True, False])
@pytest.mark.parametrize("folder_itself", [True, False])
@pytest.mark.parametrize("ignore_case", [True, False])
def test_plain_tester_is_plain_matches(dot: bool, folder_itself: bool, ignore_case: bool) -> None:
    """One shape's test, its text worked out once, answers each path as `plain_matches` does."""
    rng = random.Random(13)
    for glob in globs(rng, 300):
        found = shape(glob)
        if found is None:
            continue
        test = plain_tester(found, dot=dot, folder_itself=folder_itself, ignore_case=ignore_case)
        for path in paths(rng, glob, 30):
            assert test(path) == plain_matches(found, path, dot=dot, folder_itself=folder_itself,
                                               ignore_case=ignore_case), (glob, path)
