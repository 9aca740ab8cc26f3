"""The history caches brought up to a new HEAD (evidence.py, drift.py, `git.linear_range`): after
each new commit, what the kept cache plus the new commits give must be what a read of the whole
history gives, and the range must be read only when HEAD extends the kept commit without a merge."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from rulelens.rules.check.rules_check import check_rules
from rulelens.rules.check.stale import drift, evidence
from rulelens.rules.check.stale.drift import HISTORY_CACHE, TOUCHED_CACHE, _read_commits
from rulelens.rules.check.stale.evidence import CACHE, Evidence
from rulelens.rules.model import Problem
from rulelens.rules.repository import RuleRepository
from rulelens.workspace.cache_files import cache_file
from rulelens.workspace.filelist import FileList
from rulelens.workspace.git import linear_range
from tests.git_repo import commit, git
from tests.integration.rules.check.stale.test_drift_log import whole_log
from tests.stale_rules import rule_text

NAMES = ["Money", "LegacyHelper", "OldGateway", "charge", "roundCents", "Twice", "Moved", "Never"]
RULE = rule_text("Use `Money::fromCents()`, `LegacyHelper`, `OldGateway::charge()`, `roundCents()`,\n"
                 "`Twice`, `Moved` and `Later`. See `app/Legacy.php`, `docs/old/` and `side/gone.txt`.")


class Repo:
    """A repository whose history caches are compared with a read in full after each commit."""

    def __init__(self, top: Path, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.top, self.root, self.day, self.limit = top, root, 0, 4
        self.ranges: dict[str, list[int | None]] = {"evidence": [], "drift": []}  # `linear_range`'s answers

        def spy(module: str) -> Any:
            def answer(*args: Any) -> int | None:
                found = linear_range(*args)
                self.ranges[module].append(found)
                return found
            return answer

        read = drift.History.read  # `check` reads the window of `self.limit` commits
        monkeypatch.setattr(drift.History, "read", lambda root, rules_dir, git=None: read(root, rules_dir, self.limit, git))
        monkeypatch.setattr(evidence, "linear_range", spy("evidence"))
        monkeypatch.setattr(drift, "linear_range", spy("drift"))
        self.brought_up = 0  # drift's kept `touched` answers brought up to new commits
        bring = drift.History._brought_up

        def counted(history: drift.History, *args: Any) -> Any:
            self.brought_up += 1
            return bring(history, *args)

        monkeypatch.setattr(drift.History, "_brought_up", counted)

    def write(self, files: dict[str, str | None]) -> None:
        for rel, text in files.items():
            path = self.top / rel
            if text is None:
                path.unlink()
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)

    def commit(self, message: str, files: dict[str, str | None]) -> None:
        self.write(files)
        self.day += 1
        commit(self.top, message, f"2026-02-{self.day:02d}T10:00:00Z")

    def cache(self, name: str) -> Path:
        where = cache_file(self.root, name)
        assert where is not None
        return where

    def compare(self, names: list[str] = NAMES) -> tuple[int | str | None, ...]:
        """The kept caches brought up to HEAD, against reads in full (cache files deleted); the
        brought-up caches are then put back, so that the next commit extends them in turn.
        Returns what `linear_range` answered for the evidence and the history ("-": not asked)."""
        limit = self.limit
        for found in self.ranges.values():
            found.clear()
        kept = self.evidence(names)
        problems = self.check()  # drift's history brought up here (drift.json with it)
        drifted = _read_commits(self.root, ".ai/rules", limit)
        answered = tuple(found[0] if found else "-" for found in self.ranges.values())
        assert all(len(found) <= 1 for found in self.ranges.values())
        saved = {n: self.cache(n).read_bytes() for n in (CACHE, HISTORY_CACHE, TOUCHED_CACHE)
                 if self.cache(n).exists()}
        for name in saved:
            self.cache(name).unlink()
        full = self.evidence(sorted(kept[4]))  # the names asked so far, `check`'s among them
        assert kept[4] == full[4], {n: (kept[4].get(n), full[4].get(n)) for n in {*kept[4], *full[4]}
                                    if kept[4].get(n) != full[4].get(n)}
        assert kept == full
        fresh = _read_commits(self.root, ".ai/rules", limit)
        assert drifted is not None and fresh is not None and drifted[:3] == fresh[:3]
        assert drifted[0] == whole_log(self.root, ".ai/rules/", limit)
        for name in (CACHE, HISTORY_CACHE, TOUCHED_CACHE):
            self.cache(name).unlink(missing_ok=True)
        assert problems == self.check()
        if self.cache(TOUCHED_CACHE).exists():  # the rule's globs were looked up: the same answer kept
            assert saved.get(TOUCHED_CACHE) == self.cache(TOUCHED_CACHE).read_bytes()
        for name, data in saved.items():
            self.cache(name).write_bytes(data)
        return answered

    def check(self) -> list[Problem]:
        """`check`'s problems, with `rule-drift` from two commits on (the rule's globs look up
        the window's changed paths: drift.json)."""
        return check_rules(RuleRepository(self.root), FileList.for_root(self.root), drift_after=2)

    def evidence(self, names: list[str]) -> tuple[Any, ...]:
        found = Evidence.read(self.root, ".ai/rules")
        assert found is not None
        found.explain(names)
        found.save()
        return (found.commits, list(found.deleted.items()), list(found.folders.items()), found.by_name,
                found.names)


