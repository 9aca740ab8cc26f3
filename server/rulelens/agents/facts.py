"""What rulelens relies on about each agent, with where each claim comes from and how sure it is.

Each agent module lists its facts; `docs/agents.md` shows them (tests/agents/test_facts.py keeps
the table current). A claim is confirmed when the agent's code or its official docs say it;
findings that rest on an unconfirmed claim are at most `info` and worded as a condition.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Kind = Literal["code", "docs", "third-party", "inferred"]
Topic = Literal["files", "keys", "loading", "dialect", "cap"]
TOPICS: tuple[Topic, ...] = ("files", "keys", "loading", "dialect", "cap")
CONFIRMING: frozenset[str] = frozenset({"code", "docs"})
PROBABLY = "probably"
# How an answer that rests on an unconfirmed claim is marked wherever it is shown.
PROBABLY_NOTE = "probably: documented behaviour not confirmed"


@dataclass(frozen=True)
class Fact:
    """One behaviour of an agent: the claim, its source (a URL or repo@commit path), the kind of
    source, and the date (YYYY-MM-DD) it was checked."""

    topic: Topic
    claim: str
    source: str
    kind: Kind
    checked: str

    @property
    def confirmed(self) -> bool:
        return self.kind in CONFIRMING


def all_confirmed(facts: Iterable[Fact], topic: Topic | None = None) -> bool:
    """Whether every fact (of `topic`) is confirmed by code or official docs."""
    return all(f.confirmed for f in facts if topic is None or f.topic == topic)


def facts_table(agents: Iterable[tuple[str, Iterable[Fact]]]) -> str:
    """The Markdown table of every agent's facts, as docs/agents.md shows it."""
    rows = ["| agent | about | claim | source | kind | checked |", "| --- | --- | --- | --- | --- | --- |"]
    for agent_id, facts in agents:
        for f in sorted(facts, key=lambda x: TOPICS.index(x.topic)):
            claim = f.claim.replace("|", "\\|")
            rows.append(f"| `{agent_id}` | {f.topic} | {claim} | {f.source} | {f.kind} | {f.checked} |")
    return "\n".join(rows)
