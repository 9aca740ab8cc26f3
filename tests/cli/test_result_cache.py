"""`check`'s kept answer (cli/result_cache.py): after each kind of change a project can see, the
answer printed equals a run in full (`--no-cache`), and an unchanged project is answered from
the cache. Real git, real processes; "answered from the cache" is seen as the kept file left
as it was (a run in full replaces it with a new file)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulelens.cli import result_cache
from rulelens.workspace import git_state
from tests.cli.imports import check_importing
from tests.conftest import ProjectFactory, write_tree

# Edits in a test come milliseconds apart; a user's come seconds apart (RACY_NS).
ENV = {**os.environ, "RULELENS_TEST_RACY_NS": "0"}
ENV.pop("RULELENS_NO_CACHE", None)

RULE = """---
paths:
  - 'app/**'
---
# Billing

Prices go through `app/Money.php`; `LegacyPriceHelper` rounds them.
"""


def git(root: Path, *args: str, input_: str | None = None) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True,
                          input=input_,
                          env={**ENV, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}).stdout


def check(root: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    out = subprocess.run([sys.executable, "-m", "rulelens", "check", *args], cwd=root, capture_output=True,
                         text=True, check=False, env=env or ENV)
    assert "Traceback" not in out.stderr
    return out.returncode, out.stdout


def kept(root: Path) -> dict[str, int]:
    """The kept answers: file name -> inode (a run in full writes a new file)."""
    folder = Path(git(root, "rev-parse", "--path-format=absolute", "--git-path", "rulelens").strip())
    return {p.name: p.stat().st_ino for p in folder.glob("check-*") if "." not in p.name} if folder.is_dir() else {}


def same_as_full(root: Path, *args: str) -> tuple[int, str]:
    """The answer with the cache equals the answer in full; a second run is a hit with it."""
    cached = check(root, *args)
    assert cached == check(root, *args, "--no-cache")
    before = kept(root)
    assert before, "the answer was kept"
    assert check(root, *args) == cached
    assert kept(root) == before, "the second run was answered from the cache"
    return cached


@pytest.fixture
def billing(project: ProjectFactory) -> Path:
    """A git project whose rule names `LegacyPriceHelper`, which a commit deleted: a `stale-name`."""
    root = project({".ai/rules/billing.md": RULE, "app/Money.php": "<?php\nclass Money {}\n",
                    "app/LegacyPriceHelper.php": "<?php\nfinal class LegacyPriceHelper {}\n", "CLAUDE.md": "# Project\n",
                    ".gitignore": "ignored/\n.cursor/\n"}, git=True)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    (root / "app/LegacyPriceHelper.php").unlink()
    git(root, "add", "-A")
    git(root, "commit", "-qm", "drop the old gateway")
    return root


def test_an_unchanged_project_is_answered_from_the_cache(billing: Path) -> None:
    code, out = same_as_full(billing)
    assert code == 1 and "stale-name" in out
    assert same_as_full(billing, "--format", "json")[1].startswith("[")
    assert len(kept(billing)) == 2  # one answer per command line


def test_a_rule_file_edited(billing: Path) -> None:
    same_as_full(billing)
    (billing / ".ai/rules/billing.md").write_text(RULE.replace("'app/**'", "'lib/**'"))
    _, out = same_as_full(billing)
    assert "lib/**" in out


def test_a_source_file_the_name_search_reads(billing: Path) -> None:
    _, before = same_as_full(billing)
    (billing / "app/Money.php").write_text("<?php\nclass Money {}\nclass LegacyPriceHelper {}\n")  # tracked
    _, after = same_as_full(billing)
    assert "stale-name" in before and "stale-name" not in after
    (billing / "app/Money.php").write_text("<?php\nclass Money {}\nclass LegacyPriceHelpe {}\n")  # still changed
    assert same_as_full(billing)[1] == before


def test_an_untracked_new_file(billing: Path) -> None:
    same_as_full(billing)
    write_tree(billing, {"app/Legacy.php": "<?php\nclass LegacyPriceHelper {}\n"})
    _, out = same_as_full(billing)
    assert "stale-name" not in out


def test_an_agent_file_git_does_not_list(billing: Path) -> None:
    """`.cursor/` is ignored: only the record of what the run read sees the new rule file."""
    _, before = same_as_full(billing)
    write_tree(billing, {".cursor/rules/api.mdc": "---\nglobs: nothing/**\n---\nBe brief.\n"})
    _, after = same_as_full(billing)
    assert ".cursor/rules/api.mdc" in after and before != after
    (billing / ".cursor/rules/api.mdc").write_text("---\nglobs: app/**\n---\nBe brief.\n")
    assert same_as_full(billing)[1] != after


def test_an_agent_file_edited(billing: Path) -> None:
    _, before = same_as_full(billing)
    (billing / "CLAUDE.md").write_text("# Project\n" + "Say it once.\n" * 300)  # past its budget
    assert same_as_full(billing)[1] != before


def test_a_config_file(billing: Path) -> None:
    same_as_full(billing)
    write_tree(billing, {"rulelens.toml": '[severity]\nstale-name = "off"\n'})
    _, out = same_as_full(billing)
    assert "stale-name" not in out


def test_a_commit_that_changes_only_the_history(billing: Path) -> None:
    """The same index and work tree on another HEAD: the deletion is no longer in the history."""
    _, before = same_as_full(billing)
    git(billing, "reset", "-q", "--soft", "HEAD~1")
    _, after = same_as_full(billing)
    assert "stale-name" in before and "stale-name" not in after


def test_no_cache_outside_git_or_when_turned_off(tmp_path: Path, billing: Path) -> None:
    check(billing, "--no-cache")
    check(billing, env={**ENV, "RULELENS_NO_CACHE": "1"})
    assert kept(billing) == {}
    plain = write_tree(tmp_path / "plain", {".ai/rules/a.md": RULE, "app/Money.php": ""})
    before = sorted(tmp_path.rglob("*"))
    assert check(plain) == check(plain, "--no-cache") == check(plain)
    assert sorted(tmp_path.rglob("*")) == before  # nothing written in the user's tree


def test_a_failed_run_is_not_kept(billing: Path) -> None:
    assert check(billing, "--format", "sarif", "--json")[0] == 2
    assert check(billing, "--drift-after", "-1")[0] == 2
    assert kept(billing) == {}


@pytest.mark.parametrize("args, root", [
    (["check"], (None,)), (["--root", "x", "check", "-q"], ("x",)), (["check", "--root=y", "--json"], ("y",)),
    (["-q", "check", "--format", "json", "--fail-on", "info", "--drift-after", "3"], (None,)),
])
def test_the_command_lines_the_fast_path_reads(args: list[str], root: tuple[str | None]) -> None:
    assert result_cache._parse(args) == root


@pytest.mark.parametrize("args", [["match", "check"], ["check", "--help"], ["check", "--ro", "x"],
                                  ["check", "--no-cache"], ["check", "extra"], ["check", "--root"], []])
def test_the_command_lines_it_leaves_to_argparse(args: list[str]) -> None:
    assert result_cache._parse(args) is None


def test_what_it_hands_the_full_run_is_what_git_would_answer(billing: Path) -> None:
    """The name search's view derived from the fast path's answers equals git's own answer, and
    those answers name the files of the file list (subfolder, untracked, changed, rules)."""
    from rulelens.workspace.filelist import git_files
    from rulelens.workspace.git import snapshot
    from rulelens.workspace.git_state import commands, outside

    write_tree(billing, {"app/Money.php": "<?php\n// changed\n", "app/New.php": "",
                         ".ai/rules/billing.md": RULE + "\nchanged\n", ".ai/rules/new.md": RULE,
                         ".ai/rules/boost/x.md": RULE, ".ai/rules-old.md": "", ".ai/z.md": "", "zz.php": ""})
    git(billing, "add", ".ai", "zz.php")
    (billing / ".ai/rules/boost/x.md").write_text("changed")
    for root in (billing, billing / "app"):
        listing_cmd, changed_cmd = commands()
        listed, changed, others = (git(root, *cmd).encode() for cmd in (
            listing_cmd, changed_cmd, ["ls-files", "-z", "-o", "--exclude-standard"]))
        derived = outside(listed, changed, ".ai/rules")
        direct = snapshot(root, ".ai/rules")
        assert direct is not None
        assert (derived.listing, derived.digest, derived.dirty, derived.count) == (
            direct.listing, direct.digest, direct.dirty, direct.count)
        paths = [e.partition(b"\t")[2].decode() for e in listed.split(b"\0") if e]
        assert sorted({*paths, *others.decode().split("\0")} - {""}) == sorted(git_files(root) or [])


@pytest.mark.parametrize("merged", [True, False])
def test_the_file_list_does_not_wait_for_diff_files(billing: Path, merged: bool) -> None:
    """In a fresh clone `diff-files` reads every file again (each is as new as the index): the
    file list, which needs only the listing, is handed over before it answers, and the key made
    once it has is the one made from the same answers read at once."""
    import threading

    from rulelens.workspace import git as git_module
    from rulelens.workspace.git_state import commands

    (billing / "app/New.php").write_text("")
    (billing / "app/Money.php").write_text("<?php\n// changed\n")
    root = str(billing)
    listing_cmd, changed_cmd = commands()
    others = ["ls-files", "-z", "-o", "--exclude-standard"]

    def pending(hold: int | None) -> result_cache.Pending:
        gate = ["sh", "-c", 'read go; exec git -C "$0" "$@"', root, *changed_cmd]
        changed = result_cache.spawn(gate, stdin=hold) if hold is not None else result_cache._spawn(root, changed_cmd)
        listed = result_cache._spawn(root, [*listing_cmd, *others[2:]] if merged else listing_cmd)
        return result_cache.Pending(root, str(billing / "kept"), result_cache.blake2b(), 0, 0, listed, changed,
                                    None if merged else result_cache._spawn(root, others), merged)

    read, write = os.pipe()
    held = pending(read)
    os.close(read)
    session = held.hand_over()
    listing: list[bytes | None] = []

    def file_list() -> None:
        answer = session.completed(root, *git_module.LS_FILES)
        listing.append(answer.stdout if answer is not None else None)

    try:
        reader = threading.Thread(target=file_list, daemon=True)
        reader.start()
        reader.join(30)  # a deadlock guard, not a timing: the file list needs nothing held back
        assert listing, "the file list waited for diff-files"
    finally:
        os.write(write, b"go\n")
        os.close(write)
    files = sorted(p for p in (listing[0] or b"").decode().split("\0") if p)
    assert files == sorted(p for p in git(billing, *git_module.LS_FILES).split("\0") if p)
    assert "app/New.php" in files
    at_once = pending(None)
    assert (held.tracked(), held.key()) == (at_once.tracked(), at_once.key())
    assert held.key() is not None
    (billing / "app/Money.php").write_text("<?php\n// changed again, and longer\n")
    assert pending(None).key() != held.key()  # a file that differs from the index is keyed by its stat


@pytest.mark.parametrize("extra", [b"", b"100644 " + b"1" * 40 + b" 0\tapp/a\tb.php\0"])
def test_the_rules_folder_cut_from_a_listing(extra: bytes) -> None:
    """The run of the folder's entries is cut out; a path holding a tab is read entry by entry."""
    from rulelens.workspace.git_state import outside

    def entry(path: str) -> bytes:
        return b"100644 " + b"0" * 40 + b" 0\t" + path.encode() + b"\0"

    paths = [".ai/rules-old.md", ".ai/rules/a.md", ".ai/rules/boost/b.md", ".ai/z.md", "app/x.php"]
    listing = b"".join(entry(p) for p in paths) + extra
    cut = outside(listing, b".ai/rules/a.md\0app/x.php\0", ".ai/rules/")
    assert cut.listing == entry(".ai/rules-old.md") + entry(".ai/z.md") + entry("app/x.php") + extra
    assert cut.dirty == {"app/x.php"}


