"""What each present agent other than Boost loads for an open file, for the hover's "In other
agents" section, the code lens and `rulelens/rulesForPath`: as the agent reads the file (the
default moment, which the hover names).

Boost is left out: its rules are the main hover section, the lenses and `rules`. The reading
of the agents' files is the root's (cached until one of them changes).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelens.agents.base import Agent
from rulelens.agents.facts import PROBABLY_NOTE, confirmed_note
from rulelens.agents.model import DEFAULT_MOMENT, Load, Maybe, named_together
from rulelens.agents.observed import AgentSeen
from rulelens.lsp.session import Session
from rulelens.lsp.wire.payloads import AgentCap, AgentLoad, AgentMaybe, AgentView, EntryRef
from rulelens.lsp.wire.sanitize import code, defang
from rulelens.lsp.workspace.snapshot import DocumentSnapshot
from rulelens.report.agents import file_seen_lines, observed_head, when_why
from rulelens.report.words import MAYBE
from rulelens.rules.format.reading import read_entries

MAX_FILES = 4  # files listed per agent in the hover; the rest are counted
MAX_MAYBE = 3  # files named in the one line of files the agent may load
MAX_CHARS = 3_000  # the section's visible text (links' targets not counted); agents past it are counted
MOMENT = DEFAULT_MOMENT  # what the editor shows: the files that load when the agent reads the open file
MOMENT_WORDS = f"when each reads this file (on {MOMENT})"


@dataclass(frozen=True)
class AgentLoads:
    agent: Agent
    loads: list[Load]
    maybe: list[Maybe]
    over_budget: str | None
    seen: AgentSeen | None = None  # what real sessions showed (agents/observed.py)
    moment_note: str | None = None  # why a read of the file loads less than an edit would
    team: bool | None = None  # in the project's `agents` setting; None: the project names none


def other_agents(server: Session, target: DocumentSnapshot) -> list[AgentLoads]:
    """Per present agent other than Boost, in the core's order: what loads for the file."""
    project = target.agents()
    if not project.others:
        return []
    view = project.view(target.rel, MOMENT)
    observed = target.root.observed()
    seen = observed.for_path(project, view) if observed else {}
    team = _team(target)
    found = [AgentLoads(a, view.loads.get(a.id, []), view.maybe.get(a.id, []), view.over_budget.get(a.id),
                        seen.get(a.id), view.moment_notes.get(a.id), (a.id in team) if team else None)
             for a in project.others]
    # The team's agents first, in the order the setting names them; the others after, as they were.
    return sorted(found, key=lambda x: team.index(x.agent.id) if x.agent.id in team else len(team))


def _team(target: DocumentSnapshot) -> tuple[str, ...]:
    """The project's `agents` setting (rules/check/config.py); none where it has none or its
    configuration is broken (the diagnostics say so)."""
    from rulelens.agents.codes import known_agents, known_codes
    from rulelens.rules.check.config import ConfigError, load_config

    try:
        return load_config(target.root.path, known_codes(), agent_ids=known_agents()).agents
    except ConfigError:
        return ()


def _team_split(found: list[AgentLoads]) -> tuple[list[AgentLoads], list[AgentLoads]]:
    """The agents to show, and those the project's `agents` setting leaves out that load files."""
    return ([x for x in found if x.team is not False],
            [x for x in found if x.team is False and (x.loads or x.maybe)])


def _left_out(others: list[AgentLoads], markdown: bool) -> str | None:
    if not others:
        return None
    names = named_together([x.agent.name for x in others])
    setting = "`agents`" if markdown else "agents"
    return f"…and {names}, which the project's {setting} setting leaves out"


def loading(found: list[AgentLoads]) -> list[AgentLoads]:
    return [x for x in found if x.loads]


# -- the hover section ----------------------------------------------------------------------
def _why(load: Load, as_code: bool) -> str:
    if load.via is not None:
        importer = code(load.via) if as_code else load.via
        when = {"always": "at start", "directory": "with the folder chain",
                "glob": "with its importer"}[load.how]
        return f"imported by {importer}, {when}"
    if load.how == "glob" and load.patterns:
        shown = ", ".join(code(p) if as_code else p for p in load.patterns)
        return f"by {shown}"
    # A glob load without patterns: Continue's `regex` alone matched the file's contents.
    return {"always": "always", "directory": "folder chain", "glob": "by its contents"}[load.how]


