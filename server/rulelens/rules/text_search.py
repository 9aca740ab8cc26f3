"""Which of many words occur in the project's files: one pass over every file, not one per word.

In a git work tree this is one `git grep -E -w -i -o` (multi-threaded) over the tracked and
untracked-but-not-ignored files outside the rules folder, the same files as the project's file
list, with all the words as one alternation read from stdin: git grep tries `-F -f` patterns one
after another over every line (15x slower here on 229 words), but matches one extended regex
as a whole, and stdin has no argument-length limit. Elsewhere it is one regex per file over the
listed files that can be read. Matching is by whole word and case-insensitive, so that
`LegacyPriceHelper` is not found in `LegacyPriceHelperTest`, and `PHPUnit` is found in `phpunit.xml`:
when in doubt, a name counts as present.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable, Iterable
from pathlib import Path

from rulelens.rules.filelist import FileList

TIMEOUT = 120.0  # seconds; a search that takes longer reports nothing rather than hang a check
MAX_FILE_BYTES = 1024 * 1024  # without git, larger files are skipped (minified bundles, data)
_WORD_CHAR = re.compile(r"[A-Za-z0-9_]")
_ERE_SPECIAL = re.compile(r"[\\.\[\]()*+?{}|^$]")

Search = Callable[[list[str]], "set[str] | None"]


def git_work_tree(root: Path) -> bool:
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "--is-inside-work-tree"],
                             capture_output=True, text=True, check=False, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and out.stdout.strip() == "true"


def git_search(root: Path, exclude: str) -> Search:
    """Matched texts (casefolded) of the given words, by `git grep` below root."""

    def search(words: list[str]) -> set[str] | None:
        cmd = ["git", "-C", str(root), "grep", "-I", "-i", "-w", "-o", "-h", "-E", "--untracked",
               "--no-color", "-f", "-", "--", ".", f":(exclude){exclude}"]
        alternation = "|".join(_ERE_SPECIAL.sub(r"\\\g<0>", w) for w in words)
        try:
            out = subprocess.run(cmd, input=alternation.encode("utf-8") + b"\n",
                                 capture_output=True, check=False, timeout=TIMEOUT)
        except (OSError, subprocess.TimeoutExpired):
            return None
        if out.returncode not in (0, 1):
            return None
        return {line.casefold() for line in out.stdout.decode("utf-8", "replace").splitlines()}

    return search


def file_search(root: Path, paths: Iterable[str]) -> Search | None:
    """The same search over files read from disk; None when none of them can be read."""
    texts: list[str] = []
    for rel in paths:
        try:
            path = root / rel
            if path.is_symlink() or path.stat().st_size > MAX_FILE_BYTES:
                continue
            raw = path.read_bytes()
        except OSError:
            continue
        if b"\0" not in raw[:8192]:
            texts.append(raw.decode("utf-8", "replace"))
    if not texts:
        return None

    def search(words: list[str]) -> set[str] | None:
        # Longest first, so that at one position the longer word wins, as in git grep.
        alternation = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        regex = re.compile(rf"(?<![A-Za-z0-9_])(?:{alternation})(?![A-Za-z0-9_])", re.IGNORECASE)
        found: set[str] = set()
        for text in texts:
            found.update(m.group().casefold() for m in regex.finditer(text))
        return found

    return search


def present(search: Search, words: Iterable[str]) -> set[str] | None:
    """The words (casefolded) that occur as whole words somewhere; None when the search failed.

    A search reports non-overlapping matches, so a word can hide inside or behind another's match
    (`Support` in `App\\Support`). A word inside a found match, at word boundaries, is present; a
    word that a found match could have hidden is searched again on its own, until none could be.
    """
    remaining = {w.casefold() for w in words if w.strip()}
    found: set[str] = set()
    while remaining:
        hits = search(sorted(remaining))
        if hits is None:
            return None
        found |= hits & remaining
        inner = _inner_words(hits)
        found |= remaining & inner
        remaining -= found
        if not hits:
            break
        tails = _tails(hits)
        remaining = {w for w in remaining if any(w[:k] in tails for k in range(1, len(w)))}
    return found


def _starts(text: str) -> list[int]:
    return [i for i in range(len(text)) if _WORD_CHAR.match(text[i])
            and (i == 0 or not _WORD_CHAR.match(text[i - 1]))]


def _ends(text: str) -> list[int]:
    return [j for j in range(1, len(text) + 1) if _WORD_CHAR.match(text[j - 1])
            and (j == len(text) or not _WORD_CHAR.match(text[j]))]


def _inner_words(hits: set[str]) -> set[str]:
    """Every whole-word piece of the matches: where another word is present because they are."""
    out: set[str] = set()
    for hit in hits:
        ends = _ends(hit)
        for i in _starts(hit):
            out.update(hit[i:j] for j in ends if j > i)
    return out


def _tails(hits: set[str]) -> set[str]:
    """The rest of each match from each word start: a word starting there was not looked for."""
    return {hit[i:] for hit in hits for i in _starts(hit)}


def scan_for(root: Path, files: FileList, exclude: str, is_git: bool) -> Search | None:
    """The search for this project: git grep in a git work tree, else reading the listed files."""
    outside = [p for p in files.paths if not p.startswith(exclude.rstrip("/") + "/")]
    if not outside:
        return None
    if is_git:
        return git_search(root, exclude)
    return file_search(root, outside)