# The kept answer's import budget: the modules a hit imports beyond those `rulelens --version`
# imports (the interpreter's start and whatever site's .pth files load are in both). A hit
# imports 11 (gc, _blake2, and nine small modules of rulelens's own with `os` alone: the
# workspace package, root, git_state, fast_hash, spawn, stat_stamp, command_word, answer_file,
# result_cache); pathlib, re, json, subprocess, argparse or the core would each take it well past.
HIT_BUDGET = 11  # modules in all: none to spare
OTHERS_BUDGET = 3  # of which not rulelens's own: the standard library's or a package's


def imported(root: Path, *args: str) -> tuple[tuple[int, str], set[str]]:
    """A run's code and output, and every module it imported (`-X importtime`)."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "rulelens", *args], cwd=root,
                         capture_output=True, text=True, check=False, env=ENV)
    assert "Traceback" not in out.stderr
    lines = [line for line in out.stderr.splitlines() if line.startswith("import time:")]
    return (out.returncode, out.stdout), {line.rpartition("|")[2].strip() for line in lines[1:]}


def within_budget(root: Path, budget: int = HIT_BUDGET) -> tuple[int, str]:
    """`check` in root, which must import no more than `budget` modules beyond `--version`."""
    answer, modules = imported(root, "check")
    extra = sorted(modules - imported(root, "--version")[1])
    others = [m for m in extra if m.partition(".")[0] != "rulelens"]
    assert "rulelens.check_project" not in extra, "a run in full, not the kept answer"
    assert len(extra) <= budget and len(others) <= OTHERS_BUDGET, (
        f"{len(extra)} modules (budget {budget}), {len(others)} not rulelens's "
        f"(budget {OTHERS_BUDGET}): {extra}")
    return answer


def test_a_kept_answer_stays_within_its_import_budget(billing: Path) -> None:
    first = check(billing)
    assert within_budget(billing) == first


def test_only_the_answers_written_last_are_kept(billing: Path) -> None:
    folder = billing / ".git/rulelens"
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(result_cache.KEPT + 2):
        (folder / f"check-old{n}").write_bytes(b"")
        os.utime(folder / f"check-old{n}", ns=(n * 10**9, n * 10**9))
    same_as_full(billing)
    names = set(kept(billing))
    assert len(names) == result_cache.KEPT and "check-old0" not in names and "check-old9" in names


def test_a_listing_too_long_to_hand_over_is_asked_from_git_again(billing: Path) -> None:
    """Past the hand-over limit (a 200,000-file index) the name search asks git itself, as a run
    without the cache does, and finds the same."""
    env = {**ENV, "RULELENS_TEST_HAND_OVER_BYTES": "1"}
    (billing / "app/Money.php").write_text("<?php\nclass Money {}\n")  # the name is gone
    cached = check(billing, env=env)
    assert cached == check(billing, "--no-cache", env=env)
    assert "stale-name" in cached[1]


# -- source files edited: git's view keys them, so every edit is a run in full ----------------
def run_timed(root: Path, *args: str) -> tuple[int, str, bool]:
    """`check`'s code and output, and whether it ran in full (the core was imported)."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "rulelens", "check", *args], cwd=root,
                         capture_output=True, text=True, check=False, env=ENV)
    assert "Traceback" not in out.stderr
    modules = {line.rpartition("|")[2].strip() for line in out.stderr.splitlines()}
    return out.returncode, out.stdout, "rulelens.check_project" in modules


