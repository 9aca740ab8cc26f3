"""Copilot CLI's traps, worded as its released code behaves."""

from __future__ import annotations

from pathlib import Path

from rulelens.agents.formats.copilot_cli import split_outside_braces
from rulelens.agents.project import AgentProject
from rulelens.agents.traps import agent_problems
from rulelens.glob_engines.dialects import GLOBSET, matches
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


# Copilot CLI's `applyTo` split: commas outside braces, nested braces counted, as Copilot CLI
# 1.0.102 read a real instruction file end to end (tests/conformance/e2e/test_copilot_cli_apply_to.py).
NESTED = "{src/a/**/*.{ts,tsx},src/b/**/*.{ts,js}}"


def test_nested_braces_are_one_pattern() -> None:
    assert split_outside_braces(NESTED) == [NESTED]
    assert split_outside_braces("src/a/*.{ts,js},src/b/**") == ["src/a/*.{ts,js}", "src/b/**"]
    assert split_outside_braces("a/[,]x,b") == ["a/[,]x", "b"]


def test_the_one_pattern_matches_as_the_run_did() -> None:
    assert [p for p in ("src/a/k/x.ts", "src/b/k/x.js", "src/a/k/x.js", "src/c/x.ts")
            if matches(NESTED, p, GLOBSET)] == ["src/a/k/x.ts", "src/b/k/x.js"]
