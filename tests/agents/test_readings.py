"""Findings that hold under every reading of an agent's matcher still open are facts; those that
one reading changes are `info`, naming it (agents/readings.py)."""

from __future__ import annotations

from pathlib import Path

from rulelens.agents.project import AgentProject
from rulelens.agents.readings import ANY_DEPTH, IGNORE_CASE, UNDOCUMENTED_READINGS, Reading
from rulelens.agents.registry import AGENTS
from rulelens.agents.traps import agent_problems
from rulelens.rules.model import Problem
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory

BODY = "Use strict types in every module of this project, and no any.\n"


def _found(root: Path, code: str) -> dict[str, Problem]:
    return {p.file: p for p in agent_problems(AgentProject(RuleRepository(root))) if p.code == code}


def test_a_glob_below_a_missing_folder_is_a_fact_for_every_agent(project: ProjectFactory) -> None:
    root = project({
        "src/a.ts": "",
        ".claude/rules/jobs.md": f'---\npaths:\n  - "app/Jobs/**"\n---\n{BODY}',
        ".cursor/rules/jobs.mdc": f"---\nglobs: app/Jobs/**\n---\n{BODY}",
        ".windsurf/rules/jobs.md": f'---\ntrigger: glob\nglobs: ["app/Jobs/**"]\n---\n{BODY}',
        ".kiro/steering/jobs.md": f'---\ninclusion: fileMatch\nfileMatchPattern: "app/Jobs/**"\n---\n{BODY}',
        ".agents/rules/jobs.md": f'---\ntrigger: glob\nglobs: "app/Jobs/**"\n---\n{BODY}',
        ".firebender/rules/jobs.mdc": f"---\nglobs: app/Jobs/**\n---\n{BODY}",
        ".qwen/rules/jobs.md": f'---\npaths:\n  - "app/Jobs/**"\n---\n{BODY}',
        ".github/instructions/jobs.instructions.md": f'---\napplyTo: "app/Jobs/**"\n---\n{BODY}',
    })
    every = [p for p in agent_problems(AgentProject(RuleRepository(root)))
             if p.code == "agent-glob-matches-nothing"]
    found = _found(root, "agent-glob-matches-nothing")
    # Copilot in VS Code and the Copilot CLI both read the instructions file, and both read Claude
    # Code's rule too (its `paths` as `applyTo`).
    assert len(every) == 11
    assert set(found) == {".claude/rules/jobs.md", ".cursor/rules/jobs.mdc", ".windsurf/rules/jobs.md",
                          ".kiro/steering/jobs.md", ".agents/rules/jobs.md", ".firebender/rules/jobs.mdc",
                          ".qwen/rules/jobs.md", ".github/instructions/jobs.instructions.md"}
    for p in every:
        assert p.severity == "warning", p
        assert "if " not in p.message
        # Matchers confirmed from the agents' code (VS Code's glob.ts, the released Claude Code,
        # Copilot CLI and Qwen Code): no reading to mention.
        assert ("in any reading" in p.message) != p.message.startswith(("Copilot", "Claude Code", "Qwen Code")), p


def test_a_suffix_no_file_has_is_a_fact(project: ProjectFactory) -> None:
    root = project({"src/a.ts": "", ".cursor/rules/tsx.mdc": f"---\nglobs: '*.tsx'\n---\n{BODY}"})
    assert _found(root, "agent-glob-matches-nothing")[".cursor/rules/tsx.mdc"].severity == "warning"


def test_a_verdict_one_reading_changes_is_info_naming_it(project: ProjectFactory) -> None:
    root = project({
        "src/a.ts": "", "src/B.TSX": "",
        ".cursor/rules/ts.mdc": f"---\nglobs: '*.ts'\n---\n{BODY}",
        ".cursor/rules/tsx.mdc": f"---\nglobs: 'src/*.tsx'\n---\n{BODY}",
    })
    found = _found(root, "agent-glob-matches-nothing")
    nested, case = found[".cursor/rules/ts.mdc"], found[".cursor/rules/tsx.mdc"]
    assert nested.severity == case.severity == "info"
    assert "if Cursor's `*` stays at the root" in nested.message
    assert "without a slash in any folder, it loads for `src/a.ts`" in nested.message
    assert "if Cursor ignores case, it loads for `src/B.TSX`" in case.message


def test_an_agent_with_no_open_reading_states_the_fact(project: ProjectFactory) -> None:
    """Continue's matcher is minimatch, from its code: `*.ts` at the root is certain."""
    root = project({"src/a.ts": "", ".continue/rules/ts.md": f'---\nglobs: "*.ts"\n---\n{BODY}'})
    found = _found(root, "agent-glob-matches-nothing")
    assert found[".continue/rules/ts.md"].severity == "warning"


def test_each_agent_declares_readings_or_has_a_confirmed_dialect() -> None:
    """The mechanism is generic: an unconfirmed dialect leaves the usual readings open, a
    confirmed one none, and an agent may name its own."""
    for agent in AGENTS:
        readings = agent.open_readings()
        if agent.readings is not None:
            assert readings == agent.readings
        elif agent.sure_of("dialect"):
            assert readings == ()
        else:
            assert readings == (ANY_DEPTH, IGNORE_CASE)
    by_id = {a.id: a for a in AGENTS}
    for agent_id in ("cursor", "windsurf", "kiro", "antigravity"):
        assert by_id[agent_id].open_readings() == UNDOCUMENTED_READINGS


def test_a_reading_says_which_patterns_it_can_change() -> None:
    assert ANY_DEPTH.affects("*.ts") and not ANY_DEPTH.affects("src/*.ts") and not ANY_DEPTH.affects("**") and ANY_DEPTH.affects("*")
    assert IGNORE_CASE.affects("src/**") and not IGNORE_CASE.affects("**/*")
    assert Reading("x", "y").affects("anything")
