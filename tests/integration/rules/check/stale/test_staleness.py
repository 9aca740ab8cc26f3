"""Staleness findings on a real git history and with GNU grep: stale-path, stale-name and
rule-drift."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelens.rules.check.rules_check import check_rules
from rulelens.rules.check.stale import evidence
from rulelens.rules.check.stale.drift import History, drift_problem
from rulelens.rules.check.stale.text_search import gnu_grep, grep_search
from rulelens.rules.format.reading import read_rule_file
from rulelens.rules.repository import RuleRepository
from rulelens.workspace.filelist import FileList
from tests.conftest import ProjectFactory
from tests.git_repo import commit, git
from tests.stale_rules import HIDING_TEXT, codes, hidden_words_are_found, rule_text


def test_git_ignored_and_local_files_are_not_stale(project: ProjectFactory) -> None:
    root = project({".ai/rules/env.md": rule_text("Copy `.env.example` to `.env`; logs go to storage/logs/app.log."),
                    ".gitignore": ".env\nstorage/logs/\n", ".env.example": "A=1\n", "app/x.php": ""},
                   git=True)
    assert codes(check_rules(RuleRepository(root), FileList.for_root(root)), "stale-path") == []


@pytest.mark.parametrize("slices", [1, 2, 3])
def test_stale_name_on_the_history_s_evidence(project: ProjectFactory, monkeypatch: pytest.MonkeyPatch,
                                              slices: int) -> None:
    """A class whose declaration a commit deleted is stale, with that commit in the message; a
    method of an installed dependency (in an ignored vendor/ folder), a naming-convention example,
    a name that was only ever used, and one never in the history are not."""
    rule = rule_text(
        "Use `Money::fromCents()`; `LegacyPriceHelper` rounds; call `OldGateway::charge`.\n"
        "Relations use `HasOne::ofMany()`. Name tests like `itDoesSomething()`.\n"
        "Call `formatLegacyCents()` as before. `NeverWritten` is not here.")
    root = project({
        ".ai/rules/billing.md": rule,
        ".gitignore": "vendor/\n",
        "app/Money.php": "<?php\nclass Money { public static function fromCents() {} }\n",
        "app/LegacyPriceHelper.php": "<?php\nfinal class LegacyPriceHelper {}\n",
        "app/Gateways.php": "<?php\nclass OldGateway { function charge() {} }\n",
        "app/View.php": "<?php\n// formats with formatLegacyCents($x) from the old theme\n",
        "vendor/laravel/HasOne.php": "<?php\nclass HasOne { public function ofMany() {} }\n",
    }, git=True)
    commit(root, "Start", "2026-01-05T10:00:00Z")
    (root / "app/LegacyPriceHelper.php").unlink()
    commit(root, "Drop the legacy helper", "2026-03-02T10:00:00Z")
    (root / "app/Gateways.php").write_text("<?php\nclass NewGateway { function pay() {} }\n")
    (root / "app/View.php").write_text("<?php\n")
    commit(root, "Rename the gateway", "2026-03-03T10:00:00Z")
    # The history's `log -G` split across as many processes (evidence.py `_removals`): the same.
    monkeypatch.setattr(evidence, "SPLIT_FROM", 1 if slices > 1 else 10**9)
    monkeypatch.setattr(evidence, "cores", lambda: slices)
    found = codes(check_rules(RuleRepository(root), FileList.for_root(root)), "stale-name")
    short = git(root, "log", "--format=%h", "-n3").split()
    assert [m for _, _, m in found] == [
        f"`LegacyPriceHelper`'s file `app/LegacyPriceHelper.php` was deleted in {short[1]} "
        '(2026-03-02, "Drop the legacy helper"); nothing declares it now.',
        f'`OldGateway::charge` was deleted in {short[0]} (2026-03-03, "Rename the gateway"); '
        "nothing declares it now.",
    ]


@pytest.mark.parametrize("slices", [1, 2, 4])
def test_the_newest_removal_is_named_however_the_history_is_split(
        project: ProjectFactory, monkeypatch: pytest.MonkeyPatch, slices: int) -> None:
    """A declaration removed, brought back and removed again: the newest removal is named, with
    the history's `log -G` in one process or split across several, each over a slice of it."""
    root = project({".ai/rules/billing.md": rule_text("Round with `roundCents()`."),
                    "app/a.php": "<?php\nfunction roundCents() {}\n"}, git=True)
    commit(root, "Start", "2026-01-05T10:00:00Z")
    for day, (message, text) in enumerate([("Drop it", "<?php\n"),
                                           ("Bring it back", "<?php\nfunction roundCents() {}\n"),
                                           ("Something else", None), ("Drop it again", "<?php\n")]):
        if text is None:
            (root / "app/b.php").write_text("<?php\n")
        else:
            (root / "app/a.php").write_text(text)
        commit(root, message, f"2026-02-0{day + 1}T10:00:00Z")
    monkeypatch.setattr(evidence, "SPLIT_FROM", 1 if slices > 1 else 10**9)
    monkeypatch.setattr(evidence, "cores", lambda: slices)
    found = codes(check_rules(RuleRepository(root), FileList.for_root(root)), "stale-name")
    newest = git(root, "log", "--format=%h", "-n1").strip()
    assert [m for _, _, m in found] == [
        f'`roundCents()` was deleted in {newest} (2026-02-04, "Drop it again"); nothing declares it now.']


