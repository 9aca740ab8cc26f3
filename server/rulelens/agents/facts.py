"""What rulelens relies on about each agent, with where each claim comes from and how sure it is.

Each agent module lists its facts; `docs/agents.md` shows them (tests/agents/test_facts.py keeps
the table current). A claim is confirmed when the agent's code or its official docs say it;
findings that rest on an unconfirmed claim are at most `info` and worded as a condition. A
`code` fact read from a release names it in its source as `<package>@<version>`, and the agent
declares that version as a field (`Agent.release`), the one every surface marks an answer
"confirmed in". `release_of` reads it back from the sources, for the test that holds each
declaration to its facts.
"""

from __future__ import annotations

import re
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
# A released version in a source: `@anthropic-ai/claude-code-linux-x64@2.1.337 (npm)`, `microsoft/
# vscode@1.117.0`; a commit (`laravel/boost@8d8cb70`) names no release.
_RELEASE = re.compile(r"@(\d+(?:\.\d+)+(?:-[\w.]+)?)(?![\w.-])")


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


def release_of(facts: Iterable[Fact]) -> str | None:
    """The release the agent's code was read or run at, from the `code` facts' sources (the newest
    where they name several): what "confirmed in" names, so no surface spells a version out."""
    found = {m.group(1) for f in facts if f.kind == "code" for m in [_RELEASE.search(f.source)] if m}
    return max(found, key=lambda v: tuple(int(n) for n in v.partition("-")[0].split("."))) if found else None


def confirmed_note(release: str) -> str:
    """How an answer read from an agent's released code is marked wherever it is shown."""
    return f"confirmed in {release}"


def facts_table(agents: Iterable[tuple[str, Iterable[Fact]]]) -> str:
    """The Markdown table of every agent's facts, as docs/agents.md shows it."""
    rows = ["| agent | about | claim | source | kind | checked |", "| --- | --- | --- | --- | --- | --- |"]
    for agent_id, facts in agents:
        for f in sorted(facts, key=lambda x: TOPICS.index(x.topic)):
            claim = f.claim.replace("|", "\\|")
            rows.append(f"| `{agent_id}` | {f.topic} | {claim} | {f.source} | {f.kind} | {f.checked} |")
    return "\n".join(rows)
