"""Issue 44: `check`'s findings are ones a maintainer acts on. Noise is `info` (or gone), a miss is
a finding, and each says where its fix belongs; every case here failed on the code before it."""

from __future__ import annotations

from pathlib import Path

from rulelens.check_project import check_project
from rulelens.rules.model import Problem
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory
from tests.git_repo import commit


def _check(root: Path) -> list[Problem]:
    return check_project(RuleRepository(root)).problems


def _of(problems: list[Problem], code: str, file: str | None = None) -> list[Problem]:
    return [p for p in problems if p.code == code and (file is None or p.file == file)]


# 1. One warning per dead alternative


SIX = ('---\nglobs: "**/*.ts,**/*.tsx,**/*.vue,**/*.svelte,**/*.astro,**/*.mjs"\n'
       "alwaysApply: false\n---\n# Front end\n")


def test_dead_alternatives_of_a_rule_that_still_loads_are_one_info(project: ProjectFactory) -> None:
    root = project({"src/a.ts": "", "src/b.tsx": "", ".cursor/rules/front.mdc": SIX})
    found = _of(_check(root), "agent-glob-matches-nothing", ".cursor/rules/front.mdc")
    assert [p.severity for p in found] == ["info"]
    assert "4 of 6 patterns match no file here" in found[0].message
    assert "`**/*.vue`" in found[0].message


def test_a_rule_that_loads_for_no_file_is_still_a_warning(project: ProjectFactory) -> None:
    root = project({"src/a.py": "", ".cursor/rules/front.mdc": SIX})
    found = _of(_check(root), "agent-glob-matches-nothing", ".cursor/rules/front.mdc")
    assert [p.severity for p in found] == ["warning"]  # one per rule file, naming its dead globs
    assert "`**/*.ts`, `**/*.tsx`, `**/*.vue`, `**/*.svelte`, `**/*.astro` and `**/*.mjs`" in found[0].message


def test_boost_rules_dead_globs_beside_a_live_one_are_one_info(project: ProjectFactory) -> None:
    rule = "---\npaths:\n  - 'app/**'\n  - 'gone/**'\n  - 'old/**'\n---\n# App\n\n## One\nNote.\n"
    root = project({"app/a.php": "", ".ai/rules/app.md": rule})
    found = _of(_check(root), "glob-matches-nothing")
    assert [(p.severity, p.line) for p in found] == [("info", 3)]  # 0-based: the first dead glob
    assert "2 of 3 globs match no file here" in found[0].message


# 2. Boost's findings in projects that do not use Boost

APPLY_TO = "---\napplyTo: 'src/**'\n---\n# Src\n\n## One\nNote.\n"


def test_boosts_findings_are_info_where_the_project_shows_no_sign_of_boost(project: ProjectFactory) -> None:
    root = project({"src/a.cs": "", ".ai/rules/src.md": APPLY_TO})
    found = {p.code: p for p in _check(root) if p.code in ("paths-key-other", "index-missing")}
    assert set(found) == {"paths-key-other", "index-missing"}
    for p in found.values():
        assert p.severity == "info"
        assert "no sign of Laravel Boost" in p.message


def test_boosts_findings_stay_warnings_where_the_project_uses_boost(project: ProjectFactory) -> None:
    composer = '{"require-dev": {"laravel/boost": "^1.0"}}\n'
    root = project({"src/a.php": "", ".ai/rules/src.md": APPLY_TO, "composer.json": composer})
    found = {p.code: p.severity for p in _check(root)}
    assert found["paths-key-other"] == "warning"
    assert found["index-missing"] == "warning"


# 3. `rule-drift` counted in commits


def _busy(project: ProjectFactory, globs: str, first_day: int, last_day: int) -> Path:
    """A rule committed on `first_day` of May, then 25 commits on its files up to `last_day`."""
    root = project({".ai/rules/app.md": f"---\npaths:\n  - '{globs}'\n---\n# App\n\n## One\nNote.\n",
                    "lib/a.php": "", "lib/b.php": "", "docs/c.md": ""}, git=True)
    commit(root, "rule", f"2026-05-{first_day:02d}T08:00:00")
    for i in range(25):
        (root / "app").mkdir(exist_ok=True)
        (root / "app/x.php").write_text(str(i))
        commit(root, f"work {i}", f"2026-05-{last_day:02d}T09:{i:02d}:00")
    return root


