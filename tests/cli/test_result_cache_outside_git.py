"""`check`'s kept answer for a project outside git (cli/result_cache.py, cli/tree_state.py): kept
in the user's cache folder, keyed by the walk's state; after each kind of change the answer
printed equals a run in full (`--no-cache`), byte for byte, and a change the key must see makes
the run start again (the kept file is replaced: a hit leaves it as it was).

Outside git no finding reads an unread file's text today (`stale-name` needs the history), so
the edits of a file's text are seen as a rerun, not as a changed answer; the file list's
changes (added, deleted, renamed) change the answer (`stale-path`)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulelens.cli import result_cache, tree_state
from rulelens.rules.project import filelist
from rulelens.rules.project.git_state import no_repository
from tests.cli.imports import check_importing
from tests.conftest import write_tree

RULE = """---
paths:
  - 'app/**'
---
# Billing

Prices go through `app/Money.php`, `app/Tax.php` and the `lib/` folder; `LegacyPriceHelper` rounds them.
"""
FILES: dict[str, str | bytes] = {
    ".ai/rules/billing.md": RULE, "app/Money.php": "<?php\nclass Money {}\n", "CLAUDE.md": "# Project\n",
    "app/Tax.php": "<?php\nclass Tax {}\n", ".gitignore": "ignored/\n"}


UNSEARCHED = RULE.replace("; `LegacyPriceHelper` rounds them", "")


@pytest.fixture(params=["searched", "unsearched"])
def either(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """The project with a rule that names a class (the run greps the files' text, so the walk's
    state is in the key) and with one that names none (no text is searched: what the run read,
    every folder the walk listed among it, is the whole key)."""
    files = FILES if request.param == "searched" else {**FILES, ".ai/rules/billing.md": UNSEARCHED}
    root = write_tree(tmp_path / "plain", files)
    assert no_repository(root), "the test's folder is inside a git repository"
    return root


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """Edits in a test come milliseconds apart; a user's come seconds apart (RACY_NS)."""
    cache = tmp_path / "cache"
    found = {**os.environ, "RULELENS_TEST_RACY_NS": "0", "XDG_CACHE_HOME": str(cache)}
    found.pop("RULELENS_NO_CACHE", None)
    return found


@pytest.fixture
def plain(tmp_path: Path) -> Path:
    root = write_tree(tmp_path / "plain", FILES)
    assert no_repository(root), "the test's folder is inside a git repository"
    return root


def check(root: Path, env: dict[str, str], *args: str, cwd: Path | None = None) -> tuple[int, str]:
    out = subprocess.run([sys.executable, "-m", "rulelens", "check", *args], cwd=cwd or root,
                         capture_output=True, text=True, check=False, env=env)
    assert "Traceback" not in out.stderr, out.stderr
    return out.returncode, out.stdout


def folder(root: Path, env: dict[str, str]) -> Path | None:
    saved = {k: os.environ.get(k) for k in ("XDG_CACHE_HOME", "HOME")}
    try:
        for k in saved:
            if k in env:
                os.environ[k] = env[k]
            else:
                os.environ.pop(k, None)
        where = result_cache.cache_folder(os.path.realpath(root))
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return Path(where) if where is not None else None


def kept(root: Path, env: dict[str, str]) -> dict[str, tuple[int, int]]:
    """The kept answers: file name -> inode and time (a run in full writes a new file)."""
    where = folder(root, env)
    if where is None or not where.is_dir():
        return {}
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in where.glob("check-*") if "." not in p.name}


def same_as_full(root: Path, env: dict[str, str], *args: str) -> tuple[int, str]:
    """The answer with the cache equals the answer in full; a second run is a hit with it."""
    before = kept(root, env)
    cached = check(root, env, *args)
    assert cached == check(root, env, *args, "--no-cache")
    after = kept(root, env)
    assert after, "the answer was kept"
    assert after != before, "the change made the run start again"
    assert check(root, env, *args) == cached
    assert kept(root, env) == after, "the second run was answered from the cache"
    return cached


