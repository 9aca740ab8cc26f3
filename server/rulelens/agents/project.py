"""Every agent's view of one project: which agents are present, what each loads for a path."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rulelens.agents.base import Agent, Context
from rulelens.agents.formats.codex import cap_words, chain_overflow, overflow_words
from rulelens.agents.model import Load, Maybe, Moment
from rulelens.agents.registry import AGENTS
from rulelens.rules.model import Problem
from rulelens.rules.repository import RuleRepository
from rulelens.workspace.filelist import FileList


@dataclass(frozen=True)
class PathView:
    """What each present agent loads for one path (`loads`), and may load (`maybe`)."""

    path: str
    loads: dict[str, list[Load]]
    maybe: dict[str, list[Maybe]]
    over_budget: dict[str, str]
    # Agents whose answer rests on a claim neither their code nor their docs confirm.
    probably: tuple[str, ...] = ()
    # Per agent, each file it loads whose text is another's it loads too: (that file, the first).
    same_text: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # Agents whose whole answer for this moment was run end to end at a release: the release, by
    # agent id (`Agent.end_to_end`).
    confirmed_in: dict[str, str] = field(default_factory=dict)
    # Agents whose matcher and file reading were checked against a release's code, but not their
    # whole answer for this moment: the release, by agent id.
    matcher_confirmed_in: dict[str, str] = field(default_factory=dict)
    # The moment answered: the agent reads the path (the default), edits it, or creates it.
    on: Moment = "read"
    # Per agent, why its answer on this moment lacks files another moment has (a refused file).
    moment_notes: dict[str, str] = field(default_factory=dict)

    def bytes_of(self, agent: str) -> int:
        return sum(load.bytes for load in self.loads.get(agent, []))


class AgentProject:
    """The agents whose files a project has, read once; `view(path)` answers per path."""

    def __init__(self, repo: RuleRepository, files: FileList | None = None) -> None:
        self.repo = repo
        self.root: Path = repo.root
        listing = files if files is not None else FileList.for_root(repo.root)
        self.ctx = Context(self.root, listing.paths, repo, listing)
        self.agents: list[Agent] = [t(self.ctx) for t in AGENTS]
        self.present: list[Agent] = [a for a in self.agents if a.files]
        self.ctx.agents = self.present
        # The present agents but the home format's (Boost's rules are the project's rules).
        self.others: list[Agent] = [a for a in self.present if not a.home]
        # Answers computed once per reading (editors keep one reading until an agent file changes):
        # what each agent file reaches, by reading and coverage key (`agents-disagree`, `map`);
        # the budget findings; and `agents-disagree`'s findings that start at a file, by file.
        self.coverage: dict[tuple[str, ...], set[str]] = {}
        self.budget_problems: list[Problem] | None = None
        self.disagreements: dict[str, list[Problem]] = {}

    def agent(self, agent_id: str) -> Agent | None:
        return next((a for a in self.agents if a.id == agent_id), None)

    def owner_of(self, rel: str) -> Agent | None:
        """The agent whose rule file `rel` is (for an editor: its frontmatter key is `keys[0]`)."""
        readers = [a for a in self.others if a.file(rel) is not None]
        name = rel.rpartition("/")[2]
        return next((a for a in readers if name not in a.borrows), readers[0] if readers else None)

    def other_loads(self, path: str) -> list[list[Load]]:
        """What each agent but the home format's loads for `path` when it reads it, in order."""
        view = self.view(path)
        return [view.loads.get(a.id, []) for a in self.others]

    def view(self, path: str, on: Moment = "read") -> PathView:
        """What each present agent loads for `path` when it reads it (`on`: edits, creates it)."""
        loads: dict[str, list[Load]] = {}
        maybe: dict[str, list[Maybe]] = {}
        over: dict[str, str] = {}
        same: dict[str, list[tuple[str, str]]] = {}
        moments: dict[str, str] = {}
        for agent in self.present:
            decided = agent.view(path, on)
            moment = agent.moment_note(path, on)
            if moment is None and on != "read" and not agent.per_moment:
                moment = (f"the same files as on read: {agent.name}'s answer was not checked per moment"
                          + ("" if agent.confirmed_in else " (modelled from its docs or source)"))
            if moment:
                moments[agent.id] = moment
            loads[agent.id] = [d for d in decided if isinstance(d, Load)]
            maybe[agent.id] = [d for d in decided if isinstance(d, Maybe)]
            notes = [budget_note(agent, loads[agent.id])]
            for load in loads[agent.id]:
                f = agent.file(load.file)
                notes.append(agent.file_budget_note(f) if f is not None else None)
            found = [n for n in notes if n]
            if found:
                over[agent.id] = "; ".join(found)
            twice = same_text(agent, loads[agent.id])
            if twice:
                same[agent.id] = twice
        probably = tuple(a.id for a in self.present if not a.confirmed)
        releases = {a.id: a.confirmed_in for a in self.present if a.confirmed_in and on in a.end_to_end}
        matcher = {a.id: a.confirmed_in for a in self.present if a.confirmed_in and on not in a.end_to_end}
        return PathView(path, loads, maybe, over, probably, same, releases, matcher, on, moments)


def same_text(agent: Agent, loads: list[Load]) -> list[tuple[str, str]]:
    """The loaded files whose text is that of one loaded before them (`AGENTS.md` copied to
    `CLAUDE.md`), each with that first file: the agent reads the same words twice, and the
    bytes counted for it count them twice."""
    first: dict[tuple[int, str], str] = {}
    out: list[tuple[str, str]] = []
    for load in loads:
        f = agent.file(load.file)
        if f is None or not f.text.strip():
            continue
        key = (f.size, f.text)
        if key in first:
            out.append((load.file, first[key]))
        else:
            first[key] = load.file
    return out


def budget_note(agent: Agent, loads: list[Load]) -> str | None:
    """A one-line note when the path's load exceeds the agent's per-path cap."""
    budget = agent.budget
    if budget is None or budget.per != "path" or sum(load.bytes for load in loads) <= budget.limit:
        return None  # within the cap nothing is cut (`chain_overflow`)
    blank = agent.blank_starts(loads)
    total, cut = chain_overflow(loads, budget.limit, blank)
    if not cut:
        return None
    return (f"{total:,} bytes exceed {agent.name}'s {cap_words(budget.limit)} cap ({budget.source}): "
            f"{overflow_words(loads, budget.limit, blank)}")
