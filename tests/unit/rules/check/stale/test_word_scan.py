"""The whole-word search read here (rules/check/stale/word_scan.py) declines where grep's
answer rests on what it does not read; tests/integration holds its answers to GNU grep's."""

from __future__ import annotations

from rulelens.rules.check.stale.word_scan import whole_words


def test_what_it_leaves_to_grep() -> None:
    """It declines where grep's answer rests on what it does not read."""
    assert whole_words(b"Legacy\x00", [b"Legacy"]) == set()  # binary from the first buffer: no match
    assert whole_words(b"x" * 40_000 + b" Legacy \x00", [b"Legacy"]) is None  # matches, then binary
    assert whole_words(b"Legacy \xff", [b"Legacy"]) is None
    assert whole_words(b"\xc3\xa9Legacy", [b"Legacy"]) is None
    assert whole_words(b"Legacy", [b"Leg\nacy"]) is None
    # a word with a non-word edge: the name search finds it only where grep prints it alone
    for word in (b"::b", b"b::", b":b:", b"$cents", b"caf\xc3\xa9"):
        assert whole_words(b"a::b::c $cents caf\xc3\xa9", [b"a", word]) is None
    # a whole occurrence elsewhere settles it, whatever the locale says of the other
    assert whole_words(b"\xc3\xa9Legacy Legacy", [b"Legacy"]) == {b"Legacy"}
    assert whole_words(b"caf\xc3\xa9 Legacy", [b"Legacy", b"Helper"]) == {b"Legacy"}