def start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sub: str = "") -> Repo:
    top = tmp_path / "repo"
    root = top / sub if sub else top
    git(tmp_path, "init", "-q", "-b", "main", str(top))
    repo = Repo(top, root, monkeypatch)
    at = f"{sub}/" if sub else ""
    repo.commit("Start", {
        f"{at}.ai/rules/billing.md": RULE,
        f"{at}app/Money.php": "<?php\nclass Money { public static function fromCents() {} }\n",
        f"{at}app/Legacy.php": "<?php\nclass LegacyHelper {}\n",
        f"{at}app/LegacyHelper.php": "<?php\n// helps\n",
        f"{at}app/Gw.php": "<?php\nclass OldGateway { function charge() {} }\n",
        f"{at}app/r.php": "<?php\nfunction roundCents() {}\nclass Twice {}\n",
        f"{at}app/m.php": "<?php\nclass Moved {}\n",
        f"{at}docs/old/a.md": "a\n",
        f"{at}docs/old/b.md": "b\n",
        "outside.txt": "x\n"})
    return repo


def test_linear_commits_extend_the_kept_history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Deletions, declaration removals, a name removed twice (once before the kept commit, once
    after), a declaration moved (removed and added in one commit), and a window cut to its limit."""
    repo = start(tmp_path, monkeypatch)
    repo.commit("Drop a doc and Twice", {"docs/old/a.md": None, "app/r.php": "<?php\nfunction roundCents() {}\n"})
    assert repo.compare() == ("-", "-")  # no cache yet
    repo.commit("Drop the legacy file", {"app/Legacy.php": None})
    assert repo.compare() == (1, 1)
    repo.commit("Rename the gateway", {"app/Gw.php": "<?php\nclass NewGateway { function pay() {} }\n"})
    repo.commit("Bring Twice back", {"app/r.php": "<?php\nfunction roundCents() {}\nclass Twice {}\n"})
    assert repo.compare() == (2, 2)
    repo.commit("Drop Twice again, and the other doc", {"app/r.php": "<?php\nfunction roundCents() {}\n",
                                                         "docs/old/b.md": None})
    repo.commit("Move a class", {"app/m.php": "<?php\n", "app/n.php": "<?php\nclass Moved {}\n"})
    repo.commit("Drop the helper's file", {"app/LegacyHelper.php": None})
    assert repo.compare() == (3, 3)
    repo.commit("Drop roundCents", {"app/r.php": "<?php\n"})
    # A name asked for the first time is read over the whole history, the others over the range.
    assert repo.compare([*NAMES, "Later", "NewGateway"]) == (1, 1)
    repo.commit("Touch a file outside", {"outside.txt": "y\n"})
    repo.limit = 20
    assert repo.compare([*NAMES, "Later", "NewGateway"]) == (1, "-")  # another window: read whole
    repo.commit("Touch the rule", {".ai/rules/billing.md": RULE + "\nMore.\n"})
    assert repo.compare([*NAMES, "Later", "NewGateway"]) == (1, 1)
    # A path the rule's look-up had not met (changed before the rule's last change) changed again.
    for message, files in [("Edit r", {"app/r.php": "<?php\n//\n"}), ("Edit Money", {"app/Money.php": "<?php\n"}),
                           ("Edit the gateway", {"app/Gw.php": "<?php\n//\n"}),
                           # A declaration removed after its name's file was: the file is named.
                           ("Declare LegacyHelper", {"app/h.php": "<?php\nclass LegacyHelper {}\n"}),
                           ("Drop LegacyHelper", {"app/h.php": "<?php\n"})]:
        repo.commit(message, files)
        assert repo.compare([*NAMES, "Later", "NewGateway"]) == (1, 1)
    assert repo.brought_up == 6  # drift.json extended after each range that kept the rule's look-up
    kept = Evidence.read(repo.root, ".ai/rules")
    assert kept is not None and kept.names["Twice"] is not None and kept.names["Twice"].subject.startswith(
        "Drop Twice again")
    assert kept.names["Moved"] is None and kept.names["LegacyHelper"] is not None


def test_a_merge_a_reset_and_a_rebase_read_the_whole_history(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A side branch whose commits are older than the main line's, merged; a merge that keeps
    one side's tree (`-s ours`, which hides the other side's commits from the log); a reset
    back; a rebased commit: each read in full, and the next linear commit extends it again."""
    repo = start(tmp_path, monkeypatch)
    repo.commit("Main one", {"app/Legacy.php": None})
    assert repo.compare() == ("-", "-")
    git(repo.top, "checkout", "-q", "-b", "side", "HEAD~1")
    repo.day -= 1  # the side's commits interleave with the main line's by date
    repo.commit("Side: drop the gateway", {"app/Gw.php": "<?php\n", "side/gone.txt": "x\n"})
    repo.commit("Side: drop a file", {"side/gone.txt": None})
    git(repo.top, "checkout", "-q", "main")
    repo.commit("Main two", {"docs/old/a.md": None})
    assert repo.compare() == (1, 1)
    git(repo.top, "merge", "-q", "--no-ff", "-m", "Merge side", "side")
    assert repo.compare() == (None, None)
    repo.commit("After the merge", {"app/r.php": "<?php\nclass Twice {}\n"})
    assert repo.compare() == (1, 1)
    git(repo.top, "checkout", "-q", "-b", "other", "HEAD~1")
    repo.commit("Other: drop Money", {"app/Money.php": "<?php\n"})
    git(repo.top, "checkout", "-q", "main")
    git(repo.top, "merge", "-q", "-s", "ours", "-m", "Merge other, keeping main", "other")
    assert repo.compare() == (None, None)
    git(repo.top, "reset", "-q", "--hard", "HEAD~2")
    assert repo.compare() == (None, None)
    repo.commit("To be rebased", {"app/m.php": "<?php\n"})
    assert repo.compare() == (1, 1)
    git(repo.top, "commit", "-q", "--amend", "-m", "Rebased")
    assert repo.compare() == (None, None)