def after_edit(root: Path, *args: str) -> tuple[int, str]:
    """The answer after an edit: a run in full, equal to one without the cache; and the next run
    is a plain hit with the same answer."""
    code, out, full = run_timed(root, *args)
    assert full, "an edit of a source file is a run in full"
    assert (code, out) == check(root, *args, "--no-cache")
    before = kept(root)
    assert check(root, *args) == (code, out)
    assert kept(root) == before, "the next run was answered from the cache"
    return code, out


def edit(path: Path, text: str) -> None:
    path.write_text(text)


@pytest.fixture
def holder(billing: Path) -> Path:
    """`billing`, where `LegacyPriceHelper` lives on in one other file only (a tracked one)."""
    write_tree(billing, {"app/Old.php": "<?php\n// LegacyPriceHelper is gone\n", "app/Other.php": "<?php\n"})
    git(billing, "add", "-A")
    git(billing, "commit", "-qm", "note")
    return billing


def test_an_edit_that_changes_no_searched_word_keeps_the_answer(holder: Path) -> None:
    _, before = same_as_full(holder)
    assert "stale-name" not in before
    for n in range(2):
        edit(holder / "app/Other.php", f"<?php\n// edit {n}\n")
        _, out = after_edit(holder)
        assert out == before
    edit(holder / "app/Old.php", "<?php\n// LegacyPriceHelper is gone, yes\n")  # the holder, still holding
    _, out = after_edit(holder)
    assert out == before


