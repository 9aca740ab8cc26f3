"""Which words a file's text holds as whole words, as GNU grep's `-I -w -F` finds them, read here
without starting grep: `check`'s kept answer after an edit (cli/edited_answer.py) searches the
few changed files this way, where starting grep would cost more than the search.

grep's answer depends on the locale and on how it reads a file, so this answers only where every
reading agrees, and says it cannot elsewhere (grep then reads the file):
- grep's word characters are the locale's letters and digits, and `_`. For ASCII bytes every
  locale this reads (UTF-8, and C: `ascii_locale`) agrees on them; a non-ASCII byte next to an
  occurrence is a letter or not depending on the locale, so such an occurrence is not read here.
- `-I` takes a file for binary when a buffer it reads holds a NUL byte, and stops there. The
  first buffer is at least BINARY_PREFIX bytes of a regular file, and is checked before any of
  it is searched: a NUL there means no match at all (an image, an archive). A NUL further on
  may come after matches grep has printed, and in a UTF-8 locale a line that is not UTF-8 is
  binary data whose matches grep does not print: such files are not read here.
- The name search reads grep's `-o` output through `words.present`, which finds a word hidden
  in a longer match where it begins and ends at word boundaries inside it. For a word that
  begins and ends with an ASCII word character that is every whole occurrence, but one that
  begins or ends otherwise (`::b`) is found only where grep prints it on its own, which
  depends on the other words. Such words are left to grep, as is a word with a line break
  (two patterns to `grep -f`).
Otherwise a word is present when an occurrence has no word character on either side (or is at
the start or end of the text): grep's test for `-w`.
tests/integration/rules/check/stale/test_word_scan.py holds this to grep on made texts, one word
at a time and through `words.present` over grep's output.

Imports nothing (it runs on the path that loads nothing of the core).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, as mypy reads it
if TYPE_CHECKING:
    from collections.abc import Iterable

# grep's word characters among ASCII bytes, in every locale `ascii_locale` accepts
WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_NEWLINE = 10  # a neighbour at the text's start or end: grep reads line by line
# Every byte that is not an ASCII word character, as a space: a text's runs of word characters
# split out at C speed, with neither `re` (not loaded under `python -m`) nor a loop here
_RUNS = bytes(b if b in WORD_BYTES else 0x20 for b in range(256))
# grep's first read of a file (32 KiB in grep 2, 96 KiB in grep 3), which it checks for a NUL
# before searching it: a NUL this early means no match
BINARY_PREFIX = 32 * 1024
MAX_OCCURRENCES = 10_000  # of one word in one text looked at here; past this grep reads it
MAX_SCAN = 16 * 1024 * 1024  # bytes searched for words that may occur; past this grep reads it
# nl_langinfo(CODESET) of the locales whose ASCII bytes are ASCII characters, one byte each, and
# whose other bytes either form UTF-8 (checked here) or are single non-word characters (C)
LOCALES = ("UTF-8", "ANSI_X3.4-1968")


def ascii_locale() -> bool:
    """Whether the locale grep will run in (this process's: the same environment) is one this
    module reads as grep does."""
    try:
        import _locale  # built in: the `locale` module costs an import on this path
    except ImportError:
        return False
    try:
        return str(_locale.nl_langinfo(_locale.CODESET)) in LOCALES
    except (AttributeError, ValueError):
        return False


def whole_words(text: bytes, words: Iterable[bytes]) -> set[bytes] | None:
    """The words that occur in `text` as whole words, as `grep -I -w -F` reads it in a locale
    `ascii_locale` accepts; None when grep's answer could depend on what this does not read.
    `text` is a file's whole text, or at least its first BINARY_PREFIX bytes when they hold a
    NUL."""
    nul = text.find(b"\0")
    if nul >= 0:
        return set() if nul < BINARY_PREFIX else None  # binary to grep -I
    if not text.isascii():
        try:
            text.decode("utf-8")
        except UnicodeDecodeError:
            return None  # binary lines to grep in a UTF-8 locale
    found: set[bytes] = set()
    end = len(text)
    # A whole occurrence's first run of word characters is a whole run of the text's (a
    # non-ASCII byte splits runs too, so the unsure ones are among them): only a word whose
    # first run is there can occur, and only those are searched.
    runs = set(text.translate(_RUNS).split())
    scan = 0
    for word in words:
        if not word or word[0] not in WORD_BYTES or word[-1] not in WORD_BYTES or b"\n" in word:
            return None
        if word.translate(_RUNS).split(None, 1)[0] not in runs:
            continue
        scan += end
        if scan > MAX_SCAN:
            return None
        at = text.find(word)
        unsure = False
        looked = 0
        while at >= 0:
            after = at + len(word)
            prev = text[at - 1] if at else _NEWLINE
            succ = text[after] if after < end else _NEWLINE
            if prev >= 0x80 or succ >= 0x80:
                unsure = True  # a letter or not: the locale says
            elif prev not in WORD_BYTES and succ not in WORD_BYTES:
                found.add(word)
                break
            looked += 1
            if looked > MAX_OCCURRENCES:
                return None
            at = text.find(word, at + 1)
        else:
            if unsure:
                return None
    return found
