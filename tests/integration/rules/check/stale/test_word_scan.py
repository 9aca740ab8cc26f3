"""The whole-word search read here (rules/check/stale/word_scan.py) against GNU grep itself, on the
same files: wherever it answers, its answer is grep's, in the UTF-8 and the C locale, both for
one word at a time (`grep -w -F -l`) and for the name search's reading of grep's `-o` output
over all the words at once (`words.present`, as the full run reads it)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rulelens.rules.check.stale.text_search import gnu_grep, grep_search
from rulelens.rules.check.stale.word_scan import whole_words
from rulelens.rules.check.stale.words import present

pytestmark = pytest.mark.skipif(gnu_grep() is None, reason="held to GNU grep")
LOCALES = ("C.UTF-8", "C")

# (text, words): each an edge of grep's reading
CASES: list[tuple[bytes, list[str]]] = [
    (b"class LegacyPriceHelper {}\n", ["LegacyPriceHelper", "Legacy", "Helper", "PriceHelper"]),
    (b"LegacyPriceHelperTest LegacyPriceHelper_x", ["LegacyPriceHelper"]),  # never whole
    (b"xLegacy Legacy", ["Legacy"]),  # the second occurrence is whole
    (b"Legacy", ["Legacy", "Legac", "egacy"]),  # the whole text, no line end
    (b"\nLegacy\n", ["Legacy"]),
    (b"a\r\nLegacy\r\n", ["Legacy"]),  # CRLF
    (b"\tLegacy\t", ["Legacy"]),
    (b"App\\Models\\User::find()", ["App\\Models\\User", "Models\\User", "App\\Models", "User::find", "Models"]),
    (b"a::b::c", ["a::b", "b::c", "a::b::c", "b", "a::b::c::d"]),  # overlapping, hidden
    (b"x::foo::bar y", ["x::foo", "foo::bar", "foo", "bar", "x::foo::bar"]),
    (b"legacy LEGACY", ["Legacy"]),  # case is kept
    (b"a.b*c[d]e$ (f|g)", ["b*c", "c[d]e", "f|g", "a.b", "d]e"]),  # no regex
    (b"foo bar", ["foo bar", "o b", "foo", "bar"]),  # words with spaces
    (b"-x- _y_ 9z9", ["x", "y", "z", "_y_", "9z9"]),
    (b"total_cents totalCents", ["total", "cents", "total_cents", "totalCents"]),
    (b"caf\xc3\xa9 na\xc3\xafve \xe2\x80\x94 Legacy\xe2\x80\x94", ["caf", "caf\u00e9", "na\u00efve", "Legacy"]),
    (b"\xc3\xa9Legacy \xe2\x82\xacLegacy", ["Legacy"]),  # a letter, then a sign: the locale says
    (b"Legacy \xff\xfe broken", ["Legacy", "broken"]),  # not UTF-8
    (b"Legacy\x00Helper", ["Legacy", "Helper"]),  # binary to -I
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR Legacy " * 3000, ["Legacy", "IHDR"]),  # an image
    (b"Legacy Helper\n" * 4000 + b"\x00" + b" Legacy" * 10, ["Legacy", "Helper"]),  # a NUL past 32 KiB
    (b"x" * 200_000 + b" Legacy " + b"y" * 100_000, ["Legacy", "x"]),  # a long line
    (b"ab" * 5_000 + b" ab", ["ab", "ba"]),
    (b"\xef\xbf\xbf Legacy \xf4\x8f\xbf\xbf", ["Legacy"]),  # noncharacters: UTF-8 still
    (b"\xed\xa0\x80 Legacy", ["Legacy"]),  # a surrogate's bytes: not UTF-8 to Python
    (b"", ["Legacy"]),
    (b"\x7fLegacy\x1b", ["Legacy"]),  # control characters
]


def grep_holds(grep: str, files: list[Path], word: str, locale: str) -> set[Path]:
    """The files `grep -I -s -w -F -l` lists for one word."""
    env = {**os.environ, "LC_ALL": locale}
    out = subprocess.run([grep, "-I", "-s", "-w", "-F", "-l", "-e", word, "--", *map(str, files)],
                         capture_output=True, check=False, env=env)
    assert out.returncode in (0, 1, 2)
    return {Path(line) for line in out.stdout.decode("utf-8", "surrogateescape").splitlines()}


def compare(tmp_path: Path, texts: list[bytes], words: list[str]) -> int:
    """Every answer whole_words gives equals grep's, per word and file and over all words at
    once; the number of files it answered for."""
    grep = gnu_grep()
    assert grep is not None
    files = []
    for n, text in enumerate(texts):
        files.append(tmp_path / f"f{n}.txt")
        files[-1].write_bytes(text)
    encoded = [w.encode() for w in words]
    answers = {f: whole_words(f.read_bytes(), encoded) for f in files}
    sure = [f for f, a in answers.items() if a is not None]
    for locale in LOCALES:
        for word in words:
            held = grep_holds(grep, sure, word, locale) if sure else set()
            assert held == {f for f in sure if word.encode() in answers[f]}, (locale, word)  # type: ignore[operator]
        # the full run's reading: grep -o over the files, words found through `present`
        if sure:
            os.environ["LC_ALL"] = locale
            try:
                found = present(grep_search(tmp_path, [f.name for f in sure], grep), words)
            finally:
                del os.environ["LC_ALL"]
            assert found == {w for w in words for f in sure if w.encode() in answers[f]}, locale  # type: ignore[operator]
    return len(sure)


@pytest.mark.parametrize(("text", "words"), CASES, ids=[str(n) for n in range(len(CASES))])
def test_each_edge_is_read_as_grep_reads_it(tmp_path: Path, text: bytes, words: list[str]) -> None:
    compare(tmp_path, [text], words)


def test_the_locales_it_reads() -> None:
    """The locale grep gets from the environment is the one this process reads: UTF-8 and C."""
    path = os.pathsep.join(p for p in sys.path if p)
    for locale in ("C.UTF-8", "C", "POSIX"):
        out = subprocess.run([sys.executable, "-c", "from rulelens.rules.check.stale.word_scan import "
                              "ascii_locale; print(ascii_locale())"], capture_output=True, text=True,
                             check=True, env={**os.environ, "LC_ALL": locale, "PYTHONPATH": path})
        assert out.stdout.strip() == "True", locale


@pytest.mark.parametrize("seed", range(6))
def test_random_texts_and_words(tmp_path: Path, seed: int) -> None:
    """Made texts and words over a small alphabet, so that words meet, overlap, hide in each
    other and touch every kind of neighbour; the ASCII ones it always answers."""
    rng = random.Random(seed)
    pieces = [b"a", b"b", b"ab", b"_", b":", b" ", b"\n", b"\\", b"-", b"A", b"1", b"\r", b"\t"]
    wide = [b"\xc3\xa9", b"\xe2\x80\x94"]  # a letter and a dash in UTF-8
    texts = []
    for n in range(40):
        chosen = pieces + (wide if n % 2 else [])
        texts.append(b"".join(rng.choice(chosen) for _ in range(rng.randint(0, 80))))
    alphabet = ["a", "b", "_", ":", " ", "\\", "-", "A", "1"]
    edges = ["a", "b", "_", "A", "1"]  # words begin and end with a word character (word_scan.py)
    words = sorted({rng.choice(edges) + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 3)))
                    + rng.choice(edges) for _ in range(30)} | set(edges))
    answered = compare(tmp_path, texts, words)
    assert answered >= 20  # every ASCII text at least
