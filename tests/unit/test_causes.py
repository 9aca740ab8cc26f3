"""One finding per cause, with the fix that mends every file it lists (causes.py), and `check --fix`."""

from __future__ import annotations

import pytest

from rulelens.check_project import check_project
from rulelens.rules.model import Edit, RuleError
from rulelens.rules.repository import RuleRepository
from rulelens.rules.write.edits import apply_fixes, edited
from tests.conftest import ProjectFactory

RULE = "# TypeScript rule {n}\nRule {n}: use strict types everywhere, never any, prefer readonly arrays.\n"


def _converted(n: int) -> dict[str, str]:
    files: dict[str, str] = {"src/a.ts": "", "src/lib/b.ts": ""}
    for i in range(n):
        body = RULE.format(n=i)
        files[f".cursor/rules/ts-{i}.mdc"] = f"---\ndescription: TS {i}\nglobs: ['src/**/*.ts']\n---\n{body}"
        files[f".claude/skills/ts-{i}/SKILL.md"] = f"---\nname: ts-{i}\ndescription: TS {i}\n---\n{body}"
    return files


def test_skills_converted_without_paths_are_one_finding_and_one_fix(project: ProjectFactory) -> None:
    root = project(_converted(3))
    result = check_project(RuleRepository(root))
    disagree = [p for p in result.problems if p.code == "agents-disagree"]
    assert len(disagree) == 1
    [p] = disagree
    assert p.message.startswith("3 skills converted from Cursor rules carry no `paths` (")
    assert "Claude Code loads them only when the model picks them, and Cursor loads them by glob" in p.message
    assert p.examples == tuple(f".claude/skills/ts-{i}/SKILL.md" for i in range(3))
    [fix] = result.fixes
    assert len(fix.edits) == 3
    assert apply_fixes(root, result.fixes) == [f".claude/skills/ts-{i}/SKILL.md" for i in range(3)]
    assert (root / ".claude/skills/ts-1/SKILL.md").read_text().startswith(
        '---\nname: ts-1\ndescription: TS 1\npaths:\n  - "src/**/*.ts"\n---\n')
    after = check_project(RuleRepository(root))
    assert [p for p in after.problems if p.code == "agents-disagree"] == [] and after.fixes == []


def test_one_skill_keeps_its_own_finding(project: ProjectFactory) -> None:
    result = check_project(RuleRepository(project(_converted(1))))
    [p] = [p for p in result.problems if p.code == "agents-disagree"]
    assert p.file == ".claude/skills/ts-0/SKILL.md" and "this file carries no `paths`" in p.message
    assert result.fixes == []


def test_other_keys_in_the_rules_folder_are_one_finding(project: ProjectFactory) -> None:
    root = project({
        "app/Models/User.php": "",
        ".ai/rules/models.md": '---\nscope:\n  - "app/Models/**"\n---\n# Models\nUse casts.\n',
        ".ai/rules/app.md": '---\nglobs: "app/**"\n---\n# App\nUse strict types.\n',
    })
    result = check_project(RuleRepository(root))
    [p] = [p for p in result.problems if p.code == "paths-key-other"]
    assert p.message.startswith("2 rule files in the rules folder name their globs `globs:` and `scope:`")
    apply_fixes(root, result.fixes)
    assert (root / ".ai/rules/models.md").read_text().startswith('---\npaths:\n  - "app/Models/**"\n')
    assert not [p for p in check_project(RuleRepository(root)).problems if p.code == "paths-key-other"]


def test_an_inserted_block_takes_the_file_s_line_breaks() -> None:
    text = "---\r\nname: x\r\n---\r\n# X\r\n"
    assert edited(text, [Edit("a.md", 2, 0, 0, "paths:\n  - \"*.ts\"\n")]) == (
        "---\r\nname: x\r\npaths:\r\n  - \"*.ts\"\r\n---\r\n# X\r\n")


