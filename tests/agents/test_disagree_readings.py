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
