"""Issue 44, third round: the false classes a second reader found on projects nobody here tuned
on, each removed at its cause; every case here failed on the code before it."""

from __future__ import annotations

from pathlib import Path

from rulelens.check_project import check_project
from rulelens.rules.model import Problem
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory


def _check(root: Path) -> list[Problem]:
    return check_project(RuleRepository(root)).problems


def _loud(problems: list[Problem]) -> list[Problem]:
    return [p for p in problems if p.severity != "info"]


# 1. Files rulesync or ruler writes, known from the generator's configuration

ONLY_JS = "---\nglobs: ['**/*.js']\n---\n# Js\n\nUse semicolons.\n"


def test_files_rulesync_writes_are_generated_and_name_their_source(project: ProjectFactory) -> None:
    root = project({
        "rulesync.jsonc": '{"targets": ["claudecode", "copilot"], "features": ["rules"]}\n',
        ".rulesync/rules/api/js.md": ONLY_JS,
        ".claude/rules/api/js.md": "---\npaths: ['**/*.js']\n---\n# Js\n\nUse semicolons.\n",
        ".github/instructions/api/js.instructions.md": "---\napplyTo: '**/*.js'\n---\n# Js\n\nUse semicolons.\n",
        "src/a.py": "",
    })
    found = [p for p in _check(root) if p.file in (".claude/rules/api/js.md",
                                                     ".github/instructions/api/js.instructions.md")]
    assert found and not _loud(found)
    assert all("rulesync writes this file (rulesync.jsonc) from `.rulesync/rules/api/js.md`" in p.message
               for p in found)


def test_the_same_files_without_rulesync_stay_loud(project: ProjectFactory) -> None:
    root = project({
        ".claude/rules/api/js.md": "---\npaths: ['**/*.js']\n---\n# Js\n\nUse semicolons.\n",
        "src/a.py": "",
    })
    assert _loud([p for p in _check(root) if p.file == ".claude/rules/api/js.md"])


def test_root_files_ruler_writes_are_generated(project: ProjectFactory) -> None:
    from rulelens.rules.check.generators import generated_by

    root = project({".ruler/ruler.toml": "default_agents = ['claude']\n", ".ruler/AGENTS.md": "# Rules\n",
                    "CLAUDE.md": "# Rules\n", ".cursor/rules/ruler_cursor_instructions.mdc": "# Rules\n"})
    of = generated_by(root)
    assert [(g.tool, g.source) for g in map(of, ["CLAUDE.md", ".cursor/rules/ruler_cursor_instructions.mdc"])
            if g is not None] == [("ruler", ".ruler/"), ("ruler", ".ruler/")]
    assert of(".cursor/rules/mine.mdc") is None


# 2. A rule kit: no source files, and a README that says to copy the rules


KIT = {"README.md": "# Kit\n\nCopy the `.github` folder to your project.\n",
       ".github/instructions/react.instructions.md": "---\napplyTo: '**/*.tsx,**/*.jsx'\n---\n# React\n\nHooks.\n",
       ".github/workflows/ci.yml": "on: push\n"}


def test_a_rule_kit_s_dead_globs_are_one_info_per_file(project: ProjectFactory) -> None:
    root = project(KIT)
    found = [p for p in _check(root) if p.code == "agent-glob-matches-nothing"]
    assert [p.severity for p in found] == ["info"]
    assert "this project holds no source files" in found[0].message


def test_one_source_file_makes_it_a_project_whose_dead_globs_are_loud(project: ProjectFactory) -> None:
    root = project({**KIT, "scripts/build.sh": "echo\n"})
    found = [p for p in _check(root) if p.code == "agent-glob-matches-nothing"]
    assert found and {p.severity for p in found} == {"warning"}


# 3. copilot-applyto-elsewhere: only for files no other glob of the rule names, one per file


def _elsewhere(root: Path) -> list[Problem]:
    return [p for p in _check(root) if p.code == "copilot-applyto-elsewhere"]