def test_no_stale_name_without_git_history(project: ProjectFactory) -> None:
    """Without history nothing shows that an absent name was ever the project's."""
    root = project({".ai/rules/billing.md": rule_text("Use `LegacyPriceHelper` and `formatCents`."),
                    "resources/js/money.ts": "export function formatCents() {}\n"})
    assert codes(check_rules(RuleRepository(root), FileList.for_root(root)), "stale-name") == []
    git(root, "init", "-q")  # a work tree without a commit has no history either
    assert codes(check_rules(RuleRepository(root), FileList.for_root(root)), "stale-name") == []


def test_stale_path_on_the_history_s_evidence(project: ProjectFactory) -> None:
    """The classes of false `stale-path` found on real repositories, and the true one: a moved
    test folder is reported with the commit that moved it; a path in another repository, a file
    the rule asks for, a path inside a submodule and a file generated at run time (all never
    committed here) are not."""
    rule = rule_text(
        "Feature tests live in `tests/Feature/Billing/`; see `tests/Feature/Billing/PlanTest.php`.\n"
        "The docs site is built from `Documentation/web` in the Documentation repository.\n"
        "To enforce hooks, add `.claude/settings.json`.\n"
        "Follow `src/server/common/services/backend.js` in the frontend.\n"
        "Deploys rewrite `edge/upstream-active.conf` on the host.", "'app/**'")
    root = project({".ai/rules/testing.md": rule, "app/x.php": "<?php\n",
                    "tests/Feature/Billing/PlanTest.php": "<?php\n",
                    "docker/edge/upstream-active.conf.default": "upstream app {}\n",
                    "frontend/package.json": "{}\n"}, git=True)
    commit(root, "Start", "2026-01-05T10:00:00Z")
    git(root, "mv", "tests/Feature/Billing", "tests/Billing")
    commit(root, "Move the billing tests", "2026-02-01T10:00:00Z")
    found = codes(check_rules(RuleRepository(root), FileList.for_root(root)), "stale-path")
    moved = git(root, "log", "--format=%h", "-n1").strip()
    since = f'since {moved} (2026-02-01, "Move the billing tests")'
    assert [m for _, _, m in found] == [
        f"`tests/Feature/Billing/` is not in the project {since}. Moved to `tests/Billing`?",
        f"`tests/Feature/Billing/PlanTest.php` is not in the project {since}. Moved to "
        "`tests/Billing/PlanTest.php`?",
    ]


