"""The name search over many chunks of files (text_search.grep_outputs), where a word matched in
one chunk is left out of the chunks started after it: the words present, and the holders the
search cache keeps, must be those of one search of every word in every file."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from rulelens.rules.check.stale import text_search
from rulelens.rules.check.stale.search_cache import CACHE_PATH, CachedSearch
from rulelens.rules.check.stale.text_search import cached_scan_for, gnu_grep, grep_outputs, grep_search
from rulelens.rules.check.stale.words import present
from rulelens.workspace.cache_files import cache_file
from rulelens.workspace.filelist import FileList

pytestmark = pytest.mark.skipif(gnu_grep() is None, reason="the chunks are GNU grep's")
ENV = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
       "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
WORDS = ["Common", "LateLine", "LastFile", "a::b", "b::c", "q::r", "r::s", "Missing", "App\\Support",
         "Support"]
PRESENT = {"Common", "LateLine", "LastFile", "a::b", "b::c", "q::r", "r::s", "App\\Support", "Support"}


def files(root: Path) -> list[str]:
    """Forty files, each its own chunk when chunks are one name long."""
    root.mkdir(parents=True, exist_ok=True)
    names = []
    for i in range(40):
        lines = ["Common a::b App\\Support"] + ["nothing"] * 300
        if i == 3:
            lines[250] = "here is LateLine, after a line that matched"  # a late line of an early file
        if i == 30:
            lines[100] = "x a::b::c y"  # `b::c` hidden behind `a::b` when both are asked for
            lines[101] = "x q::r::s y"  # `r::s` hidden behind `q::r`, neither matched before
        if i == 39:
            lines[-1] = "LastFile"  # only in the last chunk
        (root / f"f{i:02d}.txt").write_text("\n".join(lines) + "\n")
        names.append(f"f{i:02d}.txt")
    return names


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text_search, "CHUNK_BYTES", 0)
    monkeypatch.setattr(text_search, "FIRST_CHUNK_BYTES", 0)


def test_words_present_as_one_search_of_every_file_finds_them(tmp_path: Path, small_chunks: None) -> None:
    names = files(tmp_path)
    grep = gnu_grep()
    assert grep is not None
    grepped = grep_outputs(tmp_path, grep, names, WORDS)
    assert grepped is not None
    outputs, left_out = grepped
    assert len(outputs) == len(names) and "Common" in left_out  # the later chunks were not asked
    assert present(grep_search(tmp_path, names, grep), WORDS) == PRESENT


def test_a_vanished_file_leaves_the_others_searched(tmp_path: Path, small_chunks: None) -> None:
    names = files(tmp_path)
    (tmp_path / "f10.txt").unlink()
    grep = gnu_grep()
    assert grep is not None
    assert present(grep_search(tmp_path, names, grep), WORDS) == PRESENT
    (tmp_path / "f39.txt").unlink()
    assert present(grep_search(tmp_path, names, grep), WORDS) == PRESENT - {"LastFile"}


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=ENV)


def test_a_match_left_out_of_later_chunks_is_not_kept_as_exact(tmp_path: Path, small_chunks: None) -> None:
    """`Common` is in every file but reported in the first chunks only: losing the holders kept
    for it must not make it absent."""
    root = tmp_path / "p"
    files(root)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "start")

    def search() -> tuple[set[str] | None, str]:
        found = cached_scan_for(root, FileList.for_root(root), ".ai/rules")
        assert found is not None
        full, cached = found
        assert isinstance(cached, CachedSearch)
        return present(full, WORDS, first=cached), cached.outcome

    assert search() == (PRESENT, "miss")
    where = cache_file(root, CACHE_PATH)
    assert where is not None
    count, *carriers = json.loads(where.read_bytes())["hits"]["Common"]
    assert count > len(carriers) and len(carriers) < 40
    assert search() == (PRESENT, "hit")
    git(root, "rm", "-q", *carriers)
    git(root, "commit", "-q", "-m", "drop the recorded holders")
    assert search() == (PRESENT, "miss")