def _maybe_line(maybe: list[Maybe], as_code: bool) -> str | None:
    """One line: the first few files the model decides on, then those loaded only on request (file
    names only: the line stays short; `rulesForPath` and `match --agents` have the paths)."""
    parts: list[str] = []
    room = MAX_MAYBE
    for how, label in MAYBE.items():
        files = [m.file for m in maybe if m.how == how]
        if not files:
            continue
        shown = files[:room]
        room -= len(shown)
        more = len(files) - len(shown)
        if not shown:
            parts.append(f"{label}: {len(files)} files")
            continue
        # A folder's file by its path: its name alone says nothing (every one is `AGENTS.md`).
        short = (lambda rel: rel) if how == "start-folder" else _short_name
        names = ", ".join(code(n) if as_code else n for n in map(short, shown))
        parts.append(f"{label}: {names}" + (f" (+{more})" if more else ""))
    return " · ".join(parts) or None


def _seen(x: AgentLoads, load: Load) -> list[str]:
    """What real sessions showed of one loaded file, as `match --agents` words it."""
    if x.seen is None:
        return []
    found = next((f for f in x.seen.files if f.file == load.file), None)
    return file_seen_lines(found, load.how, x.seen) if found is not None else []


def _seen_tail(x: AgentLoads) -> list[str]:
    """The agent's observed sessions, and the loads seen for this path that rulelens does not
    predict."""
    if x.seen is None:
        return []
    return [observed_head(x.agent, x.seen)] + [
        f"! {o.file} was seen loading for this file in a real session ({when_why(o)}), "
        "but rulelens says it does not load here" for o in x.seen.unexpected]


def _seen_markdown(line: str) -> str:
    return f"⚠ {defang(line[2:])}" if line.startswith("! ") else f"*{defang(line)}*"


def _short_name(rel: str) -> str:
    """A file's name in the one short line; a skill (`…/pdf/SKILL.md`) by its folder (`pdf`), since
    every skill's file has the same name."""
    folder, _, name = rel.rpartition("/")
    return folder.rpartition("/")[2] or name if name == "SKILL.md" else name


def grouped(found: list[AgentLoads]) -> list[tuple[list[Agent], AgentLoads]]:
    """Agents that load the same files the same way (a Boost project's `AGENTS.md`, read by half a
    dozen agents) as one entry: the agents, and what the first of them loads."""
    groups: dict[object, tuple[list[Agent], AgentLoads]] = {}
    for x in found:
        key = (tuple((load.file, load.how, load.patterns, load.via) for load in x.loads),
               tuple((m.file, m.how) for m in x.maybe), x.over_budget, x.moment_note,
               id(x.seen) if x.seen is not None else None)  # observed sessions are per agent
        if key in groups:
            groups[key][0].append(x.agent)
        else:
            groups[key] = ([x.agent], x)
    return list(groups.values())


def sureness(agent: Agent) -> str | None:
    """"confirmed in <release>" for an agent whose release was run end to end for a read,
    "matcher confirmed in <release>" for one whose matcher was read from its released code, the
    "probably" note for one resting on an unconfirmed claim, None where its docs say it."""
    stamp = agent.stamp(MOMENT)
    if stamp:
        return stamp
    return None if agent.confirmed else PROBABLY_NOTE


def matcher_sureness(agent: Agent) -> str | None:
    """How sure the agent's matcher alone is: "confirmed in <release>" where it was read from
    the release's code, for a hover that counts a glob with it."""
    if agent.confirmed_in:
        return confirmed_note(agent.confirmed_in)
    return None if agent.confirmed else PROBABLY_NOTE


def _head(x: AgentLoads, markdown: bool, agents: list[Agent] | None = None) -> str:
    agents = agents or [x.agent]
    names = named_together([a.name for a in agents])
    name = f"**{names}**" if markdown else names
    if x.loads:
        total = sum(load.bytes for load in x.loads)
        count = "1 file" if len(x.loads) == 1 else f"{len(x.loads)} files"
        what = f"{count}, {total:,} B"
    else:
        what = "nothing loads"
    marks = {a.name: m for a in agents if (m := sureness(a)) is not None}
    if len(agents) == 1 or (len(set(marks.values())) <= 1 and len(marks) == len(agents)):
        mark = next(iter(marks.values()), None)
    else:  # "confirmed in A 1.2; matcher confirmed in B 3.4; C and D: probably (…)"
        by_mark: dict[str, list[str]] = {}
        for who, m in marks.items():
            by_mark.setdefault(m, []).append(who)
        parts = [m if m.startswith(("confirmed in", "matcher confirmed in")) and len(those) == 1
                 else f"{named_together(those)}: {m}" for m, those in by_mark.items()]
        mark = "; ".join(parts) or None
    note = "" if mark is None else (f" · *{mark}*" if markdown else f" ({mark})")
    return f"{name} · {what}{note}" if markdown else f"{name}: {what}{note}"


