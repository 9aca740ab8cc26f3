"""Issue 44: the false classes an independent reader found on 21 fresh repositories and the
set-aside ones, each removed at its cause, on generated projects; every case here failed on the
code before it."""

from __future__ import annotations

from pathlib import Path

from rulelens.check_project import check_project
from rulelens.rules.model import Problem
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory


def _check(root: Path) -> list[Problem]:
    return check_project(RuleRepository(root)).problems


def _code(root: Path, code: str) -> list[Problem]:
    return [p for p in _check(root) if p.code == code]


# A. A repository of nothing but the agents' files and its own root files is a rule kit

WEB = "---\npaths:\n  - \"**/*.ts\"\n  - \"**/*.vue\"\n---\n# Web\n\nTyped props.\n"
ONLY_AGENTS = {"README.md": "# my frontend config\n\nGlobal Claude Code settings.\n", "LICENSE": "MIT\n",
               ".gitignore": "node_modules\n", ".claude/CLAUDE.md": "# Me\n\nBe brief.\n",
               ".claude/rules/web.md": WEB, ".claude/rules/tests.md": WEB.replace("Web", "Tests")}


def test_a_repository_of_only_agent_files_is_a_rule_kit(project: ProjectFactory) -> None:
    found = _code(project(ONLY_AGENTS), "agent-glob-matches-nothing")
    assert [(p.file, p.severity) for p in found] == [(".claude/rules/tests.md", "info"),
                                                     (".claude/rules/web.md", "info")]
    assert "2 globs match no file here" in found[0].message
    assert "nothing but the agents' files" in found[0].message


def test_a_docs_folder_beside_the_agent_files_is_a_project(project: ProjectFactory) -> None:
    """Documentation outside the agents' folders is something a glob could be about."""
    found = _code(project({**ONLY_AGENTS, "docs/guide.md": "# Guide\n"}), "agent-glob-matches-nothing")
    assert found and {p.severity for p in found} == {"warning"}


def test_rule_files_alone_without_a_readme_are_a_project_to_come(project: ProjectFactory) -> None:
    files = {k: v for k, v in ONLY_AGENTS.items() if k != "README.md"}
    found = _code(project(files), "agent-glob-matches-nothing")
    assert found and {p.severity for p in found} == {"warning"}


def test_a_rule_whose_globs_all_match_nothing_is_one_finding_naming_them(project: ProjectFactory) -> None:
    root = project({".claude/rules/web.md": WEB, "src/app.py": "print()\n"})
    found = _code(root, "agent-glob-matches-nothing")
    assert len(found) == 1 and found[0].severity == "warning"
    assert "`**/*.ts` and `**/*.vue` against no file of this project" in found[0].message
    assert "Claude Code" in found[0].message and "Copilot CLI" in found[0].message


# B. A file in `.github/instructions` meant for a Copilot setting is no chat rule to rename

COMMIT = ".github/instructions/commit-message-guidelines.md"
SETTING = '{\n  "github.copilot.chat.commitMessageGeneration.instructions": [\n    {"file": "%s"}\n  ]\n}\n'


def _unread(root: Path) -> list[Problem]:
    return _code(root, "copilot-not-instructions")


def test_a_file_a_misnamed_settings_file_points_at_is_not_to_be_renamed(project: ProjectFactory) -> None:
    root = project({COMMIT: "Use Conventional Commits.\n", ".vscode/setting.json": SETTING % COMMIT})
    [found] = _unread(root)
    assert "Rename it" not in found.message and "instructions.md` name" in found.message
    assert "`.vscode/setting.json`" in found.message and "rename it `.vscode/settings.json`" in found.message


def test_a_setting_pointing_elsewhere_is_told_to_point_at_the_file(project: ProjectFactory) -> None:
    rel = ".github/instructions/copilot-commit-message-instructions.md"
    root = project({rel: "Use Conventional Commits.\n", ".vscode/settings.json": SETTING % COMMIT})
    [found] = _unread(root)
    assert found.severity == "warning" and f"point it at `{rel}`" in found.message
    assert "Rename it" not in found.message