def test_an_edit_that_removes_the_only_holder_of_a_name(holder: Path) -> None:
    _, before = same_as_full(holder)
    edit(holder / "app/Old.php", "<?php\n// gone\n")
    _, after = after_edit(holder)
    assert "stale-name" not in before and "stale-name" in after


def test_an_edit_that_adds_a_missing_name(billing: Path) -> None:
    _, before = same_as_full(billing)
    edit(billing / "app/Money.php", "<?php\nclass Money {}\n// LegacyPriceHelper\n")
    _, after = after_edit(billing)
    assert "stale-name" in before and "stale-name" not in after
    edit(billing / "app/Money.php", "<?php\nclass Money {}\n// LegacyPriceHelpers\n")  # not the whole word
    _, again = after_edit(billing)
    assert again == before


def test_two_files_edited(holder: Path) -> None:
    _, before = same_as_full(holder)
    edit(holder / "app/Other.php", "<?php\n// LegacyPriceHelper moved here\n")
    edit(holder / "app/Old.php", "<?php\n")
    _, out = after_edit(holder)
    assert out == before  # the name moved from one file to the other
    edit(holder / "app/Other.php", "<?php\n// moved on\n")
    edit(holder / "app/Money.php", "<?php\nclass Money {}\n// edited\n")
    _, after = after_edit(holder)
    assert "stale-name" in after