def test_a_root_in_a_folder_of_the_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commits outside the root count for the range's size but not in the root's history."""
    repo = start(tmp_path, monkeypatch, "web")
    repo.commit("Drop a doc", {"web/docs/old/a.md": None})
    assert repo.compare() == ("-", "-")
    repo.commit("Outside only", {"outside.txt": "y\n"})
    repo.commit("Drop the gateway", {"web/app/Gw.php": "<?php\n", "outside.txt": None})
    assert repo.compare() == (2, 2)
    repo.commit("Drop Twice", {"web/app/r.php": "<?php\nfunction roundCents() {}\n"})
    assert repo.compare() == (1, 1)


def test_a_range_past_its_bound_is_read_in_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = start(tmp_path, monkeypatch)
    repo.limit = 2
    assert repo.compare() == ("-", "-")
    monkeypatch.setattr(evidence, "MAX_RANGE", 2)
    for n in range(3):
        repo.commit(f"Step {n}", {f"app/s{n}.php": "<?php\n"})
    assert repo.compare() == (None, None)  # 3 commits: past both bounds
    repo.commit("One more", {"app/s0.php": None})
    assert repo.compare() == (1, 1)


def test_a_kept_cache_for_a_commit_git_no_longer_has_is_read_in_full(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = start(tmp_path, monkeypatch)
    assert repo.compare() == ("-", "-")
    for name in (CACHE, HISTORY_CACHE):
        text = repo.cache(name).read_text()
        head = git(repo.top, "rev-parse", "HEAD").strip()
        repo.cache(name).write_text(text.replace(head, "0" * 40))
    repo.commit("Next", {"app/Legacy.php": None})
    assert repo.compare() == (None, None)


def test_a_shallow_clone_reads_its_history_in_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A shallow clone's history grows at its far end when deepened: its HEAD names no fixed
    history, so drift reads the log whole (and evidence reads none)."""
    repo = start(tmp_path, monkeypatch)
    for n in range(3):
        repo.commit(f"Step {n}", {f"app/s{n}.php": "<?php\n"})
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "2", f"file://{repo.top}", str(clone))
    assert _read_commits(clone, ".ai/rules", 10) is not None
    shutil.copy(clone / ".ai/rules/billing.md", clone / "app/copy.md")
    git(clone, "add", "-A")
    commit(clone, "Local", "2026-03-01T10:00:00Z")
    repo.ranges["drift"].clear()
    found = _read_commits(clone, ".ai/rules", 10)
    assert repo.ranges["drift"] == [] and found is not None and found[0] == whole_log(clone, ".ai/rules/", 10)