def test_an_unchanged_project_is_answered_from_the_cache(plain: Path, env: dict[str, str],
                                                         tmp_path: Path) -> None:
    inside = sorted(plain.rglob("*"))
    code, out = same_as_full(plain, env)
    assert code == 1 and "index-missing" in out
    assert same_as_full(plain, env, "--format", "json")[1].startswith("[")
    assert len(kept(plain, env)) == 2  # one answer per command line
    assert sorted(plain.rglob("*")) == inside  # nothing written in the user's project
    where = folder(plain, env)
    assert where is not None and where.parent == tmp_path / "cache" / "rulelens"


@pytest.mark.parametrize("walk", ["find", "python"])
def test_files_added_deleted_renamed(either: Path, env: dict[str, str], walk: str) -> None:
    env["RULELENS_TEST_TREE_WALK"] = walk
    _, start = same_as_full(either, env)
    assert "stale-path" not in start
    (either / "app/Tax.php").unlink()
    _, deleted = same_as_full(either, env)
    assert "`app/Tax.php` is not in the project" in deleted
    write_tree(either, {"app/Tax.php": "<?php\n"})
    assert same_as_full(either, env)[1] == start
    (either / "app/Money.php").rename(either / "app/Cash.php")
    _, renamed = same_as_full(either, env)
    assert "`app/Money.php` is not in the project" in renamed
    (either / "app/Cash.php").rename(either / "app/Money.php")
    assert same_as_full(either, env)[1] == start


def test_a_folder_added(either: Path, env: dict[str, str]) -> None:
    (either / "app/Tax.php").unlink()
    _, gone = same_as_full(either, env)
    assert "`app/Tax.php` is not in the project." in gone
    (either / "app/old").mkdir()
    assert same_as_full(either, env)[1] == gone
    write_tree(either, {"app/old/Tax.php": "<?php\n"})
    _, moved = same_as_full(either, env)
    assert "Moved to `app/old/Tax.php`?" in moved


@pytest.mark.parametrize("walk", ["find", "python"])
def test_a_source_file_s_text_changed(plain: Path, env: dict[str, str], walk: str) -> None:
    """The name a rule mentions appears in a file nobody else reads, then goes again."""
    env["RULELENS_TEST_TREE_WALK"] = walk
    same_as_full(plain, env)
    (plain / "app/Money.php").write_text("<?php\nclass Money {}\nclass LegacyPriceHelper {}\n")
    same_as_full(plain, env)
    (plain / "app/Money.php").write_text("<?php\nclass Money {}\n")  # the same size as at first
    same_as_full(plain, env)


def test_a_rule_file_edited(either: Path, env: dict[str, str]) -> None:
    _, before = same_as_full(either, env)
    rule = either / ".ai/rules/billing.md"
    rule.write_text(rule.read_text().replace("'app/**'", "'src/**'"))
    _, after = same_as_full(either, env)
    assert "src/**" in after and before != after


def test_gitignore_edited(plain: Path, env: dict[str, str]) -> None:
    same_as_full(plain, env)
    (plain / ".gitignore").write_text("ignored/\napp/\n")
    same_as_full(plain, env)


@pytest.mark.parametrize("walk", ["find", "python"])
def test_a_symbolic_link_s_target_changed(plain: Path, env: dict[str, str], tmp_path: Path, walk: str) -> None:
    """The link is listed (and searched through) as a file; its target lies outside the project."""
    env["RULELENS_TEST_TREE_WALK"] = walk
    target = write_tree(tmp_path / "elsewhere", {"a.php": "<?php\n"}) / "a.php"
    (plain / "app/Linked.php").symlink_to(target)
    same_as_full(plain, env)
    target.write_text("<?php\nclass LegacyPriceHelper {}\n")
    same_as_full(plain, env)
    target.unlink()  # a dangling link: still listed
    same_as_full(plain, env)
    target.mkdir()  # a link to a folder: neither listed nor entered
    same_as_full(plain, env)


def test_folders_the_walk_skips(either: Path, env: dict[str, str]) -> None:
    """`node_modules`, `vendor` and `.git` below the root are not walked: a change inside one
    keeps the answer, and one of them appearing is a change of its folder."""
    write_tree(either, {"app/node_modules/x/a.php": "", "vendor/y/b.php": ""})
    same_as_full(either, env)
    before = kept(either, env)
    (either / "app/node_modules/x/a.php").write_text("<?php\nclass LegacyPriceHelper {}\n")
    (either / "vendor/y/b.php").write_text("changed")
    assert check(either, env) == check(either, env, "--no-cache")
    assert kept(either, env) == before
    assert set(tree_state.SKIP_DIRS) == filelist.SKIP_DIRS