def test_an_edit_added_to_the_index(holder: Path) -> None:
    _, before = same_as_full(holder)
    edit(holder / "app/Other.php", "<?php\n// staged\n")
    git(holder, "add", "app/Other.php")
    _, out = after_edit(holder)
    assert out == before
    edit(holder / "app/Old.php", "<?php\n")
    git(holder, "add", "app/Old.php")
    _, after = after_edit(holder)
    assert "stale-name" in after


def test_an_untracked_file_edited(billing: Path) -> None:
    write_tree(billing, {"app/Draft.php": "<?php\n// LegacyPriceHelper\n"})
    _, before = same_as_full(billing)
    edit(billing / "app/Draft.php", "<?php\n// LegacyPriceHelper, still\n")
    _, out = after_edit(billing)
    assert out == before and "stale-name" not in out
    edit(billing / "app/Draft.php", "<?php\n// nothing\n")
    _, after = after_edit(billing)
    assert "stale-name" in after


def test_a_file_renamed(holder: Path) -> None:
    """The name's one holder moves where git ignores it: its text is the same, its file is not
    searched any more."""
    _, before = same_as_full(holder)
    (holder / "ignored").mkdir()
    (holder / "app/Old.php").rename(holder / "ignored/Old.php")
    _, after = after_edit(holder)
    assert "stale-name" not in before and "stale-name" in after
    (holder / "ignored/Old.php").rename(holder / "app/Older.php")
    _, back = after_edit(holder)
    assert back == before
    git(holder, "add", "-A")
    _, staged = after_edit(holder)
    assert staged == before


@pytest.mark.parametrize("other", [
    (".ai/rules/billing.md", RULE.replace("'app/**'", "'lib/**'")),
    ("CLAUDE.md", "# Project\n" + "Say it once.\n" * 300),
    ("rulelens.toml", '[severity]\nstale-name = "off"\n'),
])
def test_a_file_the_run_reads_edited_with_a_source_file(billing: Path, other: tuple[str, str]) -> None:
    """A rule file, an agent's file, the configuration, git's ignores: each is read by the run
    itself (or by git for it), so an edit of one is a run in full, also beside a source edit."""
    _, before = same_as_full(billing, "--format", "json")
    edit(billing / "app/Money.php", "<?php\nclass Money {}\n// edited\n")
    write_tree(billing, {other[0]: other[1]})
    _, after = after_edit(billing, "--format", "json")
    assert after != before


def test_an_edit_of_gitignore(billing: Path) -> None:
    """git's ignores are read by git, not by the run: a path a rule names that git ignores is
    not stale."""
    edit(billing / ".ai/rules/billing.md", RULE + "\nThe old helper lived in `app/LegacyPriceHelper.php`.\n")
    write_tree(billing, {"app/.gitignore": "*.log\n"})
    git(billing, "add", "-A")
    _, before = same_as_full(billing)
    edit(billing / "app/.gitignore", "*.log\nLegacy*\n")  # holds no name a rule mentions
    _, after = after_edit(billing)
    assert "stale-path" in before and "stale-path" not in after


def test_a_name_held_through_a_symbolic_link(holder: Path) -> None:
    """A link shows its target's text: when the target loses the name, so does the link, though
    git sees the link unchanged."""
    (holder / "app/Link.php").symlink_to("Old.php")
    git(holder, "add", "-A")
    git(holder, "commit", "-qm", "link")
    _, before = same_as_full(holder)
    edit(holder / "app/Old.php", "<?php\n")
    _, after = after_edit(holder)
    assert "stale-name" not in before and "stale-name" in after