def test_files_another_glob_of_the_rule_names_are_not_elsewhere(project: ProjectFactory) -> None:
    rule = "---\napplyTo: 'src/**/*.py,hooks/**/*.py,scripts/**/*.py,tests/**/*.py'\n---\n# Py\n\nTyped.\n"
    root = project({".github/instructions/py.instructions.md": rule, "src/cli/hooks/a.py": "",
                    "hooks/b.py": "", "scripts/tests/test_c.py": "", "tests/d.py": ""})
    assert _elsewhere(root) == []


def test_a_rule_s_globs_that_reach_other_folders_are_one_finding(project: ProjectFactory) -> None:
    rule = "---\napplyTo: 'hooks/**,tests/**'\n---\n# Py\n\nTyped.\n"
    root = project({".github/instructions/py.instructions.md": rule, "hooks/b.py": "", "tests/d.py": "",
                    "lib/hooks/x.py": "", "lib/tests/y.py": ""})
    found = _elsewhere(root)
    # no glob with a longer start names the root's hooks/ and tests/ files alone: info (a fact with no fix)
    assert len(found) == 1 and found[0].severity == "info"
    assert "`hooks/**`, `tests/**`" in found[0].message
    assert "`lib/hooks/x.py`, `lib/tests/y.py`" in found[0].message


# 4. A missing import inside Boost's block, and one finding per import for the agents that read it

BOOST_AGENTS_MD = ("# App\n\nSee @docs/gone.md for the setup.\n\n<laravel-boost-guidelines>\n"
                   "=== .ai/rules guidelines ===\n\nRead @.ai/rules/index.md; if `.ai/rules` does not exist, "
                   "continue without it.\n</laravel-boost-guidelines>\n")


def test_boost_s_rules_import_without_a_rules_folder_is_no_finding(project: ProjectFactory) -> None:
    root = project({"AGENTS.md": BOOST_AGENTS_MD, "app/a.php": ""})
    (root / ".ai" / "rules").rmdir()
    found = [p for p in _check(root) if p.code.endswith("import-missing")]
    assert [p.line for p in found] == [2]  # only the import outside Boost's block
    assert "Copilot CLI and Qwen Code read `@docs/gone.md`" in found[0].message


def test_boost_s_rules_import_stays_where_the_rules_folder_exists(project: ProjectFactory) -> None:
    from rulelens.rules.check.boost_block import without_boost_imports

    p = Problem("AGENTS.md", 6, "warning", "qwen-import-missing",
                "Qwen Code reads `@.ai/rules/index.md` as an import of `.ai/rules/index.md`, which the project "
                "does not have: it leaves the text as written")
    assert without_boost_imports([p], lambda _: BOOST_AGENTS_MD, has_rules_folder=True) == [p]
    assert without_boost_imports([p], lambda _: BOOST_AGENTS_MD, has_rules_folder=False) == []


# 5. A hand-written index that gives globs to rule files without `paths`

HAND_INDEX = ("# Project rules\n\n| Rule file | Globs |\n|---|---|\n"
              "| [money.md](money.md) | `app/**`, `app/Models/{User,Team}.php` |\n")


def test_a_hand_written_index_is_not_to_be_regenerated_before_its_globs_move(project: ProjectFactory) -> None:
    root = project({".ai/rules/money.md": "# Money\n\n## Cents\nInteger cents.\n",
                    ".ai/rules/index.md": HAND_INDEX, "app/a.php": ""})
    found = {p.code: p for p in _check(root) if p.code in ("index-stale", "no-paths")}
    stale = found["index-stale"].message
    assert "gives globs to 1 rule file that has no `paths` (`money.md`)" in stale
    assert "into its `paths:` first" in stale and not stale.startswith("The index differs")
    no_paths = found["no-paths"].message
    assert "not in the index" not in no_paths
    assert "`app/**`, `app/Models/{User,Team}.php`" in no_paths


# 7. One cause of agents-disagree across many files: one finding that counts them


