"""`rulelens init` and Claude Code's budget for CLAUDE.md: the section never takes the file past
the lines `check` warns about, as a real process."""

from __future__ import annotations

from pathlib import Path

from tests.cli.test_cli import run
from tests.conftest import ProjectFactory

RULE = "---\npaths:\n  - 'app/**'\n---\n# App\n\n## Money\nCents.\n"


def claude_md(lines: int) -> str:
    return "# Project\n" + "".join(f"- point {i}\n" for i in range(lines - 1))


def budget_findings(root: Path) -> list[str]:
    return [line for line in run(root, "check").stdout.splitlines() if "agent-budget-exceeded" in line]


def test_the_budget_is_claude_codes() -> None:
    from rulelens.agents.formats.claude_code import ClaudeCode
    from rulelens.setup.init_project import CLAUDE_LINES

    assert ClaudeCode.budget is not None and ClaudeCode.budget.limit == CLAUDE_LINES


def test_a_claude_md_near_its_budget_gets_the_section_in_a_rule_file(project: ProjectFactory) -> None:
    root = project({".ai/rules/app.md": RULE, "app/a.php": "<?php\n", "CLAUDE.md": claude_md(196)})
    assert run(root, "index").returncode == 0
    assert budget_findings(root) == []
    done = run(root, "init")
    assert done.returncode == 0, done.stderr
    assert (root / "CLAUDE.md").read_text() == claude_md(196)  # untouched
    moved = (root / ".claude/rules/rulelens.md").read_text()
    assert moved.startswith("<!-- rulelens:begin -->\n## Project rules\n")
    assert "Created .claude/rules/rulelens.md with the project-rules section. CLAUDE.md has 196 lines" \
        in done.stdout
    assert budget_findings(root) == []
    # A second run keeps it there, and a short CLAUDE.md still gets the section in place.
    assert ".claude/rules/rulelens.md is up to date." in run(root, "init").stdout
    assert "rulelens:begin" not in (root / "CLAUDE.md").read_text()


def test_a_short_claude_md_gets_the_section_itself(project: ProjectFactory) -> None:
    root = project({".ai/rules/app.md": RULE, "CLAUDE.md": claude_md(20)})
    assert "Added the project-rules section to CLAUDE.md." in run(root, "init").stdout
    assert "rulelens:begin" in (root / "CLAUDE.md").read_text()
    assert not (root / ".claude").exists()