def test_git_s_folder_read_as_git_answers(billing: Path) -> None:
    """Where `.git` is a plain folder the fast path reads `HEAD` and the paths itself; they are
    what `git rev-parse` answers: a branch, a packed branch, a detached HEAD; a worktree asks git."""
    def asked(root: Path) -> list[str]:
        return git(root, "rev-parse", "--path-format=absolute",
                   *(a for p in result_cache.GIT_PATHS for a in ("--git-path", p)), "HEAD").split("\n")[:-1]

    root = str(billing)
    assert git_state.plain_git(root, result_cache.GIT_PATHS) == asked(billing)
    git(billing, "pack-refs", "--all")
    assert not list((billing / ".git/refs/heads").iterdir())
    assert git_state.plain_git(root, result_cache.GIT_PATHS) == asked(billing)
    git(billing, "checkout", "-q", "--detach")
    assert git_state.plain_git(root, result_cache.GIT_PATHS) == asked(billing)
    git(billing, "worktree", "add", "-q", str(billing.parent / "wt"))
    assert git_state.plain_git(str(billing.parent / "wt"), result_cache.GIT_PATHS) is None


def test_a_name_held_only_through_a_linked_rule_file(billing: Path) -> None:
    """`.claude/rules/` linking to the rules folder (a common layout): the link holds the rule's
    names for the search; an edit elsewhere leaves the answer as it was."""
    (billing / ".claude/rules").mkdir(parents=True)
    (billing / ".claude/rules/billing.md").symlink_to("../../.ai/rules/billing.md")
    git(billing, "add", "-A")
    git(billing, "commit", "-qm", "link the rules")
    _, before = same_as_full(billing)
    edit(billing / "app/Money.php", "<?php\nclass Money {}\n// edited\n")
    _, after = after_edit(billing)
    assert after == before


def _answered_from_the_kept_answer(holder: Path, env: dict[str, str]) -> None:
    """The answer equals a run in full, and the next run prints it again without the core; after
    an edit, again."""
    for _ in range(2):
        cached = check(holder, env=env)
        assert cached == check(holder, "--no-cache", env=env)
        answer, modules = check_importing(holder, env)
        assert answer == cached and "rulelens.check_project" not in modules
        edit(holder / "app/Other.php", "<?php\n// edited\n")


def test_one_git_lists_the_index_and_the_untracked_files(billing: Path) -> None:
    """`ls-files -s -o` split where the index's entries start is `ls-files -s` and `ls-files -o`,
    from the root and from a subfolder, with an unmerged path and names git must not confuse."""
    write_tree(billing, {"0 first.php": "", "app/New.php": "", "zz\ttab.php": "", "app/a b.php": ""})
    git(billing, "add", "app/a b.php")
    blob = git(billing, "hash-object", "-w", "app/Money.php").strip()
    git(billing, "update-index", "--index-info", input_=f"100644 {blob} 1\tapp/Conflict.php\n"
        f"100644 {blob} 2\tapp/Conflict.php\n")
    for root in (billing, billing / "app"):
        merged = git(root, "ls-files", "-z", "-s", *git_state.OTHERS[2:]).encode()
        listed = git(root, "ls-files", "-z", "-s").encode()
        others = git(root, *git_state.OTHERS).encode()
        assert git_state.split_listing(str(root), merged) == (listed, others)
    assert git_state.split_listing(str(billing), b"a\0b\0") == (b"", b"a\0b\0")


def test_an_untracked_file_named_like_an_index_entry(billing: Path) -> None:
    """A file whose name has the form of an index entry is not taken for one: the run is in full
    and its answer is the full run's."""
    name = "100644 " + "1" * 40 + " 0\tapp\\Fake.php"
    write_tree(billing, {name: "<?php\n// LegacyPriceHelper\n"})
    merged = git(billing, "ls-files", "-z", "-s", *git_state.OTHERS[2:]).encode()
    assert git_state.split_listing(str(billing), merged) == (None, None)
    assert check(billing) == check(billing, "--no-cache")
    assert check(billing) == check(billing, "--no-cache")


def test_a_larger_index_is_listed_apart(holder: Path) -> None:
    """Past SMALL_INDEX the index and the untracked files are listed by two gits: the same
    answers, kept and printed again."""
    env = {**ENV, "RULELENS_TEST_SMALL_INDEX": "1"}
    _answered_from_the_kept_answer(holder, env)
