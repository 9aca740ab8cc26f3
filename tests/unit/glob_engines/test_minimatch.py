"""Continue's matcher: minimatch 10's reading of a pattern, from its README and its source.

Each case is what minimatch documents (or what its code does, where it says so); the
differential tests (test_differential.py) hold the same shapes to the real minimatch.
"""

from __future__ import annotations

import pytest

from rulelens.glob_engines.minimatch import minimatch_matches, minimatch_negated


@pytest.mark.parametrize(("pattern", "path", "expected"), [
    # README: "If a pattern starts with `#`, then it is treated as a comment, and will not match
    # anything. Use `\#` to match a literal `#`".
    ("#notes.md", "#notes.md", False),
    ("\\#notes.md", "#notes.md", True),
    # README: a leading `!` negates, several negate several times, and a pattern starting with
    # `!(a|B)` needs `nonegate` to be an extglob: by default its `!` is taken as negation.
    ("!*.md", "src/a.ts", True),
    ("!!*.md", "a.md", True),
    ("!(a|b)", "a", True),
    ("!(a|b)", "(a|b)", False),
])
def test_comments_and_negation(pattern: str, path: str, expected: bool) -> None:
    assert minimatch_matches(pattern, path) is expected


def test_negation_takes_every_bang() -> None:
    assert minimatch_negated("!!!(a)") == (True, "(a)")
    assert minimatch_negated("src/!(x)") == (False, "src/!(x)")


@pytest.mark.parametrize(("pattern", "path", "expected"), [
    # README, optimizationLevel 1 (the default): `..` after a portion that is not `**`, `.`, `..`
    # or empty is removed with that portion: `./a/b/../*` is `./a/*`.
    ("./a/b/../*", "./a/c", True),
    ("./a/b/../*", "./a/b/../c", False),
    ("src/*/../index.ts", "src/index.ts", True),
    ("{src,lib}/../README.md", "README.md", True),
    ("**/../a.ts", "x/../a.ts", True),  # after `**` the `..` stays
    # ...and adjacent `**` portions are one: `a/**/**/b` is `a/**/b`.
    ("a/**/**/b", "a/x/y/b", True),
])
def test_double_dot_segments_are_resolved_first(pattern: str, path: str, expected: bool) -> None:
    assert minimatch_matches(pattern, path) is expected


@pytest.mark.parametrize(("pattern", "path", "expected"), [
    # minimatch tests a `*<text>` or `??<text>` portion with `path.endsWith(text)` (its
    # `starDotExtRE`/`qmarksRE` fast paths): the text is compared as it is written.
    ("src/*\\.ts", "src/a.ts", False),
    ("src/*\\.ts", "src/a\\.ts", True),
    ("?\\.md", "a\\.md", True),
    ("*.ts", "a.ts", True),
    # brace-expansion takes the backslash off `\.`, `\,`, `\{`, `\}` and `\\` when it expands.
    ("{src,lib}/*\\.ts", "src/a.ts", True),
])
def test_star_extension_is_text(pattern: str, path: str, expected: bool) -> None:
    assert minimatch_matches(pattern, path) is expected


@pytest.mark.parametrize(("pattern", "path", "expected"), [
    # An extglob with nothing in it that is a whole portion is not an extglob (ast.ts: "invalid
    # extglob, has to at least be *something* present").
    ("+()", "+()", True),
    ("docs/@()", "docs/@()", True),
    # A backslash ending a portion escapes nothing: it is a literal backslash.
    ("a\\", "a\\", True),
    ("a\\/b", "a\\/b", True),
])
def test_literal_odd_portions(pattern: str, path: str, expected: bool) -> None:
    assert minimatch_matches(pattern, path) is expected


@pytest.mark.parametrize(("pattern", "path", "expected"), [
    # README: "`[[:alpha:]]` will match against `'é'`, though `[a-zA-Z]` will not".
    ("[[:alpha:]]", "é", True),
    ("[a-zA-Z]", "é", False),
    ("docs/[[:alpha:]]*.md", "docs/ünïcode.md", True),
    ("[[:digit:]]", "٣", True),  # Arabic-Indic three: Unicode Nd
    ("[[:upper:]]*", "Ärger", True),
    ("[[:upper:]]*", "ärger", False),
    ("[![:alpha:]]", "é", False),
    ("[[:alpha:][:digit:]]", "7", True),
    ("[[:xdigit:]]", "f", True),
    ("[[:xdigit:]]", "g", False),
    ("[[:alpha:]]*", ".hidden", False),  # a bracket never starts a dotfile
])
def test_posix_classes_are_unicode(pattern: str, path: str, expected: bool) -> None:
    assert minimatch_matches(pattern, path) is expected


@pytest.mark.parametrize(("pattern", "path", "expected"), [
    # minimatch builds JavaScript regular expressions without the `u` flag (unless a POSIX class
    # needs it), so `?` is one UTF-16 code unit: an emoji is two.
    ("notes/?.md", "notes/🚀.md", False),
    ("notes/??.md", "notes/🚀.md", True),
    ("notes/*.md", "notes/🚀.md", True),
    ("[[:alpha:]]?.md", "a🚀.md", True),
])
def test_question_mark_counts_utf16_units(pattern: str, path: str, expected: bool) -> None:
    assert minimatch_matches(pattern, path) is expected