def test_one_disagreement_repeated_across_files_is_one_finding() -> None:
    from rulelens.causes import by_cause

    def pair(name: str) -> Problem:
        return Problem(f".claude/skills/{name}/SKILL.md", 0, "warning", "agents-disagree",
                       f"Same rule as `.github/instructions/{name}.instructions.md` (the same file), but Claude "
                       "Code and Copilot CLI disagree on 799 files (see the examples). Align the globs.",
                       examples=(f"src/{name}.ml",))

    kept, _ = by_cause([pair("a"), pair("b"), pair("c")], [], lambda _: None)
    assert len(kept) == 1
    assert kept[0].message.startswith("3 rule files (`.claude/skills/a/SKILL.md`")
    assert "Claude Code and Copilot CLI disagree on 799 files for each" in kept[0].message
    assert kept[0].examples == ("src/a.ml", "src/b.ml", "src/c.ml")


# 3b. A rule about a language across folders: more files of that language elsewhere are meant too


def test_a_language_rule_across_folders_is_not_elsewhere_for_more_of_that_language(
        project: ProjectFactory) -> None:
    rule = "---\npaths:\n  - 'src/**/*.py'\n  - 'tests/**/*.py'\n  - 'scripts/**/*.py'\n---\n# Py\n\nTyped.\n"
    root = project({".claude/rules/py.md": rule, "src/a.py": "", "tests/b.py": "", "scripts/c.py": "",
                    "skills/ast/scripts/d.py": "", "skills/ast/scripts/run.sh": ""})
    assert _elsewhere(root) == []


def test_a_language_rule_still_warns_for_other_kinds_and_one_folder_rules_for_copies(
        project: ProjectFactory) -> None:
    rule = "---\napplyTo: 'src/**/*'\n---\n# App\n\nHooks.\n"
    journal = "---\napplyTo: 'src/components/journal/**/*.{ts,tsx}'\n---\n# Journal\n\nSmall.\n"
    root = project({".github/instructions/app.instructions.md": rule,
                    ".github/instructions/journal.instructions.md": journal,
                    "src/components/journal/a.tsx": "", "contracts/src/Token.sol": "",
                    "import/src/components/journal/b.tsx": ""})
    found = {p.file: p for p in _elsewhere(root)}
    assert "`contracts/src/Token.sol`" in found[".github/instructions/app.instructions.md"].message
    assert "`import/src/components/journal/b.tsx`" in found[
        ".github/instructions/journal.instructions.md"].message


# 1b. What was true of a generator's output stays loud, once, on the source where the fix belongs


def test_a_dead_glob_in_rulesync_outputs_is_one_warning_on_the_source(project: ProjectFactory) -> None:
    source = "---\nglobs: ['src/gone/**/*.ts']\n---\n# Ts\n\nStrict.\n"
    root = project({
        "rulesync.jsonc": '{"targets": ["claudecode", "copilot"], "features": ["rules"]}\n',
        ".rulesync/rules/ts.md": source,
        ".claude/rules/ts.md": "---\npaths: ['src/gone/**/*.ts']\n---\n# Ts\n\nStrict.\n",
        ".github/instructions/ts.instructions.md": "---\napplyTo: 'src/gone/**/*.ts'\n---\n# Ts\n\nStrict.\n",
        "src/a.ts": "",
    })
    found = [p for p in _check(root) if p.code == "agent-glob-matches-nothing"]
    loud = _loud(found)
    assert [(p.file, p.line, p.severity) for p in loud] == [(".rulesync/rules/ts.md", 2, "warning")]
    assert "which rulesync writes from this file (rulesync.jsonc)" in loud[0].message
    assert "Make the change in this file, then run `rulesync generate`" in loud[0].message
    assert {p.file for p in found if p.severity == "info"} >= {".claude/rules/ts.md",
                                                               ".github/instructions/ts.instructions.md"}


def test_a_generator_s_own_form_is_not_lifted_to_the_source(project: ProjectFactory) -> None:
    """Unquoted `globs: **/*.ts` is how rulesync writes Cursor's file: no change to the source fixes it."""
    root = project({
        "rulesync.jsonc": '{"targets": ["cursor"], "features": ["rules"]}\n',
        ".rulesync/rules/ts.md": "---\nglobs: ['**/*.ts']\n---\n# Ts\n\nStrict.\n",
        ".cursor/rules/ts.mdc": "---\nglobs: **/*.ts\nalwaysApply: false\n---\n# Ts\n\nStrict.\n",
        "src/a.ts": "",
    })
    assert not [p for p in _check(root) if p.file.startswith(".rulesync/")]