def test_no_rule_drift_for_a_rule_days_old_in_a_busy_repository(project: ProjectFactory) -> None:
    root = _busy(project, "app/**", 1, 3)  # 25 commits in two days
    assert _of(_check(root), "rule-drift") == []


def test_rule_drift_for_a_rule_weeks_old(project: ProjectFactory) -> None:
    root = _busy(project, "app/**", 1, 28)
    (drift,) = _of(_check(root), "rule-drift")
    assert "(27 days ago)" in drift.message


def test_no_rule_drift_for_a_rule_about_every_file(project: ProjectFactory) -> None:
    root = _busy(project, "**", 1, 28)
    assert _of(_check(root), "rule-drift") == []


# 4. Generated files

GENERATED = ("---\napplyTo: 'src/**,gone/**'\n---\n<!-- Managed by copilot-cli. Do not edit manually. -->\n"
             "# Src\n")


def test_a_generated_file_s_findings_say_where_the_fix_belongs_and_fail_no_ci(project: ProjectFactory) -> None:
    root = project({"lib/a.ts": "", ".github/instructions/src.instructions.md": GENERATED})
    found = [p for p in _check(root) if p.file == ".github/instructions/src.instructions.md"]
    assert found and {p.severity for p in found} == {"info"}
    nothing = _of(found, "agent-glob-matches-nothing")
    assert nothing and all("Managed by copilot-cli. Do not edit manually." in p.message
                           and "in what generates it" in p.message for p in nothing)


def test_a_rule_that_advises_not_to_edit_is_not_generated() -> None:
    from rulelens.rules.check.generated import generated_marker

    assert generated_marker("# Migrations\n\n## Old ones\nDo not edit existing migrations.\n") is None
    assert generated_marker("<!-- Managed by copilot-cli. Do not edit manually. -->\n") == (
        "Managed by copilot-cli. Do not edit manually.")
    assert generated_marker("# AUTO-GENERATED by sync-rules\n") == "AUTO-GENERATED by sync-rules"


# 5. An AGENTS.md Claude Code never sees


MONOREPO: dict[str, str | bytes] = {
    "CLAUDE.md": "# Monorepo\n\nEach package has its own instructions.\n",
    "packages/api/CLAUDE.md": "@AGENTS.md\n", "packages/api/AGENTS.md": "# API\n\nUse the router.\n",
    "packages/web/CLAUDE.md": "@AGENTS.md\n", "packages/web/AGENTS.md": "# Web\n\nUse the store.\n",
    "packages/jobs/AGENTS.md": "# Jobs\n\nRetry twice.\n", "packages/jobs/run.ts": "",
}


def test_an_agents_md_without_a_claude_md_beside_it_is_unseen(project: ProjectFactory) -> None:
    root = project(MONOREPO)
    (found,) = _of(_check(root), "claude-agents-md-unseen")
    assert (found.file, found.severity) == ("packages/jobs/AGENTS.md", "warning")
    assert "`packages/jobs/CLAUDE.md` holding `@AGENTS.md`" in found.message


def test_without_a_root_claude_md_the_fallback_still_reads_no_folder_s_agents_md(project: ProjectFactory) -> None:
    """Claude Code 2.1.337 run end to end: its fallback reads the root's AGENTS.md, not a folder's
    (tests/conformance/e2e/test_claude_code_loading.py)."""
    root = project({k: v for k, v in MONOREPO.items() if k != "CLAUDE.md"})
    (found,) = _of(_check(root), "claude-agents-md-unseen")
    assert "fallback reads only the root's AGENTS.md" in found.message


# 6. An agent that loads the same text twice


def test_an_agent_that_loads_the_same_text_twice_is_a_check_finding(project: ProjectFactory) -> None:
    root = project({"AGENTS.md": "# Team\n\nRun the tests before every commit, always.\n", "src/a.ts": ""})
    (root / "CLAUDE.md").symlink_to("AGENTS.md")
    found = _of(_check(root), "agent-same-text")
    assert found, "match --agents says so; check did not"
    (one,) = found  # one finding naming every agent that reads both
    assert one.file == "CLAUDE.md" and one.severity == "info"
    assert "a link to it" in one.message and "the one line `@AGENTS.md`" in one.message


