"""`check`'s findings for other agents' files: each agent's traps, budgets, and drift between
agents that carry the same rule."""

from __future__ import annotations

import re
from itertools import combinations

from rulelens.agents.base import Agent
from rulelens.agents.formats.codex import chain_overflow
from rulelens.agents.model import AgentFile, Load
from rulelens.agents.project import AgentProject
from rulelens.rules.model import Problem

_SPACE = re.compile(r"\s+")
MIN_BODY = 24


def agent_problems(project: AgentProject) -> list[Problem]:
    """Every trap, exceeded budget and disagreement, in file order."""
    out: list[Problem] = []
    for agent in project.present:
        out.extend(agent.traps())
    out.extend(budget_problems(project))
    out.extend(disagreements(project))
    return sorted(out, key=lambda p: (p.file.encode(), p.line, p.code))


def budget_problems(project: AgentProject) -> list[Problem]:
    out: list[Problem] = []
    for agent in project.present:
        budget = agent.budget
        if budget is None or budget.per != "path":
            continue
        reported: set[str] = set()
        for folder in sorted(project.ctx.folders):
            probe = f"{folder}/x" if folder else "x"
            loads = [d for d in agent.view(probe) if isinstance(d, Load)]
            total, cut = chain_overflow(loads, budget.limit)
            for rel in cut:
                if rel in reported:
                    continue
                reported.add(rel)
                where = f"`{folder}/`" if folder else "the root"
                out.append(Problem(rel, 0, "warning", "agent-budget-exceeded",
                                   f"Working in {where}, {agent.name}'s instruction chain is "
                                   f"{total:,} bytes; "
                                   f"it stops adding files at {budget.limit // 1024} KiB "
                                   f"({budget.source}), so this file is cut. Shorten it or the files "
                                   "before it."))
    return out


_ENTRY = re.compile(r"^##[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
Key = tuple[str, str]


def _identity(f: AgentFile) -> list[Key]:
    """What makes two files the same rule: the `# heading`, a `## entry` title, or the body."""
    keys: list[Key] = []
    if f.heading:
        keys.append(("#", f.heading.strip()))
    keys.extend(("##", m.group(1).strip()) for m in _ENTRY.finditer(f.body))
    body = _SPACE.sub(" ", f.body).casefold().strip()
    if len(body) >= MIN_BODY:
        keys.append(("body", body))
    return keys


def _norm(key: Key) -> Key:
    return (key[0], key[1].casefold()) if key[0] != "body" else key


def disagreements(project: AgentProject, only: str | None = None) -> list[Problem]:
    """`agents-disagree`: the same heading, entry or body in two agents' files, reaching different
    project files. `only`: just the findings reported on that file (an editor's one document)."""
    entries: list[tuple[Agent, AgentFile]] = [(a, f) for a in project.present for f in a.files]
    identities = [_identity(f) for _, f in entries]
    by_key: dict[Key, list[int]] = {}
    for i, keys in enumerate(identities):
        for key in {_norm(k) for k in keys}:
            by_key.setdefault(key, []).append(i)
    pairs = sorted({(i, j) for owners in by_key.values() for i, j in combinations(owners, 2)
                    if entries[i][0].id != entries[j][0].id
                    and (only is None or entries[i][1].rel == only)})
    # What each file reaches: kept with the project reading, so one editor document after another
    # does not compute it again.
    coverage: dict[tuple[str, ...], set[str]] = project.memo.setdefault(  # type: ignore[assignment]
        "coverage", {})
    own = {f.rel for _, f in entries}
    paths = [p for p in project.ctx.paths if p not in own]

    def covered(agent: Agent, f: AgentFile) -> set[str]:
        key = agent.coverage_key(f)
        if key not in coverage:
            coverage[key] = agent.loads_for(f, paths)
        return coverage[key]

    out: list[Problem] = []
    for i, j in pairs:
        (a, fa), (b, fb) = entries[i], entries[j]
        ca, cb = covered(a, fa), covered(b, fb)
        if ca == cb:
            continue
        shared = {_norm(k) for k in identities[j]}
        first = next(k for k in identities[i] if _norm(k) in shared)
        what = "the same text" if first[0] == "body" else f"`{first[0]} {first[1]}`"
        parts = []
        if ca - cb:
            parts.append(f"{a.name} loads `{fa.rel}` for {_some(ca - cb)} where {b.name} does not")
        if cb - ca:
            parts.append(f"{b.name} loads `{fb.rel}` for {_some(cb - ca)} where {a.name} does not")
        out.append(Problem(fa.rel, 0, "warning", "agents-disagree",
                           f"{what} is also in `{fb.rel}` ({b.name}), but the two reach different files: "
                           f"{'; '.join(parts)}. Align the globs."))
    return out


def _some(paths: set[str], n: int = 3) -> str:
    shown = sorted(paths)[:n]
    more = f" and {len(paths) - n} more" if len(paths) > n else ""
    return ", ".join(f"`{p}`" for p in shown) + more