# 8. A skill's own AGENTS.md: read through the skill, never a folder anybody starts a session in


def test_codex_s_chain_cut_only_inside_a_skill_folder_is_info(project: ProjectFactory) -> None:
    big = "# Best practices\n\n" + "Prefer server components for data fetching.\n" * 1000
    skill = "---\nname: react\ndescription: Use for React work.\n---\n# React\n\nRead AGENTS.md.\n"
    root = project({"AGENTS.md": "# App\n\nRun the tests.\n", "src/a.ts": "",
                    ".github/skills/react/SKILL.md": skill, ".github/skills/react/AGENTS.md": big,
                    "packages/web/AGENTS.md": big, "packages/web/b.ts": ""})
    cut = {p.file: p for p in _check(root) if p.code == "agent-budget-exceeded"}
    assert cut["packages/web/AGENTS.md"].severity == "warning"
    skill = cut[".github/skills/react/AGENTS.md"]
    assert skill.severity == "info" and "inside this skill's folder" in skill.message


# 9. Invalid YAML atop copilot-instructions.md: Copilot CLI 1.0.102 sends the file whole either way


def test_invalid_yaml_atop_copilot_instructions_is_info_for_copilot_cli(project: ProjectFactory) -> None:
    """Run against a fake model (tests/conformance/copilot_cli/probe.mjs): `applyTo: **`
    unquoted or quoted, the file and its frontmatter reach the first request."""
    root = project({".github/copilot-instructions.md": "---\napplyTo: **\n---\n\nUse tabs.\n", "src/a.ts": ""})
    (found,) = [p for p in _check(root) if p.code == "agent-yaml-invalid" and "Copilot CLI" in p.message]
    assert found.severity == "info" and "loads this file whole at every start" in found.message
    rule = project({".github/instructions/ts.instructions.md": "---\napplyTo: **/*.ts\n---\n\nTabs.\n",
                    "src/a.ts": ""})
    assert any(p.severity == "warning" for p in _check(rule) if p.code == "agent-yaml-invalid")


# 10. A folder the project plans: never committed, named by another rule file


PLANNED = {".ai/rules/cloud.md": "---\npaths:\n  - 'app/Cloud/**'\n---\n\n# Cloud\n\n## Credits\nDebit per unit.\n",
           ".ai/rules/general.md": "---\npaths:\n  - 'app/**'\n---\n\n# General\n\n## Editions\n"
                                   "Cloud-only billing code will live under app/Cloud/.\n",
           "app/Models/User.php": "<?php\n"}


def _dead(root: Path) -> list[Problem]:
    return [p for p in _check(root) if p.code == "glob-matches-nothing" and p.file == ".ai/rules/cloud.md"]


def test_a_glob_for_a_planned_folder_is_info(project: ProjectFactory) -> None:
    from tests.git_repo import commit

    root = project(PLANNED, git=True)
    commit(root, "start")
    (found,) = _dead(root)
    assert found.severity == "info" and "No commit ever had a file in `app/Cloud/`" in found.message
    assert "`.ai/rules/general.md` names it" in found.message


def test_a_folder_that_held_files_once_or_that_nobody_names_stays_a_warning(project: ProjectFactory) -> None:
    from tests.git_repo import commit, git

    root = project({**PLANNED, "app/Cloud/Ledger.php": "<?php\n"}, git=True)
    commit(root, "start")
    git(root, "rm", "-q", "app/Cloud/Ledger.php")
    commit(root, "drop the ledger")
    assert [p.severity for p in _dead(root)] == ["warning"]  # moved or removed: the glob is stale
    alone = project({k: v for k, v in PLANNED.items() if k != ".ai/rules/general.md"}, git=True)
    commit(alone, "start")
    assert [p.severity for p in _dead(alone)] == ["warning"]  # perhaps misspelt
    plain = project(PLANNED)  # no history to ask
    assert [p.severity for p in _dead(plain)] == ["warning"]