def test_the_history_is_read_only_for_what_is_missing(project: ProjectFactory) -> None:
    """A first run reads the history's deletions only when a rule mentions a path or a name that
    is not there (and not ignored): on a long history that pass is most of the run."""
    from rulelens.rules.check.stale.evidence import CACHE
    from rulelens.workspace.cache_files import cache_file

    root = project({".ai/rules/billing.md": rule_text(
                        "Prices go through `app/Money.php` and `Money::fromCents()`; `.env` holds keys."),
                    ".gitignore": ".env\n",
                    "app/Money.php": "<?php\nclass Money { public static function fromCents() {} }\n",
                    "app/Old.php": "<?php\nclass OldPrice {}\n"}, git=True)
    commit(root, "Start", "2026-01-05T10:00:00Z")
    (root / "app/Old.php").unlink()
    commit(root, "Drop the old price", "2026-02-01T10:00:00Z")
    where = cache_file(root, CACHE)
    assert where is not None

    def stale() -> list[tuple[str, int, str]]:
        return codes(check_rules(RuleRepository(root), FileList.for_root(root)), "stale-path", "stale-name")

    assert stale() == [] and not where.exists()  # everything named is there, or ignored
    rule = root / ".ai/rules/billing.md"
    rule.write_text(rule_text("Prices go through `app/Money.php`; `OldPrice` rounds."))
    assert [m for _, _, m in stale()] == [
        f"`OldPrice` was deleted in {git(root, 'log', '--format=%h', '-n1').strip()} "
        '(2026-02-01, "Drop the old price"); nothing declares it now.']
    assert where.exists()


def test_a_word_hidden_by_an_overlapping_match_is_still_found_by_grep(tmp_path: Path) -> None:
    grep = gnu_grep()
    if grep is None:
        pytest.skip("no GNU grep")
    (tmp_path / "a.php").write_text(HIDING_TEXT)
    hidden_words_are_found(grep_search(tmp_path, ["a.php"], grep))


def test_rule_drift_counts_commits_on_the_rule_s_files_since_it_changed(project: ProjectFactory) -> None:
    root = project({".ai/rules/billing.md": rule_text("Note.", "'app/Billing/**'"),
                    ".ai/rules/other.md": rule_text("Note.", "'lib/**'"), "lib/x.php": "0"}, git=True)
    commit(root, "rules", "2026-03-02T10:00:00")
    for i in range(4):
        (root / "app" / "Billing").mkdir(parents=True, exist_ok=True)
        (root / "app" / "Billing" / "Invoice.php").write_text(str(i))
        commit(root, f"billing {i}", f"2026-04-0{3 + i}T10:00:00")  # weeks after the rule
    files = FileList.for_root(root)
    found = codes(check_rules(RuleRepository(root), files, drift_after=4), "rule-drift")
    assert found == [("rule-drift", 6, "app/Billing/** changed in 4 commits since this file last changed "
                                       "on 2026-03-02 (35 days ago): review it.")]
    assert codes(check_rules(RuleRepository(root), FileList.for_root(root), drift_after=5), "rule-drift") == []
    assert codes(check_rules(RuleRepository(root), FileList.for_root(root), drift_after=0), "rule-drift") == []
    (root / ".ai" / "rules" / "billing.md").write_text(rule_text("Reviewed.", "'app/Billing/**'"))
    commit(root, "reviewed", "2026-04-09T10:00:00")
    assert codes(check_rules(RuleRepository(root), FileList.for_root(root), drift_after=1), "rule-drift") == []


