"""Staleness findings: stale-path, stale-name, rule-drift, and merge conflicts."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from rulelens.rules.check.rules_check import check_rules
from rulelens.rules.check.stale import evidence
from rulelens.rules.check.stale.drift import History, drift_problem
from rulelens.rules.check.stale.mentions import find_mentions, identifier_in, path_in
from rulelens.rules.check.stale.text_search import file_search, gnu_grep, grep_search
from rulelens.rules.check.stale.words import present
from rulelens.rules.format.conflicts import conflict_lines
from rulelens.rules.format.reading import read_rule_file
from rulelens.rules.model import Problem, RuleError
from rulelens.rules.repository import RuleRepository
from rulelens.workspace.filelist import FileList
from tests.conftest import ProjectFactory

GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True,
                          env=GIT_ENV).stdout


def commit(root: Path, message: str, date: str | None = None) -> None:
    env = dict(GIT_ENV)
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-C", str(root), "commit", "-q", "--allow-empty", "-m", message],
                   check=True, env=env)


def rule_text(body: str, globs: str = "'app/**'") -> str:
    return f"---\npaths:\n  - {globs}\n---\n\n# Billing\n\n## The rule\n{body}\n"


def codes(problems: list[Problem], *wanted: str) -> list[tuple[str, int, str]]:
    return [(p.code, p.line + 1, p.message) for p in problems if p.code in wanted]


def test_what_reads_as_a_path_and_what_does_not() -> None:
    top = frozenset({"app", "bin", "config", "resources"})
    paths = ["app/Support/Currency.php", "app/Billing", "app/Billing/", "Models/User.php",
             "./bin/console", "/config/app.php", "config/billing.php:12", "edge/upstream.conf"]
    for text in paths:
        assert path_in(text, top, backticked=True) is not None, text
    not_paths = ["*_cents", "app/**", "app/*.php", "https://example.com/app/x.php", "and/or",
                 "application/json", "laravel/framework", "Vue.js", "path/to/file.php",
                 "app/Foo/Bar.php", "app/{Models,Actions}", "../outside.php", "integer", "1/2",
                 # bare names are kinds of files more often than claims: `.tsx`, `types.ts`
                 "webpack.mix.js", ".env", ".tsx", "types.ts",
                 # outside the project, or relative to a file: a system path, a URL path, an import
                 "/etc/nginx/site.conf", "/images/logo.png", "./utils"]
    for text in not_paths:
        assert path_in(text, top, backticked=True) is None, text
    # Without backticks, a bare file name is prose, and `text/html` is not a project path.
    assert path_in("composer.json", top, backticked=False) is None
    assert path_in("text/html", top, backticked=False) is None


def test_examples_and_prohibitions_are_not_claims(tmp_path: Path) -> None:
    body = ("One concept per file (e.g. `app/Concepts/AuthorId.php`).\n"
            "Never create `app/types.ts`; do not edit app/Generated/x.php. Use `app/Real.php`.\n"
            "Call `LegacyHelper` - such as `OtherHelper`.\n"
            "Resources live in `app/Resources`, not `app/Http/Resources`. There is no `app/Observers`.\n")
    (tmp_path / "r.md").write_text(rule_text(body))
    rule = read_rule_file(tmp_path / "r.md", ".ai/rules/r.md", False)
    assert [m.text for m in find_mentions(rule, frozenset({"app"}))] == ["app/Real.php", "LegacyHelper",
                                                                              "app/Resources"]


def test_what_looks_like_code() -> None:
    for text in ["LegacyPriceHelper", "formatCents", "created_at", "MAX_RETRIES", "Money::fromCents()",
                 "App\\Support\\Money", "\\App\\Models\\User", "route()", "User::class"]:
        assert identifier_in(text) is not None, text
    for text in ["integer", "final", "Money", "immutable", "x", "two words", "a-b"]:
        assert identifier_in(text) is None, text
    static = identifier_in("Money::fromCents()")
    assert static is not None and static.alternatives == (("Money::fromCents",), ("Money", "fromCents"))


def test_mentions_skip_fenced_code_and_the_frontmatter(tmp_path: Path) -> None:
    text = ("---\npaths:\n  - 'app/Gone/**'\n---\n\n# T\n\n## E\nUse `GoneHelper` and app/Gone/x.php.\n\n"
            "```php\n// app/Gone/y.php\n$a = new InBlockHelper();\n```\n\n    app/Gone/indented.php\n")
    (tmp_path / "r.md").write_text(text)
    rule = read_rule_file(tmp_path / "r.md", ".ai/rules/r.md", False)
    found = [(m.kind, m.text, m.line, m.col) for m in find_mentions(rule, frozenset({"app"}))]
    assert found == [("name", "GoneHelper", 8, 5), ("path", "app/Gone/x.php", 8, 21)]


def test_stale_path_suggests_where_a_file_of_the_same_name_moved(project: ProjectFactory) -> None:
    root = project({".ai/rules/billing.md": rule_text(
        "Round in `app/Support/Currency.php`; see app/Billing/Invoice.php, `Billing/Invoice.php`\n"
        "and `app/Http/Kernel.php`, and the folder `app/Legacy/`. Boot in `Bootstrap/app.php`.")})
    files = FileList(["app/Money/Currency.php", "app/Billing/Invoice.php", "app/Http/Kernel.php",
                      "src/Legacy/x.php", "lib/Legacy/y.php", "bootstrap/app.php", "config/app.php"])
    found = codes(check_rules(RuleRepository(root), files), "stale-path")
    assert found == [
        ("stale-path", 9, "`app/Support/Currency.php` is not in the project. Moved to "
                          "`app/Money/Currency.php`?"),
        ("stale-path", 10, "`app/Legacy/` is not in the project. Moved to `lib/Legacy` or `src/Legacy`?"),
        ("stale-path", 10, "`Bootstrap/app.php` is not in the project. Moved to `bootstrap/app.php`?"),
    ]


def test_what_the_corpus_showed_is_not_a_claim(project: ProjectFactory) -> None:
    """Found in the corpus: prose that only looks like a folder, paths the sentence says are
    absent or excluded, a hypothetical folder, and a path inside a submodule (a listed file)."""
    root = project({".ai/rules/billing.md": rule_text(
        "Keep public/review evidence apart.\n"
        "A missing `public/storage` symlink makes Laravel return 403.\n"
        "Any host without `public/cache` linked returns 403.\n"
        "The .dockerignore excludes `storage/devtools` and `.git`.\n"
        "A directory named `public/admin/` hides the route.\n"
        "Copy `frontend/src/server/client.js` for every new service.\n"
        "But the helper in `app/Gone.php` and the folder public/old/ are claims.")})
    files = FileList(["public/index.php", "storage/.gitignore", "frontend", "app/x.php"])
    found = [m.split("`")[1] for _, _, m in codes(check_rules(RuleRepository(root), files), "stale-path")]
    assert found == ["app/Gone.php", "public/old/"]


def test_stale_path_has_the_mention_s_columns(project: ProjectFactory) -> None:
    root = project({".ai/rules/billing.md": rule_text("Not here: `app/Gone.php`.")})
    (problem,) = [p for p in check_rules(RuleRepository(root), FileList(["app/x.php"])) if p.code == "stale-path"]
    assert (problem.line, problem.col, problem.end_col) == (8, 11, 23)
    assert problem.severity == "warning"


def test_git_ignored_and_local_files_are_not_stale(project: ProjectFactory) -> None:
    root = project({".ai/rules/env.md": rule_text("Copy `.env.example` to `.env`; logs go to storage/logs/app.log."),
                    ".gitignore": ".env\nstorage/logs/\n", ".env.example": "A=1\n", "app/x.php": ""},
                   git=True)
    assert codes(check_rules(RuleRepository(root), FileList.for_root(root)), "stale-path") == []


def test_boost_files_get_no_staleness_findings(project: ProjectFactory) -> None:
    root = project({".ai/rules/boost/laravel.md": "## Models\nSee `app/Models/Gone.php` and `GoneHelper`.\n",
                    "app/x.php": "<?php\n"})
    assert codes(check_rules(RuleRepository(root), FileList.for_root(root)), "stale-path", "stale-name") == []


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


def test_no_stale_name_when_the_listed_files_are_not_on_disk(project: ProjectFactory) -> None:
    """A file list alone (the corpus) says nothing about what the files contain."""
    root = project({".ai/rules/billing.md": rule_text("Use `LegacyPriceHelper`.")})
    assert codes(check_rules(RuleRepository(root), FileList(["app/x.php"])), "stale-name") == []


@pytest.mark.parametrize("kind", ["grep", "python"])
def test_a_word_hidden_by_an_overlapping_match_is_still_found(tmp_path: Path, kind: str) -> None:
    (tmp_path / "a.php").write_text("use App\\Support;\nx a::b::c y\n")
    grep = gnu_grep()
    if kind == "grep" and grep is None:
        pytest.skip("no GNU grep")
    search = grep_search(tmp_path, ["a.php"], grep) if grep and kind == "grep" else file_search(
        tmp_path, ["a.php"])
    assert search is not None
    # One scan reports non-overlapping matches only ...
    assert search(["App\\Support", "Support", "a::b", "b::c"]) == {"App\\Support", "a::b"}
    # ... and `present` finds the words they hid.
    found = present(search, ["App\\Support", "Support", "a::b", "b::c", "Missing"])
    assert found == {"App\\Support", "Support", "a::b", "b::c"}


def test_rule_drift_counts_commits_on_the_rule_s_files_since_it_changed(project: ProjectFactory) -> None:
    root = project({".ai/rules/billing.md": rule_text("Note.", "'app/Billing/**'"),
                    ".ai/rules/other.md": rule_text("Note.", "'lib/**'"), "lib/x.php": "0"}, git=True)
    commit(root, "rules", "2026-03-02T10:00:00")
    for i in range(4):
        (root / "app" / "Billing").mkdir(parents=True, exist_ok=True)
        (root / "app" / "Billing" / "Invoice.php").write_text(str(i))
        commit(root, f"billing {i}", f"2026-03-0{3 + i}T10:00:00")
    files = FileList.for_root(root)
    found = codes(check_rules(RuleRepository(root), files, drift_after=4), "rule-drift")
    assert found == [("rule-drift", 6, "app/Billing/** changed in 4 commits since this file last changed "
                                       "on 2026-03-02: review it.")]
    assert codes(check_rules(RuleRepository(root), FileList.for_root(root), drift_after=5), "rule-drift") == []
    assert codes(check_rules(RuleRepository(root), FileList.for_root(root), drift_after=0), "rule-drift") == []
    (root / ".ai" / "rules" / "billing.md").write_text(rule_text("Reviewed.", "'app/Billing/**'"))
    commit(root, "reviewed", "2026-03-09T10:00:00")
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
        commit(root, f"billing {i}", f"2026-03-0{3 + i}T10:00:00")
    first = codes(check_rules(RuleRepository(root), FileList.for_root(root), drift_after=3), "rule-drift")
    assert [m for _, _, m in first] == ["app/Billing/** changed in 3 commits since this file last changed "
                                        "on 2026-03-02: review it."]
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
                                                   "changed on 2026-03-02: review it.")


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
        commit(root, f"billing {i}", f"2026-03-0{3 + i}T10:00:00")
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


def test_no_rule_drift_outside_git(project: ProjectFactory) -> None:
    root = project({".ai/rules/billing.md": rule_text("Note."), "app/x.php": ""})
    assert codes(check_rules(RuleRepository(root), FileList.for_root(root), drift_after=1), "rule-drift") == []


CONFLICT = "<<<<<<< HEAD\n## Ours\nA.\n=======\n## Theirs\nB.\n>>>>>>> feature\n"


def test_conflict_markers_and_what_is_not_one() -> None:
    assert conflict_lines("# T\n\n" + CONFLICT) == [2]
    assert conflict_lines("<<<<<<< HEAD\nA\n||||||| base\nO\n=======\nB\n>>>>>>> x\n") == [0]
    assert conflict_lines("Title\n=======\n\nText\n") == []  # a heading underline
    assert conflict_lines("```text\n" + CONFLICT + "```\n") == []  # an example in a code block
    assert conflict_lines("<<<<<<< HEAD\nno middle or end\n") == []
    assert conflict_lines(CONFLICT.replace("\n", "\r\n")) == [0]


def test_check_reports_rule_and_index_conflicts(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": rule_text("x") + CONFLICT,
                    ".ai/rules/index.md": "# Project Rules Index\n" + CONFLICT})
    found = codes(check_rules(RuleRepository(root)), "rule-conflict", "index-conflict", "index-stale")
    assert [(c, line) for c, line, _ in found] == [("rule-conflict", 10), ("index-conflict", 2)]


def test_index_regenerates_a_conflicted_index(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": rule_text("x"), ".ai/rules/index.md": CONFLICT})
    repo = RuleRepository(root)
    assert repo.write_index() is True
    assert repo.current_index() == repo.index_text()
    assert "<<<<<<<" not in (root / ".ai/rules/index.md").read_text()


def test_index_refuses_while_a_rule_file_has_markers_and_writes_nothing(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": rule_text("x"), ".ai/rules/b.md": rule_text("y") + CONFLICT,
                    ".ai/rules/index.md": CONFLICT})
    with pytest.raises(RuleError, match=r"\.ai/rules/b\.md has merge conflict markers \(line 10\)"):
        RuleRepository(root).write_index()
    assert (root / ".ai/rules/index.md").read_text() == CONFLICT


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