def test_a_fresh_project_is_not_kept(plain: Path, env: dict[str, str]) -> None:
    """Files written within RACY_NS of the run may change again unseen in the same clock tick."""
    env.pop("RULELENS_TEST_RACY_NS")
    assert check(plain, env) == check(plain, env, "--no-cache")
    assert kept(plain, env) == {}


@pytest.mark.parametrize("walk", ["find", "python"])
@pytest.mark.parametrize("racy", ["app/Tax.php", "app", "elsewhere/a.php"])
def test_one_racy_entry_keeps_nothing(plain: Path, env: dict[str, str], tmp_path: Path, walk: str,
                                      racy: str) -> None:
    """Only the walk stats this file (nothing reads it), this folder, or this link's target: a
    time at or after the run's start is racy (a time in the future, so that the test needs no
    clock tick to pass)."""
    env["RULELENS_TEST_TREE_WALK"] = walk
    (plain / "app/Linked.php").symlink_to(write_tree(tmp_path / "elsewhere", {"a.php": ""}) / "a.php")
    later = (time.time_ns() + 3600 * 10**9,) * 2
    os.utime(tmp_path / racy if racy.startswith("elsewhere") else plain / racy, ns=later)
    assert check(plain, env) == check(plain, env, "--no-cache")
    assert kept(plain, env) == {}


def test_a_cache_folder_that_cannot_be_written(plain: Path, env: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    env["XDG_CACHE_HOME"] = str(tmp_path / "a-file")
    out = subprocess.run([sys.executable, "-m", "rulelens", "check"], cwd=plain, capture_output=True,
                         text=True, check=False, env=env)
    assert (out.returncode, out.stdout, out.stderr) == (*check(plain, env, "--no-cache"), "")
    assert check(plain, env) == check(plain, env, "--no-cache")


def test_without_xdg_cache_home_the_answer_goes_to_home_s_cache(plain: Path, env: dict[str, str],
                                                               tmp_path: Path) -> None:
    env.pop("XDG_CACHE_HOME")
    env["HOME"] = str(tmp_path / "home")
    same_as_full(plain, env)
    assert list((tmp_path / "home/.cache/rulelens").glob("*/check-*"))
    env["XDG_CACHE_HOME"] = "relative/cache"  # not absolute: ignored, as the XDG spec says
    assert folder(plain, env) == folder(plain, {"HOME": env["HOME"]})


def test_a_cache_folder_inside_the_project_is_not_used(plain: Path, env: dict[str, str]) -> None:
    """The walk would list the kept answers, and the name search read them."""
    env["XDG_CACHE_HOME"] = str(plain / ".cache")
    assert check(plain, env) == check(plain, env, "--no-cache") == check(plain, env)
    assert not (plain / ".cache").exists()


def test_no_answer_kept_when_turned_off(plain: Path, env: dict[str, str]) -> None:
    check(plain, env, "--no-cache")
    check(plain, {**env, "RULELENS_NO_CACHE": "1"})
    assert kept(plain, env) == {}


def test_root_given_from_elsewhere(plain: Path, env: dict[str, str], tmp_path: Path) -> None:
    other = tmp_path / "elsewhere"
    other.mkdir()
    first = check(plain, env, "--root", str(plain), cwd=other)
    assert first == check(plain, env, "--root", str(plain), "--no-cache", cwd=other)
    answers = kept(plain, env)
    assert answers and check(plain, env, "--root", str(plain), cwd=other) == first
    assert kept(plain, env) == answers
    (plain / "app/Tax.php").unlink()
    assert check(plain, env, "--root", str(plain), cwd=other) == check(
        plain, env, "--root", str(plain), "--no-cache", cwd=other)
    assert kept(plain, env) != answers


def test_a_folder_inside_a_git_repository_is_inside_git(tmp_path: Path, env: dict[str, str]) -> None:
    """No `.git` of its own, a parent's: git's view, and git's folder, as before."""
    outer = tmp_path / "outer"
    inner = write_tree(outer / "inner", FILES)
    for cmd in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@example.com",
                                                "commit", "-qm", "start"]):
        subprocess.run(["git", "-C", str(outer), *cmd], check=True)
    assert not no_repository(inner)
    code, out = check(inner, env)
    assert (code, out) == check(inner, env, "--no-cache")
    assert kept(inner, env) == {}  # nothing in the user's cache folder
    git_dir = outer / ".git" / "rulelens"
    assert [p for p in git_dir.glob("check-*") if "." not in p.name]