def test_the_commits_a_rule_s_globs_touched_are_kept_for_the_commit(project: ProjectFactory) -> None:
    """A second run on the same commit reads which commits each rule's globs touched from
    `rulelens/drift.json` (seen here by planting an answer there); other globs are a new key."""
    import json

    root = project({".ai/rules/billing.md": rule_text("Note.", "'app/Billing/**'"), "lib/x.php": "0"}, git=True)
    commit(root, "rules", "2026-03-02T10:00:00")
    for i in range(3):
        (root / "app" / "Billing").mkdir(parents=True, exist_ok=True)
        (root / "app" / "Billing" / "Invoice.php").write_text(str(i))
        commit(root, f"billing {i}", f"2026-04-0{3 + i}T10:00:00")  # weeks after the rule
    first = codes(check_rules(RuleRepository(root), FileList.for_root(root), drift_after=3), "rule-drift")
    assert [m for _, _, m in first] == ["app/Billing/** changed in 3 commits since this file last changed "
                                        "on 2026-03-02 (34 days ago): review it."]
    kept = root / ".git/rulelens/drift.json"
    raw = json.loads(kept.read_text())
    assert raw["touched"] == [[0, 1, 2]]
    raw["touched"] = [[0, 1]]  # what a run on this commit would read back
    kept.write_text(json.dumps(raw))
    assert codes(check_rules(RuleRepository(root), FileList.for_root(root), drift_after=3), "rule-drift") == []
    # The same file with other globs (read, not written: an edit on disk resets the count).
    other = read_rule_file(root / ".ai/rules/billing.md", ".ai/rules/billing.md", False,
                           raw=rule_text("Note.", "'app/**'").encode())
    history = History.read(root, ".ai/rules")
    assert history is not None
    history.cover_all([other], 3)
    again = drift_problem(other, history, 3)
    assert again is not None and again.message == ("app/** changed in 3 commits since this file last "
                                                   "changed on 2026-03-02 (34 days ago): review it.")


@pytest.mark.parametrize("stage", [False, True], ids=["saved", "staged"])
def test_any_edit_of_the_rule_file_resets_rule_drift(project: ProjectFactory, stage: bool) -> None:
    """The hint asks for a look at the rule: an edit says someone looked, before it is committed."""
    root = project({"web/lib/x.php": "0"}, git=True)
    rules = root / "web/.ai/rules"
    rules.mkdir(parents=True)
    (rules / "billing.md").write_text(rule_text("Note.", "'app/Billing/**'"))
    commit(root, "rules", "2026-03-02T10:00:00")
    for i in range(3):
        (root / "web/app/Billing").mkdir(parents=True, exist_ok=True)
        (root / "web/app/Billing/Invoice.php").write_text(str(i))
        commit(root, f"billing {i}", f"2026-04-0{3 + i}T10:00:00")  # weeks after the rule
    web = root / "web"  # a project in a subfolder of its repository: git's paths are the root's

    def drift() -> list[tuple[str, int, str]]:
        return codes(check_rules(RuleRepository(web), FileList.for_root(web), drift_after=3), "rule-drift")

    assert len(drift()) == 1
    (rules / "billing.md").write_text(rule_text("Reviewed: still true.", "'app/Billing/**'"))
    if stage:
        git(root, "add", "web/.ai/rules/billing.md")
    assert drift() == []
    git(root, "checkout", "HEAD", "--", "web/.ai/rules/billing.md")  # the edit undone: the hint is back
    assert len(drift()) == 1


def test_the_grep_probe_started_early_gives_the_same_answer() -> None:
    """`check` starts `grep --version` beside git's file list (`probe_grep`); `gnu_grep` reads it."""
    from rulelens.rules.check.stale import text_search

    gnu_grep.cache_clear()
    asked = gnu_grep()
    gnu_grep.cache_clear()
    text_search.probe_grep()
    assert text_search._PROBE
    assert gnu_grep() == asked
    assert not text_search._PROBE
    text_search.probe_grep()  # answered already: nothing to start
    assert not text_search._PROBE


def test_no_stale_name_when_the_listed_files_are_not_on_disk(project: ProjectFactory) -> None:
    """A file list alone (the corpus) says nothing about what the files contain."""
    root = project({".ai/rules/billing.md": rule_text("Use `LegacyPriceHelper`.")})
    assert codes(check_rules(RuleRepository(root), FileList(["app/x.php"])), "stale-name") == []
