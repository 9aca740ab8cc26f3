"""Copilot CLI's traps, worded as its released code behaves."""

from __future__ import annotations

from pathlib import Path

from rulelens.agents.project import AgentProject
from rulelens.agents.traps import agent_problems
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory


def _problems(root: Path) -> dict[tuple[str, str], str]:
    return {(p.file, p.code): p.message for p in agent_problems(AgentProject(RuleRepository(root)))}


def test_copilot_cli_any_depth_for_patterns_without_a_folder(project: ProjectFactory) -> None:
    root = project({".github/instructions/md.instructions.md": '---\napplyTo: "*.md"\n---\nMd\n',
                    ".github/instructions/top.instructions.md": '---\napplyTo: "*.txt"\n---\nTxt\n',
                    "docs/x/a.md": "", "b.txt": ""})
    found = _problems(root)
    assert "`docs/x/a.md`" in found[(".github/instructions/md.instructions.md", "copilot-cli-any-depth")]
    assert (".github/instructions/top.instructions.md", "copilot-cli-any-depth") not in found