def test_a_hit_loads_almost_nothing(plain: Path, env: dict[str, str]) -> None:
    """On a hit neither the core nor argparse is imported."""
    first, _ = check_importing(plain, env)
    second, modules = check_importing(plain, env)
    assert first == second
    assert {"rulelens.cli.result_cache", "rulelens.cli.tree_state"} <= modules
    assert not modules & {"argparse", "pathlib", "subprocess", "json", "threading",
                          "rulelens.rules.repository", "rulelens.cli.app", "rulelens.check_project",
                          "rulelens.rules.project.filelist"}, sorted(modules)


@pytest.mark.parametrize("walk", ["find", "python"])
def test_a_project_past_the_walk_s_limit_runs_in_full(plain: Path, env: dict[str, str], walk: str) -> None:
    """Past MAX_ENTRIES the walk stops, no answer is kept, and the project is marked so that the
    next runs do not walk it at all (until LARGE_RECHECK_NS has passed)."""
    env["RULELENS_TEST_TREE_WALK"] = walk
    env["RULELENS_TEST_MAX_ENTRIES"] = "3"
    assert check(plain, env) == check(plain, env, "--no-cache")
    where = folder(plain, env)
    assert where is not None and (where / result_cache.LARGE).exists()
    assert kept(plain, env) == {}
    marked = (where / result_cache.LARGE).stat().st_mtime_ns
    assert check(plain, env) == check(plain, env, "--no-cache")
    assert (where / result_cache.LARGE).stat().st_mtime_ns == marked  # not walked again
    os.utime(where / result_cache.LARGE, ns=(0, 0))  # a day later: measured again
    del env["RULELENS_TEST_MAX_ENTRIES"]
    same_as_full(plain, env)


def test_only_the_projects_written_last_are_kept(plain: Path, env: dict[str, str], tmp_path: Path) -> None:
    base = tmp_path / "cache" / "rulelens"
    for n in range(result_cache.PROJECTS_KEPT + 3):
        old = base / f"old{n:03}"
        write_tree(old, {"check-x": "", "check-x.files": ""})
        os.utime(old, ns=((n + 1) * 10**9, (n + 1) * 10**9))
    same_as_full(plain, env)
    names = {p.name for p in base.iterdir()}
    assert len(names) == result_cache.PROJECTS_KEPT
    assert "old000" not in names and f"old{result_cache.PROJECTS_KEPT + 2:03}" in names


@pytest.mark.parametrize("walk", ["find", "python"])
def test_a_run_that_searched_no_text_needs_no_walk(either: Path, env: dict[str, str], walk: str) -> None:
    """Without a name to search, the answer is kept past the walk's limit, which is not walked,
    and a source file's text edited keeps it (the output cannot depend on it); with one, the
    walk stops at its limit and nothing is kept."""
    env["RULELENS_TEST_TREE_WALK"] = walk
    env["RULELENS_TEST_MAX_ENTRIES"] = "3"
    searched = "LegacyPriceHelper" in (either / ".ai/rules/billing.md").read_text()
    assert check(either, env) == check(either, env, "--no-cache")
    where = folder(either, env)
    assert where is not None and (where / result_cache.LARGE).exists() == searched
    if searched:
        assert kept(either, env) == {}
        return
    before = kept(either, env)
    assert before, "the answer was kept"
    (either / "app/Money.php").write_text("<?php\nclass Money {}\nclass LegacyPriceHelper {}\n")
    assert check(either, env) == check(either, env, "--no-cache")
    assert kept(either, env) == before, "answered from the cache"
    (either / "app/Tax.php").unlink()  # the folder's time: a run in full
    _, gone = same_as_full(either, env)
    assert "`app/Tax.php` is not in the project" in gone
