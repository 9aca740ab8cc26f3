"""The name search's cache (rules/search_cache.py): answers from the runs before, and reads again
exactly what changed since; a broken or foreign cache is ignored and rebuilt."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from rulelens.rules.check.stale import search_cache
from rulelens.rules.check.stale.search_cache import CACHE_PATH, CachedSearch
from rulelens.rules.check.stale.text_search import cached_scan_for, gnu_grep
from rulelens.rules.check.stale.words import present
from rulelens.workspace.cache_files import cache_file
from rulelens.workspace.filelist import FileList

pytestmark = pytest.mark.skipif(gnu_grep() is None, reason="the cache sits in front of GNU grep")
ENV = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
       "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
WORDS = ["LegacyHelper", "formatCents", "NewThing", "total_cents"]


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=ENV)


@pytest.fixture(params=["exact", "large"])
def repo(tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git project; "large" reads grep's output as a large project's is read (at C speed,
    first and last holder per chunk)."""
    if request.param == "large":
        monkeypatch.setattr(search_cache, "EXACT_LINES", 0)
    root = tmp_path / "p"
    (root / "app").mkdir(parents=True)
    (root / ".ai" / "rules").mkdir(parents=True)
    (root / "app" / "a.php").write_text("class LegacyHelper {}\n")
    (root / "app" / "b.php").write_text("function formatCents() { return $total_cents; }\n")
    (root / ".ai" / "rules" / "r.md").write_text("`NewThing` `LegacyHelper`\n")  # never searched
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "start")
    return root


def search(root: Path, words: list[str] = WORDS) -> tuple[set[str], str]:
    """The words present, and whether the cache answered ("hit") or was (re)built ("miss")."""
    found = cached_scan_for(root, FileList.for_root(root), ".ai/rules")
    assert found is not None
    full, cached = found
    assert isinstance(cached, CachedSearch)
    result = present(full, words, first=cached)
    assert result is not None
    return result, cached.outcome


def test_second_search_is_answered_from_the_cache(repo: Path) -> None:
    assert search(repo) == ({"LegacyHelper", "formatCents", "total_cents"}, "miss")
    assert search(repo) == ({"LegacyHelper", "formatCents", "total_cents"}, "hit")
    assert search(repo, ["formatCents", "NewThing"]) == ({"formatCents"}, "hit")  # fewer words


def test_the_cache_lives_in_git_and_leaves_the_work_tree_clean(repo: Path) -> None:
    search(repo)
    where = cache_file(repo, CACHE_PATH)
    assert where is not None and where.is_file() and repo / ".git" in where.parents
    status = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--ignored"],
                            capture_output=True, text=True, check=True).stdout
    assert status == ""


@pytest.mark.parametrize("how", ["unstaged", "staged", "committed"])
def test_a_content_change_is_read_again(repo: Path, how: str) -> None:
    search(repo)
    (repo / "app" / "a.php").write_text("class NewThing {}\n")
    if how != "unstaged":
        git(repo, "add", "-A")
    if how == "committed":
        git(repo, "commit", "-q", "-m", "rename")
    assert search(repo) == ({"NewThing", "formatCents", "total_cents"}, "hit")
    assert search(repo) == ({"NewThing", "formatCents", "total_cents"}, "hit")


def test_a_file_added_and_a_file_removed(repo: Path) -> None:
    search(repo)
    (repo / "app" / "c.php").write_text("new NewThing();\n")  # untracked, then committed
    assert search(repo)[0] == {"LegacyHelper", "formatCents", "total_cents", "NewThing"}
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "add")
    assert search(repo) == ({"LegacyHelper", "formatCents", "total_cents", "NewThing"}, "hit")
    git(repo, "rm", "-q", "app/b.php")
    git(repo, "commit", "-q", "-m", "remove")
    assert search(repo) == ({"LegacyHelper", "NewThing"}, "hit")
    (repo / "app" / "a.php").unlink()  # deleted locally, not yet in git
    assert search(repo) == ({"NewThing"}, "hit")


def test_a_file_read_through_a_symbolic_link(repo: Path) -> None:
    """A link's blob is its target's name: the link holds the target's words only as long as
    the target does, though git sees the link unchanged."""
    (repo / "app" / "link.php").symlink_to("a.php")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "link")
    assert "LegacyHelper" in search(repo)[0]
    (repo / "app" / "a.php").write_text("class Other {}\n")
    assert search(repo)[0] == {"formatCents", "total_cents"}