def test_a_file_settings_json_names_is_no_finding(project: ProjectFactory) -> None:
    root = project({COMMIT: "Use Conventional Commits.\n", ".vscode/settings.json": SETTING % COMMIT})
    assert _unread(root) == []


def test_a_review_file_without_a_setting_is_info_and_a_plain_one_still_renamed(project: ProjectFactory) -> None:
    root = project({".github/instructions/review-checklist.md": "Check tests.\n",
                    ".github/instructions/react.md": "Hooks.\n"})
    found = {p.file: p for p in _unread(root)}
    assert found[".github/instructions/review-checklist.md"].severity == "info"
    assert "reviewSelection" in found[".github/instructions/review-checklist.md"].message
    assert found[".github/instructions/react.md"].severity == "warning"
    assert "Rename it `react.instructions.md`" in found[".github/instructions/react.md"].message


# C. Copilot in VS Code's prepended `**/`: loud only with a rewrite, and one finding per cause


def _app(src: dict[str, str]) -> dict[str, str]:
    rule = "---\npaths: [\"src/**/*\"]\n---\n# App\n\nUse hooks.\n"
    return {".claude/rules/app.md": rule, ".cursor/rules/app.mdc": "---\nglobs: src/**/*\n---\n# App\n\nUse hooks.\n",
            "docs/src/page.ts": "", **src}


def test_a_prefix_with_no_glob_to_write_is_a_fact_with_no_fix(project: ProjectFactory) -> None:
    root = project(_app({"src/app/a.ts": "", "src/lib/b.ts": ""}))
    problems = _check(root)
    [found] = [p for p in problems if p.code == "copilot-applyto-elsewhere"]
    assert found.severity == "info" and "a fact with no fix" in found.message
    # Cursor's disagreement on the same `docs/src` file has that one cause: folded into it
    assert [p for p in problems if p.code == "agents-disagree"] == []


def test_a_prefix_a_longer_start_removes_is_loud_and_named(project: ProjectFactory) -> None:
    root = project(_app({"src/app/a.ts": "", "src/app/ui/b.ts": ""}))
    problems = _check(root)
    [found] = [p for p in problems if p.code == "copilot-applyto-elsewhere"]
    assert found.severity == "warning"
    assert "Write `src/app/**/*` for `src/**/*`" in found.message
    assert "Claude Code and Copilot CLI load it for the same files as now" in found.message
    assert [p for p in problems if p.code == "agents-disagree"] == []


# D. Two agents' matchers reading the same globs apart: loud only with a rewrite both read alike

UI = "# UI\n\nUse the design tokens.\n"


def _ui(glob: str, files: dict[str, str]) -> dict[str, str]:
    return {".claude/rules/ui.md": f"---\npaths: [\"{glob}\"]\n---\n{UI}",
            ".github/instructions/ui.instructions.md": f"---\napplyTo: \"{glob}\"\n---\n{UI}", **files}


def test_a_trailing_folder_glob_read_at_any_depth_names_its_rewrite(project: ProjectFactory) -> None:
    root = project(_ui("ui/**", {"ui/a.ts": "", "site/ui/b.ts": ""}))
    found = [p for p in _code(root, "agents-disagree") if "Copilot CLI" in p.message]
    assert [p.severity for p in found] == ["warning"]
    assert "Write `ui/**/*` for `ui/**`" in found[0].message


def test_globs_read_apart_with_no_rewrite_are_info(project: ProjectFactory) -> None:
    root = project(_ui("ui", {"ui/a.ts": "", "site/ui/b.ts": ""}))
    found = [p for p in _code(root, "agents-disagree") if "Copilot CLI" in p.message]
    assert found and {p.severity for p in found} == {"info"}
    assert "a fact with no fix" in found[0].message