def test_two_claude_md_that_import_their_own_folder_s_agents_md_are_not_the_same_text(
        project: ProjectFactory) -> None:
    stub = "# Instructions\n\n@AGENTS.md\n"
    root = project({"CLAUDE.md": stub, "AGENTS.md": "# Root\n\nThe whole repository's rules go here.\n",
                    "pkg/CLAUDE.md": stub, "pkg/AGENTS.md": "# Pkg\n\nThis package's own rules go here.\n",
                    "pkg/a.ts": ""})
    assert _of(_check(root), "agent-same-text") == []


# 7. `init --claude` maps the extensions the rules reach when it runs


def test_a_rule_that_reaches_a_new_extension_after_init_claude_is_said(project: ProjectFactory) -> None:
    from rulelens.setup.init_project import init_project

    rule = "---\npaths:\n  - 'app/**/*.php'\n---\n# App\n\n## One\nNote.\n"
    root = project({"app/a.php": "", "web/b.ts": "", ".ai/rules/app.md": rule})
    init_project(root, mcp=False, claude=True)
    assert _of(_check(root), "claude-plugin-extensions") == []
    (root / ".ai/rules/web.md").write_text("---\npaths:\n  - 'web/**'\n---\n# Web\n\n## One\nNote.\n")
    (found,) = _of(_check(root), "claude-plugin-extensions")
    assert found.file == ".claude/skills/rulelens/.lsp.json" and found.severity == "warning"
    assert "`.ts`" in found.message and "rulelens init --claude" in found.message
    init_project(root, mcp=False, claude=True)
    assert _of(_check(root), "claude-plugin-extensions") == []


# Found wrong when tried as a new user would


def test_alwaysapply_the_string_false_is_not_told_to_become_true(project: ProjectFactory) -> None:
    root = project({"src/a.ts": "",
                    ".cursor/rules/off.mdc": '---\nglobs: "src/**"\nalwaysApply: "false"\n---\n# Off\n',
                    ".cursor/rules/on.mdc": '---\nalwaysApply: "true"\n---\n# On\n'})
    found = {p.file: p for p in _of(_check(root), "cursor-alwaysapply-string")}
    off, on = found[".cursor/rules/off.mdc"], found[".cursor/rules/on.mdc"]
    assert off.severity == "info" and "alwaysApply: true" not in off.message
    assert "`alwaysApply: false` without quotes" in off.message
    assert on.severity == "warning" and "`alwaysApply: true` without quotes" in on.message


BROKEN = "---\npaths:\n  - **/*.php\n---\n# PHP\n\n## One\nNote.\n"


def test_index_says_when_it_leaves_out_the_row_of_a_rule_with_invalid_yaml(project: ProjectFactory) -> None:
    import subprocess
    import sys

    root = project({"app/a.php": "", ".ai/rules/php.md": BROKEN,
                    ".ai/rules/app.md": "---\npaths:\n  - 'app/**'\n---\n# App\n\n## One\nNote.\n"})
    done = subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "index"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "has no row for it: .ai/rules/php.md has invalid frontmatter (line 3)" in done.stderr
    (root / ".ai/rules/index.md").unlink()
    (missing,) = _of(_check(root), "index-missing")
    assert "php.md has invalid frontmatter" in missing.message


def test_frontmatter_invalid_says_what_match_reads(project: ProjectFactory) -> None:
    root = project({"app/a.php": "", ".ai/rules/php.md": BROKEN,
                    ".ai/rules/tab.md": "---\n\tpaths:\n  - 'app/**'\n---\n# Tab\n\n## One\nNote.\n"})
    found = {p.file: p.message for p in _of(_check(root), "frontmatter-invalid")}
    assert "still shows its rules" not in " ".join(found.values())
    assert "`rulelens match` reads its globs as written (`**/*.php`)" in found[".ai/rules/php.md"]
    assert "`rulelens match` reads no globs from it either" in found[".ai/rules/tab.md"]