def test_an_edit_of_a_changed_file_is_refused() -> None:
    assert edited("---\nscope: x\n---\n", [Edit("a.md", 1, 0, 5, "paths", "scope")]) == "---\npaths: x\n---\n"
    with pytest.raises(RuleError, match="changed since it was checked"):
        edited("---\nglobs: x\n---\n", [Edit("a.md", 1, 0, 5, "paths", "scope")])


def test_copies_that_differ_only_by_one_open_reading_are_one_info(project: ProjectFactory) -> None:
    files: dict[str, str] = {"src/a.ts": "", "vitest.workspace.ts": ""}
    for i in range(3):
        body = RULE.format(n=i)
        files[f".cursor/rules/ts-{i}.mdc"] = f"---\nglobs: ['*.ts']\n---\n{body}"
        files[f".claude/rules/ts-{i}.md"] = f"---\npaths: ['**/*.ts']\n---\n{body}"
    result = check_project(RuleRepository(project(files)))
    [p] = [p for p in result.problems if p.code == "agents-disagree"]
    assert p.severity == "info" and p.file == ".claude/rules/ts-0.md"
    # 3 Claude Code rules, each a pair with Cursor's copy three times: both Copilots read them too.
    assert p.message.startswith("9 pairs of copies of a rule in different agents' folders (")
    assert "if Cursor matches a pattern without a slash in any folder; if Cursor's `*` stays" in p.message
    assert "`**/` in front of a pattern (`**/*.ts`) reaches every folder in every reading" in p.message
    assert result.fixes == []  # which reading the team meant is theirs to say


def test_the_grouped_finding_keeps_the_configured_severity(project: ProjectFactory) -> None:
    root = project({**_converted(2), "rulelens.toml": '[severity]\nagents-disagree = "error"\n'})
    [p] = [p for p in check_project(RuleRepository(root)).problems if p.code == "agents-disagree"]
    assert p.severity == "error" and p.message.startswith("2 skills converted")


def test_antigravity_rules_converted_without_trigger_gain_trigger_and_globs(project: ProjectFactory) -> None:
    files: dict[str, str] = {"src/a.ts": "", "src/lib/b.ts": "", "docs/x.md": ""}
    for i in range(2):
        body = RULE.format(n=i)
        files[f".cursor/rules/ts-{i}.mdc"] = f"---\ndescription: TS {i}\nglobs: ['src/**/*.ts']\n---\n{body}"
        files[f".agents/rules/ts-{i}.md"] = body
    root = project(files)
    result = check_project(RuleRepository(root))
    [p] = [p for p in result.problems if p.code == "agents-disagree" and "converted" in p.message]
    assert "Google Antigravity loads them only when @-mentioned, and Cursor loads them by glob" in p.message
    assert "Add `trigger: glob` and `globs:` with each rule's globs" in p.message
    apply_fixes(root, result.fixes)
    assert (root / ".agents/rules/ts-1.md").read_text().startswith(
        '---\ntrigger: glob\nglobs:\n  - "src/**/*.ts"\n---\n')
    after = check_project(RuleRepository(root))
    assert [p for p in after.problems if p.code == "agents-disagree" and "Antigravity" in p.message] == []


def test_one_glob_several_agents_read_is_one_finding(project: ProjectFactory) -> None:
    # Claude Code and the Copilot CLI both read a `.claude/rules` file's `paths`: the glob that
    # matches nothing is one cause, named once with both agents.
    root = project({"src/a.ts": "", ".claude/rules/nix.md": '---\npaths:\n  - "flake.nix"\n---\n# Nix\nUse flakes.\n'})
    result = check_project(RuleRepository(root))
    [p] = [p for p in result.problems if p.code == "agent-glob-matches-nothing"]
    assert p.file == ".claude/rules/nix.md" and p.line == 1 and p.severity == "warning"
    assert p.message.startswith("Claude Code, Copilot in VS Code and Copilot CLI match `flake.nix` against no file of this project")
