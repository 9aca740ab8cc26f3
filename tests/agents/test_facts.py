"""Each agent's facts: complete, well formed, and shown as they are in docs/agents.md."""

from __future__ import annotations

import re
from pathlib import Path

from rulelens.agents.facts import TOPICS, facts_table
from rulelens.agents.registry import AGENTS

DOC = Path(__file__).parents[2] / "docs" / "agents.md"
BEGIN, END = "<!-- facts: begin -->", "<!-- facts: end -->"


def current_table() -> str:
    return facts_table((a.id, a.facts) for a in AGENTS)


def test_every_agent_says_where_its_files_are_and_how_sure_each_claim_is() -> None:
    for agent in AGENTS:
        topics = {f.topic for f in agent.facts}
        assert "files" in topics, agent.id
        for f in agent.facts:
            assert f.topic in TOPICS and f.source and f.claim
            assert re.fullmatch(r"\d{4}-\d\d-\d\d", f.checked), (agent.id, f.checked)
        assert agent.confirmed == all(f.kind in ("code", "docs") for f in agent.facts)


def test_docs_table_is_the_data() -> None:
    """Regenerate with: python -c 'from tests.agents.test_facts import write; write()'."""
    text = DOC.read_text(encoding="utf-8")
    assert BEGIN in text and END in text
    shown = text.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    assert shown == current_table()


def write() -> None:
    text = DOC.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    DOC.write_text(head + BEGIN + "\n" + current_table() + "\n" + END + rest.split(END, 1)[1], encoding="utf-8")
