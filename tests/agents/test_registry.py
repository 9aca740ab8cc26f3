"""The agent registry is the one list of agents: every surface derives from it."""

from __future__ import annotations

from pathlib import Path

from wcmatch import glob as wglob

from rulelens.agents.editing import is_agent_path
from rulelens.agents.project import AgentProject
from rulelens.agents.registry import AGENT_IDS, AGENTS, FILE_GLOBS
from rulelens.rules.repository import RuleRepository

FIXTURE = Path(__file__).parent / "fixtures" / "all_agents"
SERVER = Path(__file__).parents[2] / "server" / "rulelens"


def test_ids_are_unique_and_boost_comes_first() -> None:
    assert len(set(AGENT_IDS)) == len(AGENT_IDS)
    assert AGENT_IDS[0] == "boost"
    assert [a.id for a in AGENTS if a.home] == ["boost"]  # one home format, the one every surface sets apart


def test_every_discovered_file_is_where_its_agent_declares_files() -> None:
    project = AgentProject(RuleRepository(FIXTURE))
    seen = 0
    for agent in project.others:
        shapes = wglob.compile(list(agent.file_globs), flags=wglob.GLOBSTAR | wglob.BRACE | wglob.DOTGLOB)
        for f in agent.files:
            if agent.follows_mentions and not shapes.match(f.rel):
                continue  # reached through a file that names it (Amp's @-mentions)
            assert shapes.match(f.rel), f"{agent.id} reads {f.rel}, outside its file_globs"
            assert is_agent_path(f.rel)
            seen += 1
    assert seen >= 20  # the fixture has files for every agent


def test_watched_globs_are_the_agents_declarations() -> None:
    assert tuple(g for a in AGENTS for g in a.file_globs) == FILE_GLOBS
    assert not is_agent_path("src/main.py")


def test_no_module_outside_the_agents_formats_names_an_agent_id() -> None:
    """Adding an agent is one module and one registry line: nothing else may list agents by id,
    Boost's included (its role is declared: `Agent.home`). An agent whose binary runs end to end
    also has one launcher module of its own (its command's name, `codex`, may be spelt like an
    id). One string is no agent id though spelt as one: the name of the rules folder's `boost/`
    subfolder, Boost's format's own (`rules/repository.py`'s `BOOST`), below `agents/`."""
    ids = list(AGENT_IDS)
    offenders = []
    for path in SERVER.rglob("*.py"):
        rel = path.relative_to(SERVER).as_posix()
        if rel.startswith("agents/formats/") or rel == "agents/registry.py":
            continue
        if rel.startswith("agent_runs/launchers/") and path.stem not in ("__init__", "base"):
            continue
        text = path.read_text(encoding="utf-8")
        if rel == "rules/repository.py":
            text = text.replace('BOOST = "boost"', "", 1)  # the folder's name (above)
        offenders += [f"{rel}: {i}" for i in ids if f'"{i}"' in text or f"'{i}'" in text]
    assert offenders == []