def section_markdown(target: DocumentSnapshot, found: list[AgentLoads]) -> str:
    """A few lines per agent: the files that load (linked) and why, and one line of what it may load."""
    blocks: list[str] = []
    used = 0
    found, left = _team_split(found)
    groups = grouped(found)
    for n, (agents, x) in enumerate(groups):
        lines = [_head(x, True, agents)]
        hidden = 0
        for load in x.loads[:MAX_FILES]:
            target_uri = target.root.uri_of(load.file)
            hidden += len(target_uri)
            lines.append(f"- [{defang(load.file)}]({target_uri}) {_why(load, True)}")
            lines += [f"  - {_seen_markdown(line)}" for line in _seen(x, load)]
        if len(x.loads) > MAX_FILES:
            lines.append(f"- …and {len(x.loads) - MAX_FILES} more")
        lines += [f"- {_seen_markdown(line)}" for line in _seen_tail(x)]
        maybe = _maybe_line(x.maybe, True)
        if maybe:
            lines.append(f"- {maybe}")
        if x.moment_note:
            lines.append(f"- {defang(x.moment_note)}")
        if x.over_budget:
            lines.append(f"- ⚠ over budget: {defang(x.over_budget)}")
        block = "\n".join(lines)
        if used + len(block) - hidden > MAX_CHARS:
            more = f"`rulelens match --agents {defang(target.rel)}`"
            blocks.append(f"…and {sum(len(a) for a, _ in groups[n:])} more agents ({more})")
            break
        blocks.append(block)
        used += len(block) - hidden
    else:
        blocks += [line for line in (_left_out(left, True),) if line]
    return f"**In other agents** · {MOMENT_WORDS}\n\n" + "\n\n".join(blocks)


def section_plain(found: list[AgentLoads]) -> str:
    lines = [f"In other agents ({MOMENT_WORDS}):"]
    used = 0
    found, left = _team_split(found)
    groups = grouped(found)
    for n, (agents, x) in enumerate(groups):
        block = [_head(x, False, agents)]
        for load in x.loads[:MAX_FILES]:
            block.append(f"  {load.file}  {_why(load, False)}")
            block += [f"    {line}" for line in _seen(x, load)]
        if len(x.loads) > MAX_FILES:
            block.append(f"  …and {len(x.loads) - MAX_FILES} more")
        block += [f"  {line}" for line in _seen_tail(x)]
        maybe = _maybe_line(x.maybe, False)
        if maybe:
            block.append(f"  {maybe}")
        if x.moment_note:
            block.append(f"  {x.moment_note}")
        if x.over_budget:
            block.append(f"  over budget: {x.over_budget}")
        text = "\n".join(block)
        if used + len(text) > MAX_CHARS:
            lines.append(f"…and {sum(len(a) for a, _ in groups[n:])} more agents")
            break
        lines.append(text)
        used += len(text)
    else:
        lines += [line for line in (_left_out(left, False),) if line]
    return "\n".join(lines)


# -- rulelens/rulesForPath --------------------------------------------------------------------
def _load(load: Load, uri: str, entries: list[EntryRef]) -> AgentLoad:
    out = AgentLoad(file=load.file, uri=uri, how=load.how, patterns=list(load.patterns), bytes=load.bytes,
                    entries=entries)
    if load.via is not None:
        out["importedBy"] = load.via
    return out


def payload(target: DocumentSnapshot, found: list[AgentLoads]) -> list[AgentView]:
    uri = target.root.uri_of
    return [AgentView(
        id=x.agent.id, name=x.agent.name, confirmed=x.agent.confirmed,
        confirmedIn=x.agent.confirmed_in if MOMENT in x.agent.end_to_end else None,
        matcherConfirmedIn=x.agent.confirmed_in if MOMENT not in x.agent.end_to_end else None,
        loads=[_load(load, uri(load.file), _entries(x.agent, load.file)) for load in x.loads],
        maybe=[AgentMaybe(file=m.file, uri=uri(m.file), how=m.how) for m in x.maybe],
        overBudget=x.over_budget, cap=_cap(x.agent)) for x in found]


def _entries(agent: Agent, rel: str) -> list[EntryRef]:
    """The `## ` headings of an agent file, read as Boost's entries are (the same `## ` rule)."""
    f = agent.file(rel)
    if f is None:
        return []
    return [EntryRef(title=e.title, line=e.line + 1) for e in read_entries(f.text.splitlines(), 0)[2]]


def _cap(agent: Agent) -> AgentCap | None:
    b = agent.budget
    return None if b is None else AgentCap(limit=b.limit, unit=b.unit, per=b.per, source=b.source)