PHP_ANYWHERE = "---\npaths:\n  - '*.php'\n---\n# PHP\n\n## One\nNote.\n"


def test_glob_dialect_says_what_claude_code_s_matcher_does(project: ProjectFactory) -> None:
    root = project({"app/a.php": "", ".ai/rules/php.md": PHP_ANYWHERE})
    (hint,) = _of(_check(root), "glob-dialect")
    at_depth, _, at_root = hint.message.partition("own rule files, ")[2].partition(";")
    assert "Claude Code" in at_depth and "at any depth" in at_depth
    assert "Claude Code" not in at_root and "Cline" in at_root


def test_no_glob_dialect_where_the_project_s_agents_all_read_it_at_any_depth(project: ProjectFactory) -> None:
    root = project({"app/a.php": "", ".ai/rules/php.md": PHP_ANYWHERE, "CLAUDE.md": "# Team\n\nBe brief.\n",
                    ".claude/rules/php.md": "---\npaths: '*.php'\n---\n# PHP\n"})
    assert _of(_check(root), "glob-dialect") == []


# Confusing


def test_match_leads_with_what_the_agents_load_where_no_ai_rules_file_applies(project: ProjectFactory) -> None:
    import subprocess
    import sys

    root = project({"AGENTS.md": "# Team\n\nRun the tests before every commit.\n", "src/a.ts": ""})
    out = subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "match", "src/a.ts"],
                         capture_output=True, text=True, check=False)
    first = out.stdout.splitlines()[0]
    assert "0 rule files apply" not in first
    assert first.startswith("src/a.ts: 1 agent rule file loads for it (AGENTS.md)")


def test_a_named_file_that_is_not_here_stays_a_warning_beside_live_globs(project: ProjectFactory) -> None:
    rule = ('---\napplyTo: "src/**/*.ts,src/pages/JournalPageV2.tsx,docs/journal/**/*.md"\n---\n'
            "# Journal\n")
    root = project({"src/a.ts": "", ".github/instructions/journal.instructions.md": rule})
    found = _of(_check(root), "agent-glob-matches-nothing", ".github/instructions/journal.instructions.md")
    loud = [p for p in found if p.severity == "warning"]
    assert loud and all("`src/pages/JournalPageV2.tsx`" in p.message for p in loud)
    (quiet,) = [p for p in found if p.severity == "info"]
    assert "`docs/journal/**/*.md`" in quiet.message and "JournalPageV2" not in quiet.message


def test_init_in_a_boost_project_agrees_with_boost_s_record_rule(project: ProjectFactory) -> None:
    from rulelens.setup.init_project import init_project

    boost = ("<laravel-boost-guidelines>\n# Boost\n\n- Always use the `record-rule` tool to record "
             "project rules.\n</laravel-boost-guidelines>\n")
    root = project({"AGENTS.md": boost})
    init_project(root, mcp=False)
    text = (root / "AGENTS.md").read_text()
    assert "Record a rule only when the user asks you to" not in text
    assert "Laravel Boost's guidelines in this file ask you to record rules with `record-rule`" in text


def test_init_mcp_s_help_names_every_file_it_writes() -> None:
    from rulelens.cli.commands.init import OTHER_MCP_FILES
    from rulelens.setup.mcp_clients import OTHERS

    assert ", ".join(c.rel for c in OTHERS) == OTHER_MCP_FILES
    assert ".codex/config.toml" in (Path(__file__).parents[2] / "README.md").read_text()


def test_check_json_gives_the_column_the_text_gives(project: ProjectFactory) -> None:
    import json
    import subprocess
    import sys

    root = project({".ai/rules/a.md": "---\npaths:\n  - 'missing/**'\n---\n# A\n", "src/x.py": ""})
    run = [sys.executable, "-m", "rulelens", "--root", str(root), "check", "--no-cache"]
    text = subprocess.run(run, capture_output=True, text=True, check=False).stdout
    found = json.loads(subprocess.run([*run, "--json"], capture_output=True, text=True, check=False).stdout)
    nothing = next(p for p in found if p["code"] == "glob-matches-nothing")
    assert f".ai/rules/a.md:{nothing['line']}:{nothing['column']}: warning [glob-matches-nothing]" in text


