"""Each agent's `loads_for`, which `check`'s `agents-disagree` reads a file's coverage from
(remembered pattern hits, a folder's slice, a matcher that answers many paths at once), against
`decide` asked path by path: the two must give the same paths for every file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulelens.agents.base import Agent
from rulelens.agents.model import AgentFile, Load
from rulelens.agents.project import AgentProject
from rulelens.rules.repository import RuleRepository
from tests.agents.generate import APPLY_TO, PROJECT_PATHS, RULE_GLOBS, RULE_LISTS
from tests.conftest import ProjectFactory

# The agents whose coverage comes from a fast path that reads globs from these files.
GLOB_AGENTS = ("claude-code", "copilot", "copilot-cli")


def _files() -> dict[str, str]:
    """Rule files with every realistic glob, as a string and in lists, in the folders the
    Copilot surfaces and Claude Code read, and project files (none a folder of another)."""
    files: dict[str, str] = {}
    for i, value in enumerate([*RULE_GLOBS, *APPLY_TO]):
        quoted = json.dumps(value)
        files[f".github/instructions/g{i}.instructions.md"] = f"---\napplyTo: {quoted}\n---\nRule {i}\n"
        files[f".claude/rules/g{i}.md"] = f"---\npaths: {quoted}\n---\nRule {i}\n"
    for i, items in enumerate(RULE_LISTS):
        listed = "".join(f"\n  - {json.dumps(g)}" for g in items)
        files[f".github/instructions/l{i}.instructions.md"] = f"---\napplyTo:{listed}\n---\nList {i}\n"
        files[f".claude/rules/l{i}.md"] = f"---\npaths:{listed}\n---\nList {i}\n"
    files[".github/instructions/off.instructions.md"] = (
        '---\napplyTo: "src/**"\nexcludeAgent: "coding-agent"\n---\nOff\n')
    files["packages/web/.github/instructions/n.instructions.md"] = '---\napplyTo: "*.ts"\n---\nNested\n'
    files["packages/web/AGENTS.md"] = "# Web\n"
    files["CLAUDE.md"] = "# Root\n"
    files["packages/CLAUDE.md"] = "# Packages\n"
    for rel in PROJECT_PATHS:
        if not any(other.startswith(rel + "/") for other in PROJECT_PATHS):
            files.setdefault(rel, "")
    return files


def _decided(agent: Agent, f: AgentFile, paths: list[str]) -> set[str]:
    """The slow path: `decide` for each path, outside `loads_for`."""
    return {p for p in paths if isinstance(agent.decide(f, p), Load)}


@pytest.fixture
def agents(project: ProjectFactory) -> list[Agent]:
    root: Path = project(_files())
    present = AgentProject(RuleRepository(root)).present
    assert {a.id for a in present} >= set(GLOB_AGENTS)
    return present


def test_every_agents_coverage_is_what_it_decides_path_by_path(agents: list[Agent]) -> None:
    checked = 0
    for agent in agents:
        paths = list(agent.ctx.paths)
        for f in agent.files:
            fast = agent.loads_for(f, agent.ctx.paths)
            assert fast == _decided(agent, f, paths), (agent.id, f.rel)
            # a part of the list: the remembered hits are narrowed to it
            some = paths[::3]
            assert agent.loads_for(f, some) == _decided(agent, f, some), (agent.id, f.rel)
            checked += agent.id in GLOB_AGENTS and agent.glob_loads(f) is not None
    assert checked > 100  # the fast paths ran, on most of the generated files


def test_fast_paths_cover_the_glob_files(agents: list[Agent]) -> None:
    """The three agents read coverage from patterns for every file with a real pattern."""
    by_id = {a.id: a for a in agents}
    cli, vscode, claude = by_id["copilot-cli"], by_id["copilot"], by_id["claude-code"]
    src = next(f for f in cli.files if f.rel == ".github/instructions/g0.instructions.md")
    assert cli.glob_loads(src) == ["src/**"] and vscode.glob_loads(vscode.file(src.rel) or src) == ["src/**"]
    rule = claude.file(".claude/rules/g0.md")
    assert rule is not None and claude.glob_loads(rule) == ["src"]
    off = cli.file(".github/instructions/off.instructions.md")
    assert off is not None and cli.glob_loads(off) is None and cli.loads_for(off, cli.ctx.paths) == set()


def test_remembered_hits_are_every_path_the_pattern_matches(agents: list[Agent]) -> None:
    """`pattern_hits` and `matches_any` (a narrowed candidate list, a matcher asked of many paths
    at once) against `pattern_matches` asked of every listed path."""
    for agent in (a for a in agents if a.id in GLOB_AGENTS):
        paths = list(agent.ctx.paths)
        patterns = {p for f in agent.files for p in [*agent.patterns(f), *(agent.glob_loads(f) or [])]}
        assert len(patterns) > 50
        for pattern in sorted(patterns):
            every = {p for p in paths if agent.pattern_matches(pattern, p)}
            assert agent.pattern_hits(pattern) == every, (agent.id, pattern)
            assert agent.matches_any(pattern) == bool(every), (agent.id, pattern)
