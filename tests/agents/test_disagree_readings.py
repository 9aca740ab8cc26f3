"""`agents-disagree` only between files a team can align, and never counted by a reading left open."""

from __future__ import annotations

from pathlib import Path

from rulelens.agents.project import AgentProject
from rulelens.agents.traps import agent_problems
from rulelens.rules.model import Problem
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory

BODY = "# TypeScript\nUse strict types in every module of this project, and never any.\n"


def _disagree(root: Path, pair: str = "") -> list[Problem]:
    """The disagreements (`pair`: those whose message names it, as "Claude Code and Cursor")."""
    return [p for p in agent_problems(AgentProject(RuleRepository(root)))
            if p.code == "agents-disagree" and pair in p.message]


def test_a_disagreement_one_reading_removes_is_info(project: ProjectFactory) -> None:
    root = project({
        "src/a.ts": "", "vitest.workspace.ts": "",
        ".cursor/rules/ts.mdc": f'---\nglobs: ["*.ts"]\n---\n{BODY}',
        ".claude/rules/ts.md": f'---\npaths: ["**/*.ts"]\n---\n{BODY}',
    })
    # Both Copilots read `.claude/rules` too: their pairs with Cursor are the same finding's twins.
    assert len(_disagree(root)) == 3 and len(_disagree(root, "Copilot CLI and Cursor")) == 1
    assert len(_disagree(root, "Copilot in VS Code and Cursor")) == 1
    [p] = _disagree(root, "Claude Code and Cursor")
    assert p.severity == "info"
    assert "the same files if Cursor matches a pattern without a slash in any folder" in p.message
    assert "if Cursor's `*` stays at the root, they disagree on 1 file, such as `src/a.ts`" in p.message


def test_a_disagreement_every_reading_holds_is_a_warning_with_a_range(project: ProjectFactory) -> None:
    root = project({
        "src/a.ts": "", "src/lib/b.ts": "", "vitest.workspace.ts": "", "docs/x.md": "",
        ".cursor/rules/ts.mdc": f'---\nglobs: ["*.ts"]\n---\n{BODY}',
        ".claude/rules/ts.md": f'---\npaths: ["docs/**"]\n---\n{BODY}',
    })
    [p] = _disagree(root, "Claude Code and Cursor")
    assert p.severity == "warning"
    # Cursor's `*.ts`: 1 file at the root, or 3 at any depth; `docs/x.md` in every reading.
    assert "disagree on 2 to 4 files, such as `docs/x.md` (only Claude Code)" in p.message
    assert p.examples == ("docs/x.md", "vitest.workspace.ts")  # in every reading; not `src/a.ts`


def test_copies_that_each_load_for_their_own_folder_are_not_compared(project: ProjectFactory) -> None:
    text = "# App\nRun the tests with composer test before every commit, please.\n"
    root = project({"src/a.php": "", "examples/app/x.php": "", "AGENTS.md": text, "examples/app/AGENTS.md": text})
    assert _disagree(root) == []


def test_a_skill_without_paths_says_so(project: ProjectFactory) -> None:
    root = project({
        "src/a.ts": "",
        ".cursor/rules/ts.mdc": f'---\ndescription: TS\nglobs: ["src/**/*.ts"]\n---\n{BODY}',
        ".claude/skills/ts/SKILL.md": f"---\nname: ts\ndescription: TS\n---\n{BODY}",
    })
    [p] = _disagree(root)
    assert p.file == ".claude/skills/ts/SKILL.md" and p.severity == "warning"
    assert "this file carries no `paths`: Claude Code loads it only when the model picks it" in p.message
    assert "Cursor loads the copy by glob (1 file)" in p.message


def test_an_antigravity_rule_without_trigger_waits_for_a_mention(project: ProjectFactory) -> None:
    # Google Antigravity loads a rule without `trigger` only when it is @-mentioned; `globs:`
    # alone would not change that, so the advice names `trigger: glob` too.
    root = project({
        "packages/api/a.ts": "", "src/b.ts": "",
        ".claude/rules/api.md": f'---\npaths: ["packages/api/**"]\n---\n{BODY}',
        ".agents/rules/api.md": f'---\npaths: ["packages/api/**"]\n---\n{BODY}',
    })
    [p] = _disagree(root, "and Claude Code loads")
    assert "Google Antigravity loads it only when @-mentioned" in p.message
    assert "Add `trigger: glob` and `globs:` to it with these globs." in p.message


def test_an_antigravity_rule_the_model_decides_says_so(project: ProjectFactory) -> None:
    root = project({
        "packages/api/a.ts": "", "src/b.ts": "",
        ".claude/rules/api.md": f'---\npaths: ["packages/api/**"]\n---\n{BODY}',
        ".agents/rules/api.md": f"---\ntrigger: model_decision\ndescription: API\n---\n{BODY}",
    })
    [p] = _disagree(root, "and Claude Code loads")
    assert "Google Antigravity loads it only when the model picks it" in p.message
    assert "Add `trigger: glob` and `globs:`" in p.message


LONG = "".join(f"- Rule {n}: keep module {n} free of side effects at import time.\n" for n in range(12))


def test_a_copy_an_agent_reads_through_another_of_its_files_is_no_disagreement(project: ProjectFactory) -> None:
    # rulesync keeps its source as `.rulesync/rules/CLAUDE.md` (a nested CLAUDE.md to Claude Code)
    # and writes the same text into the root CLAUDE.md: Claude Code reads it everywhere, as Cursor does.
    root = project({
        "src/a.ts": "", "README.md": "",
        "CLAUDE.md": f"# Project\n{LONG}- Run the tests before a commit.\n",
        ".rulesync/rules/CLAUDE.md": f"---\nroot: true\n---\n# Project\n{LONG}",
        ".cursor/rules/project.mdc": f"---\nglobs: **/*\n---\n# Project\n{LONG}",
    })
    assert _disagree(root, "Claude Code and Cursor") == []


def test_a_root_file_with_other_text_does_not_stand_in(project: ProjectFactory) -> None:
    root = project({
        "src/a.ts": "", "README.md": "",
        "CLAUDE.md": "# Project\nSomething else entirely, about deployments and nothing more.\n",
        ".rulesync/rules/CLAUDE.md": f"---\nroot: true\n---\n# Project\n{LONG}",
        ".cursor/rules/project.mdc": f"---\nglobs: **/*\n---\n# Project\n{LONG}",
    })
    assert len(_disagree(root, "Claude Code and Cursor")) == 1


def test_an_antigravity_copy_of_a_rule_without_globs_needs_its_trigger(project: ProjectFactory) -> None:
    # `.claude/rules` linked to `.agents/rules`: Claude Code loads a rule without `paths` for every
    # file, Google Antigravity one without `trigger` only when @-mentioned: the fix is the trigger.
    root = project({
        "src/a.ts": "", "README.md": "",
        ".agents/rules/style.md": BODY,
        ".claude/rules/style.md": BODY,
    })
    [p] = _disagree(root, "Claude Code and Google Antigravity")
    assert p.severity == "warning"
    assert ("Claude Code loads it with no globs, Google Antigravity only when @-mentioned. "
            "Add `trigger: always_on` to `.agents/rules/style.md`.") in p.message


def test_a_nested_claude_md_is_not_told_to_be_always_on(project: ProjectFactory) -> None:
    root = project({
        "src/a.ts": "", "packages/api/b.ts": "", "README.md": "",
        ".agents/rules/api.md": BODY,
        "packages/api/CLAUDE.md": BODY,
    })
    assert not [p for p in _disagree(root) if "always_on" in p.message]
