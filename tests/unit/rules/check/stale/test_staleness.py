"""Staleness findings without git: the mentions a rule makes, stale-path against a file list,
and no stale-name or rule-drift where there is no history."""

from __future__ import annotations

from pathlib import Path

from rulelens.rules.check.rules_check import check_rules
from rulelens.rules.check.stale.mentions import find_mentions, identifier_in, path_in
from rulelens.rules.check.stale.text_search import file_search
from rulelens.rules.format.reading import read_rule_file
from rulelens.rules.repository import RuleRepository
from rulelens.workspace.filelist import FileList
from tests.conftest import ProjectFactory
from tests.stale_rules import HIDING_TEXT, codes, hidden_words_are_found, rule_text


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


def test_boost_files_get_no_staleness_findings(project: ProjectFactory) -> None:
    root = project({".ai/rules/boost/laravel.md": "## Models\nSee `app/Models/Gone.php` and `GoneHelper`.\n",
                    "app/x.php": "<?php\n"})
    assert codes(check_rules(RuleRepository(root), FileList.for_root(root)), "stale-path", "stale-name") == []


def test_a_word_hidden_by_an_overlapping_match_is_still_found(tmp_path: Path) -> None:
    (tmp_path / "a.php").write_text(HIDING_TEXT)
    hidden_words_are_found(file_search(tmp_path, ["a.php"]))


def test_no_rule_drift_outside_git(project: ProjectFactory) -> None:
    root = project({".ai/rules/billing.md": rule_text("Note."), "app/x.php": ""})
    assert codes(check_rules(RuleRepository(root), FileList.for_root(root), drift_after=1), "rule-drift") == []