def test_record_says_when_the_title_is_there_already_or_the_glob_is_covered(project: ProjectFactory) -> None:
    repo = RuleRepository(project({"app/Models/User.php": ""}))
    first = repo.record("app/**", "Money", "Cents.")
    assert (first.message, first.repeats) == ("Recorded rule in .ai/rules/app.md: Money.", ())
    again = repo.record("app/**", "money", "Integer cents.")
    assert again.message == "Recorded rule in .ai/rules/app.md: money."  # Boost's text, unchanged
    assert "already has an entry titled `Money` (line " in " ".join(again.repeats)
    covered = repo.record("app/Models/**", "Models", "Final.")
    assert "`app/**` in .ai/rules/app.md already covers `app/Models/**`" in " ".join(covered.repeats)


def test_map_html_names_the_project_not_its_local_path_and_reads_without_javascript(
        project: ProjectFactory) -> None:
    import subprocess
    import sys

    root = project({"src/api/a.ts": "", ".claude/rules/api.md": "---\npaths: 'src/api/**'\n---\n# API\n"})
    out = root.parent / "map.html"
    subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "map", "--html", str(out)],
                   capture_output=True, text=True, check=True)
    page = out.read_text()
    assert str(root) not in page and str(root.parent) not in page
    static = page[page.index("<noscript>"):page.index("</noscript>")]
    assert "src/api/" in static and "Claude Code" in static


def test_the_hover_groups_agents_that_load_the_same_files_and_names_skills_by_folder(
        project: ProjectFactory) -> None:
    from rulelens.agents.project import AgentProject
    from rulelens.lsp.views.other_agents import AgentLoads, section_plain

    skill = "---\nname: {0}\ndescription: Use for {0} work.\n---\n# {0}\n\nSteps.\n"
    root = project({"AGENTS.md": "# Team\n\nRun the tests before every commit.\n", "app/a.php": "",
                    ".claude/skills/pdf/SKILL.md": skill.format("pdf"),
                    ".claude/skills/docx/SKILL.md": skill.format("docx")})
    agents = AgentProject(RuleRepository(root))
    view = agents.view("app/a.php")
    found = [AgentLoads(a, view.loads.get(a.id, []), view.maybe.get(a.id, []), view.over_budget.get(a.id))
             for a in agents.present if a.id != "boost"]
    text = section_plain([x for x in found if x.loads])
    heads = [line for line in text.splitlines()[1:] if not line.startswith("  ")]
    assert len(heads) < len([x for x in found if x.loads])  # grouped
    assert any(" and " in head for head in heads)
    assert "SKILL.md, SKILL.md" not in text
    assert "pdf" in text or "docx" in text


def test_review_leads_with_what_the_agents_load_for_a_change_no_ai_rules_file_covers(
        project: ProjectFactory) -> None:
    import subprocess
    import sys

    from tests.git_repo import git

    root = project({"AGENTS.md": "# Team\n\nRun the tests before every commit.\n", "src/a.ts": "1"}, git=True)
    commit(root, "start")
    git(root, "checkout", "-q", "-b", "work")
    (root / "src/a.ts").write_text("2")
    commit(root, "change")
    default = git(root, "rev-parse", "HEAD~1").strip()
    out = subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "review", "--base", default],
                         capture_output=True, text=True, check=False).stdout
    assert "The agents' own rule files load for them: AGENTS.md." in out, out
    assert "Only .ai/rules is read" not in out


def test_agents_md_unseen_in_many_folders_is_one_finding_naming_them(project: ProjectFactory) -> None:
    """One cause (the folders lack a CLAUDE.md), one finding: a template's 33 folders were 33 warnings."""
    extra = {f"docs/{lang}/guide/AGENTS.md": "# Guide\n\nShort pages.\n" for lang in ("de", "fr", "it", "ja")}
    root = project({**MONOREPO, **extra})
    (found,) = _of(_check(root), "claude-agents-md-unseen")
    assert (found.file, found.severity) == ("docs/de/guide/AGENTS.md", "warning")
    assert "nor 4 other AGENTS.md" in found.message and "5 folders" in found.message
    assert "`docs/de/guide/`, `docs/fr/guide/`, `docs/it/guide/` and 2 more" in found.message
