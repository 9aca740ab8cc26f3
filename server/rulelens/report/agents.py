"""`match --agents`: what each agent loads for one file, in the words of `match`.

Agents are named as their users know them (`Agent.name`, as the editors show them); the JSON
output keys them by id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulelens.agents.facts import PROBABLY_NOTE, confirmed_note
from rulelens.report.words import MAYBE, plural

if TYPE_CHECKING:
    from rulelens.agents.base import Agent
    from rulelens.agents.project import PathView


def agent_note(agent: Agent) -> str:
    """How sure the agent's answer is: read from its released code, or resting on a claim
    nothing confirms; nothing where its docs alone say it."""
    if agent.confirmed_in:
        return f"  ({confirmed_note(agent.confirmed_in)})"
    return "" if agent.confirmed else f"  ({PROBABLY_NOTE})"


def loads_text(present: list[Agent], view: PathView) -> str:
    """What each agent loads for one file (`match --agents`), after that file's rules."""
    if not present:
        return "\n  No agent's rule files in this project."
    lines = [f"\n  What each agent loads for {view.path}:"]
    for agent in present:
        loads = view.loads.get(agent.id, [])
        note = agent_note(agent)
        total = view.bytes_of(agent.id)
        lines.append(f"\n  {agent.name}: {plural(len(loads), 'file')}, {total:,} bytes{note}")
        for load in loads:
            why = f"  by {', '.join(load.patterns)}" if load.patterns else ""
            lines.append(f"    {load.how:<9} {load.file}  {load.bytes:,} B{why}")
        for m in view.maybe.get(agent.id, []):
            lines.append(f"    maybe     {m.file}  ({MAYBE[m.how]})")
        if agent.id in view.over_budget:
            lines.append(f"    ! over budget: {view.over_budget[agent.id]}")
    return "\n".join(lines)
