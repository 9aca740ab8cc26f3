"""`match --agents`: what each agent loads for one file, in the words of `match`.

Agents are named as their users know them (`Agent.name`, as the editors show them); the JSON
output keys them by id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulelens.agents.facts import PROBABLY_NOTE
from rulelens.report.words import maybe_words, plural

if TYPE_CHECKING:
    from rulelens.agents.base import Agent
    from rulelens.agents.model import Moment
    from rulelens.agents.observed import AgentSeen, FileSeen, Observation
    from rulelens.agents.project import PathView


def agent_names(others: bool = False) -> str:
    """Every agent of the registry by name, in its order (`others`: all but Boost), for lists
    people read: `--help`, and the docs' lists (tests/docs/test_doc_lists.py)."""
    from rulelens.agents.model import named_together
    from rulelens.agents.registry import AGENTS

    return named_together([a.name for a in AGENTS[1 if others else 0:]])


def agent_note(agent: Agent, on: Moment = "read") -> str:
    """How sure the agent's answer on `on` is: run end to end at a release, its matcher read
    from its released code, or resting on a claim nothing confirms; nothing where its docs alone
    say it."""
    stamp = agent.stamp(on)
    if stamp:
        return f"  ({stamp})"
    return "" if agent.confirmed else f"  ({PROBABLY_NOTE})"


def moment_words(on: Moment, given: bool = True) -> str:
    """The moment an answer is for, as the answers' headings say it: "on read (the default)"."""
    return f"on {on}" + ("" if given else " (the default)")


def loads_text(present: list[Agent], view: PathView,
               seen: Mapping[str, AgentSeen] | None = None, given: bool = True) -> str:
    """What each agent loads for one file (`match --agents`), after that file's rules; with
    `seen`, what real sessions showed of it (agents/observed.py); `given`: whether the moment was
    asked for (else it is said to be the default)."""
    if not present:
        return "\n  No agent's rule files in this project."
    lines = [f"\n  What each agent loads for {view.path} {moment_words(view.on, given)}:"]
    for agent in present:
        loads = view.loads.get(agent.id, [])
        note = agent_note(agent, view.on)
        total = view.bytes_of(agent.id)
        lines.append(f"\n  {agent.name}: {plural(len(loads), 'file')}, {total:,} bytes{note}")
        observed = (seen or {}).get(agent.id)
        if observed is not None:
            lines.append(f"    {observed_head(agent, observed)}")
        by_file = {f.file: f for f in observed.files} if observed is not None else {}
        for load in loads:
            why = f"  by {', '.join(load.patterns)}" if load.patterns else ""
            if load.via is not None:
                why += f"  imported by {load.via}"
            lines.append(f"    {load.how:<9} {load.file}  {load.bytes:,} B{why}")
            if load.file in by_file:
                lines += [f"      {line}" for line in file_seen_lines(by_file[load.file], load.how, observed)]
        for o in observed.unexpected if observed is not None else ():
            lines.append(f"    ! {o.file} was seen loading for this path in a real session "
                         f"({when_why(o)}), but rulelens says it does not load here")
        for m in view.maybe.get(agent.id, []):
            lines.append(f"    maybe     {m.file}  ({maybe_words(m.how, m.file, agent.name, m.via)})")
        if agent.id in view.moment_notes:
            lines.append(f"    ! {view.moment_notes[agent.id]}")
        for twice, first in view.same_text.get(agent.id, []):
            lines.append(f"    ! {twice} has the same text as {first}; both load, so the bytes above "
                         "count that text twice")
        if agent.id in view.over_budget:
            lines.append(f"    ! over budget: {view.over_budget[agent.id]}")
    return "\n".join(lines)


def observed_lines(present: list[Agent], view: PathView, seen: Mapping[str, AgentSeen]) -> str:
    """What real sessions showed for a path, alone (MCP's rules-for-path without a moment, where
    the answer does not list every agent's loads): per agent with observed sessions, each
    predicted file's last load or its absence, and the loads that contradict the prediction."""
    lines: list[str] = []
    for agent in present:
        observed = seen.get(agent.id)
        if observed is None:
            continue
        lines.append(f"{agent.name} {observed_head(agent, observed)}")
        how = {load.file: load.how for load in view.loads.get(agent.id, [])}
        for f in observed.files:
            lines += [f"  {f.file}: {line}" for line in file_seen_lines(f, how.get(f.file, ""), observed)]
        for o in observed.unexpected:
            lines.append(f"  ! {o.file} was seen loading for this path in a real session "
                         f"({when_why(o)}), but rulelens says it does not load here")
    return "\n".join(lines)


def observed_head(agent: Agent, seen: AgentSeen) -> str:
    hook = agent.observe_hook
    event = hook.event if hook is not None else "its hook"
    return f"observed: {plural(seen.sessions, 'real session')} ({event} hook, .git/rulelens/observed.jsonl)"


def when_why(o: Observation) -> str:
    """"2026-12-07 19:01 UTC, path_glob_match for app/Money.php": when, and the agent's reason."""
    at = o.at.replace("T", " ").removesuffix("Z")[:16] + " UTC" if o.at else "at an unknown time"
    why = o.reason or "no reason given"
    if o.trigger:
        why += f" for {o.trigger}"
    if o.parent:
        why += f", imported by {o.parent}"
    return f"{at}, {why}"


def file_seen_lines(f: FileSeen, how: str, seen: AgentSeen | None) -> list[str]:
    """What real sessions showed of one predicted file: seen, never seen, or not seeable."""
    if f.silent:
        return [f"not observable: {f.silent}"]
    out = [f"last seen loading {when_why(f.last)}" if f.last else
           f"not seen loading in {plural(seen.sessions if seen else 0, 'observed session')}"]
    if f.missed:
        which = "that started" if how == "always" else "that read a file it matches"
        out.append(f"! never loaded in {plural(f.missed, 'observed session')} {which}, "
                   "though rulelens says it loads")
    return out


# -- review --agents --------------------------------------------------------------------------
@dataclass
class Loaded:
    """One other agent's rule file that loads for some of a change's files."""

    file: str
    agents: list[str] = field(default_factory=list)  # as their users know them
    paths: list[str] = field(default_factory=list)


def review_loads(present: list[Agent], views: Mapping[str, PathView]) -> list[Loaded]:
    """Each other agent's rule file that loads for a changed file, with the agents that load it
    and the files; Boost is left out, as `review` itself shows its rules."""
    found: dict[str, Loaded] = {}
    for path, view in views.items():
        for agent in present:
            if agent.home:
                continue
            for load in view.loads.get(agent.id, []):
                entry = found.setdefault(load.file, Loaded(load.file))
                if agent.name not in entry.agents:
                    entry.agents.append(agent.name)
                if path not in entry.paths:
                    entry.paths.append(path)
    return [found[k] for k in sorted(found, key=lambda f: f.encode())]


def reach(entry: Loaded, changed: int) -> str:
    return "every changed file" if len(entry.paths) == changed else plural(len(entry.paths), "changed file")


def review_text(loaded: list[Loaded], changed: int) -> list[str]:
    """`review --agents`' section after Boost's rules: always-loaded files in one line each."""
    if not loaded:
        return ["", "No other agent's rule file loads for the changed files."]
    lines = ["", "Other agents' rule files for the changed files:"]
    for entry in loaded:
        lines.append(f"  {entry.file} ({', '.join(entry.agents)}): {reach(entry, changed)}")
        if len(entry.paths) < changed:
            lines += [f"    {p}" for p in entry.paths]
    return lines