def test_holders_are_kept_among_clean_files_when_links_hold_a_word_too(repo: Path) -> None:
    """Links are searched on every run: a word whose first and last holders are links (they sort
    first and last) is kept with a clean holder between them, so the next run is a hit."""
    for i in range(search_cache.CARRIERS):  # before and after the clean holders, sorted
        (repo / "app" / f"0{i}.php").symlink_to("a.php")
    (repo / "app" / "zz.php").symlink_to("a.php")
    for i in range(search_cache.CARRIERS + 2):
        (repo / "app" / f"m{i:02d}.php").write_text("class LegacyHelper {}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "links")
    everything = {"LegacyHelper", "formatCents", "total_cents"}
    assert search(repo) == (everything, "miss")
    where = cache_file(repo, CACHE_PATH)
    assert where is not None
    _, *carriers = json.loads(where.read_bytes())["hits"]["LegacyHelper"]
    assert carriers and all(c.startswith("app/m") or c == "app/a.php" for c in carriers)
    assert search(repo) == (everything, "hit")
    (repo / "app" / "a.php").write_text("class Other {}\n")  # the links' text changes with it
    assert search(repo) == (everything, "hit")


def test_a_word_held_only_by_files_not_clean_is_found_on_every_run(repo: Path) -> None:
    (repo / "app" / "t.txt").write_text("OnlyLinked\n")  # untracked, read through two links
    for name in ("l1.php", "l2.php"):
        (repo / "app" / name).symlink_to("t.txt")
    git(repo, "add", "app/l1.php", "app/l2.php")
    git(repo, "commit", "-q", "-m", "links")
    words = [*WORDS, "OnlyLinked"]
    everything = {"LegacyHelper", "formatCents", "total_cents", "OnlyLinked"}
    assert search(repo, words) == (everything, "miss")
    assert search(repo, words) == (everything, "hit")
    (repo / "app" / "t.txt").write_text("gone\n")
    assert search(repo, words) == (everything - {"OnlyLinked"}, "hit")


def test_a_reverted_change_is_read_again(repo: Path) -> None:
    """A file dirty when searched, clean now, must be searched as clean again."""
    (repo / "app" / "a.php").write_text("nothing here\n")
    assert search(repo)[0] == {"formatCents", "total_cents"}
    git(repo, "checkout", "--", "app/a.php")
    assert search(repo) == ({"LegacyHelper", "formatCents", "total_cents"}, "hit")


@pytest.mark.parametrize("content", [b"", b"{not json", b"\xff\xfe", b'{"format": "rulelens-name-search"}',
                                     b"[1, 2]"])
def test_a_corrupt_cache_is_ignored_and_rebuilt(repo: Path, content: bytes) -> None:
    search(repo)
    where = cache_file(repo, CACHE_PATH)
    assert where is not None
    where.write_bytes(content)
    assert search(repo) == ({"LegacyHelper", "formatCents", "total_cents"}, "miss")
    assert search(repo)[1] == "hit"


def test_a_cache_written_for_another_root_or_version_is_ignored(repo: Path) -> None:
    search(repo)
    where = cache_file(repo, CACHE_PATH)
    assert where is not None
    raw = json.loads(where.read_bytes())
    (repo / "app" / "a.php").write_text("gone\n")
    git(repo, "commit", "-q", "-a", "-m", "gone")
    for bad in ({**raw, "root": "/elsewhere"}, {**raw, "version": 999}):
        where.write_text(json.dumps(bad))
        assert search(repo) == ({"formatCents", "total_cents"}, "miss")


def test_a_listing_that_disagrees_with_the_cache_is_ignored(repo: Path) -> None:
    """The listing beside the cache is checked against the digest the cache names."""
    search(repo)
    where = cache_file(repo, CACHE_PATH)
    assert where is not None
    where.with_suffix(".index").write_bytes(b"100644 0000000000000000000000000000000000000000 0\tx\0")
    (repo / "app" / "a.php").write_text("gone\n")
    git(repo, "commit", "-q", "-a", "-m", "gone")
    assert search(repo) == ({"formatCents", "total_cents"}, "miss")


def test_losing_every_recorded_holder_of_a_common_word_searches_all(repo: Path) -> None:
    for i in range(search_cache.CARRIERS + 3):
        (repo / "app" / f"m{i:02d}.php").write_text("$total_cents = 1;\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "many")
    search(repo)
    where = cache_file(repo, CACHE_PATH)
    assert where is not None
    count, *carriers = json.loads(where.read_bytes())["hits"]["total_cents"]
    assert count > len(carriers) and 0 < len(carriers) <= search_cache.CARRIERS
    git(repo, "rm", "-q", *carriers)
    git(repo, "commit", "-q", "-m", "drop the recorded ones")
    assert "app/b.php" in carriers  # so formatCents went too; the other m*.php still hold total_cents
    assert search(repo) == ({"LegacyHelper", "total_cents"}, "miss")


def test_new_words_search_everything_and_are_kept(repo: Path) -> None:
    search(repo, ["LegacyHelper"])
    assert search(repo, ["formatCents"]) == ({"formatCents"}, "miss")
    assert search(repo, ["LegacyHelper", "formatCents"]) == ({"LegacyHelper", "formatCents"}, "hit")


def test_a_cache_past_its_bound_is_not_written(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_cache, "MAX_BYTES", 10)
    assert search(repo) == ({"LegacyHelper", "formatCents", "total_cents"}, "miss")
    where = cache_file(repo, CACHE_PATH)
    assert where is not None and not where.exists()
    assert search(repo)[1] == "miss"


def test_outside_git_there_is_no_cache(tmp_path: Path) -> None:
    (tmp_path / "a.php").write_text("class LegacyHelper {}\n")
    assert search(tmp_path, ["LegacyHelper", "NewThing"]) == ({"LegacyHelper"}, "none")


def test_history_is_kept_for_the_commit_head_names(repo: Path) -> None:
    from rulelens.rules.check.stale.drift import HISTORY_CACHE, History

    first = History.read(repo, ".ai/rules")
    assert first is not None and [c.paths for c in first.commits] == [
        (".ai/rules/r.md", "app/a.php", "app/b.php")]
    where = cache_file(repo, HISTORY_CACHE)
    assert where is not None and where.is_file()
    raw = json.loads(where.read_bytes())
    where.write_text(json.dumps({**raw, "commits": [["2026-01-01", ["kept.php"]]]}))
    kept = History.read(repo, ".ai/rules")
    assert kept is not None and [c.paths for c in kept.commits] == [("kept.php",)]  # from the cache
    (repo / "app" / "a.php").write_text("changed\n")
    git(repo, "commit", "-q", "-a", "-m", "next")  # a new HEAD: the log is read again
    fresh = History.read(repo, ".ai/rules")
    assert fresh is not None and fresh.commits[0].paths == ("app/a.php",)
    where.write_text("{broken")
    assert History.read(repo, ".ai/rules") is not None


def test_mentions_of_an_unchanged_rule_text_are_kept(repo: Path) -> None:
    from rulelens.rules.check.stale.findings import prepare, scan_of
    from rulelens.rules.check.stale.mention_cache import NAME, MentionStore, key
    from rulelens.rules.repository import RuleRepository

    [rule] = rules = RuleRepository(repo).files
    files = FileList.for_root(repo)
    prepare(rules, files, drift_after=0)
    digest = key(rule.text, scan_of(rule, files).top_folders)
    stored = MentionStore(repo).get(digest)
    assert [(m.kind, m.text) for m in stored or []] == [("name", "NewThing"), ("name", "LegacyHelper")]
    where = cache_file(repo, NAME)
    assert where is not None
    raw = json.loads(where.read_bytes())
    raw["texts"][digest] = [["name", "FromTheCache", 0, 1, 13, True]]
    where.write_text(json.dumps(raw))
    again = FileList.for_root(repo)  # a new file list: a new scan, which reads the stored mentions
    prepare(rules, again, drift_after=0)
    assert [m.text for m in scan_of(rule, again).mentions(rule)] == ["FromTheCache"]
    where.write_text("{torn")
    assert MentionStore(repo).get(digest) is None  # ignored; the next run writes it again
