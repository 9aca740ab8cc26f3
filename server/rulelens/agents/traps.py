"""`check`'s findings for other agents' files: each agent's traps, budgets, and drift between
agents that carry the same rule."""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations, product
from pathlib import Path

from rulelens.agents.base import Agent
from rulelens.agents.formats.codex import chain_overflow
from rulelens.agents.model import AgentFile, Load
from rulelens.agents.project import AgentProject
from rulelens.rules.model import Problem

MIN_BODY = 24
EXAMPLES = 3  # paths per side in a finding's `examples`
MAX_MESSAGE = 200


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


# Two bodies at least this similar (difflib's ratio over their whitespace-folded lines: line by
# line keeps it linear-ish on long files, where a character comparison takes seconds) are one rule
# kept in two places: a sync tool's copy that gained or lost a line, a retitled heading or a
# reflowed paragraph stays well above it, while two different rules written from one template
# (the same `## Best Practices` and boilerplate, different advice) fall well below it.
SAME_RULE = 0.9


def _folded(f: AgentFile) -> tuple[str, ...]:
    # str.split() and the regex `\s+` split at the same (Unicode) spaces; split is the faster.
    lines = (" ".join(line.split()).casefold() for line in f.body.splitlines())
    return tuple(line for line in lines if line)


def _real(root: Path, rel: str) -> str:
    with contextlib.suppress(OSError):
        return os.path.realpath(root / rel)
    return rel


def _sameness(real: tuple[str, str], a: tuple[str, ...], b: tuple[str, ...],
              counts: Callable[[int], Counter[str]], which: tuple[int, int],
              sizes: Sequence[int]) -> str | None:
    """How two files are the same rule: one file through a symlink, a copy, nearly the same body;
    None when they are different rules (never by a shared heading alone). `counts`: each text's
    lines counted (by the texts' numbers, `which`), once per text however many pairs it is in;
    `sizes`: each text's characters, by the same numbers."""
    if real[0] == real[1]:
        return "the same file"
    if sizes[which[0]] < MIN_BODY or sizes[which[1]] < MIN_BODY:
        return None
    if a == b:
        return "a copy"
    # The ratio is at most 2*min/(sum of lengths): skip the comparison when that cannot reach it.
    if 2 * min(len(a), len(b)) / (len(a) + len(b)) < SAME_RULE:
        return None
    # difflib's quick_ratio (the lines both hold, as multisets: a bound on the ratio), from counts
    # made once per text rather than once per pair with a SequenceMatcher built for each.
    ca, cb = counts(which[0]), counts(which[1])
    if len(ca) > len(cb):
        ca, cb = cb, ca
    if 2.0 * sum(min(n, cb[line]) for line, n in ca.items() if line in cb) / (len(a) + len(b)) < SAME_RULE:
        return None
    import difflib  # here: most projects have no two texts this close, and never load it

    return "nearly the same text" if difflib.SequenceMatcher(None, a, b).ratio() >= SAME_RULE else None


def _candidates(texts: list[tuple[str, tuple[str, ...]]], reals: dict[str, str],
                sizes: Sequence[int]) -> list[tuple[int, int]]:
    """The pairs of texts (by number, first < second, sorted) that `_sameness` can call the same
    rule, found without comparing every pair (a monorepo's thousands of texts are millions of
    pairs): the same real file, or two bodies that share a line among the first few of each.

    Why that finds them all (prefix filtering, as in similarity joins): two bodies pass the length
    and quick-ratio bounds only when they share at least 9/11 of the longer one's lines, as
    multisets; with each body's lines put in one global order (rarest first), the first shared
    line then falls within the first `len - ceil(9/11 len) + 1` lines of each. The bound is
    taken a line lower (floor), which can only add pairs; `_sameness` decides each pair. `sizes`:
    each text's characters, as `_sameness` takes them."""
    found: set[tuple[int, int]] = set()
    by_real: dict[str, list[int]] = {}
    tokens: list[list[tuple[str, int]]] = []
    eligible: list[int] = []
    for k, (rel, body) in enumerate(texts):
        by_real.setdefault(reals[rel], []).append(k)
        if sizes[k] >= MIN_BODY:
            seen: Counter[str] = Counter()
            mine = []
            for line in body:
                seen[line] += 1
                mine.append((line, seen[line]))  # a line's n-th copy: multisets as sets
            tokens.append(mine)
            eligible.append(k)
    for same in by_real.values():
        found.update(combinations(same, 2))
    frequency = Counter(t for mine in tokens for t in mine)
    index: dict[tuple[str, int], list[int]] = {}
    for k, mine in zip(eligible, tokens, strict=True):
        mine.sort(key=lambda t: (frequency[t], t))
        for t in mine[:len(mine) - max(1, 9 * len(mine) // 11) + 1]:
            others = index.setdefault(t, [])
            found.update((o, k) for o in others)
            others.append(k)
    return sorted(found)


def disagreements(project: AgentProject, only: str | None = None) -> list[Problem]:
    """`agents-disagree`: one rule (one file through a symlink, a copy, or nearly the same body)
    carried by two agents, reaching different project files: one finding per pair of files.
    `only`: just the findings reported on that file (an editor's one document)."""
    # Without a committed index, Boost's agent finds no rule by path: `index-missing` says so once,
    # rather than one disagreement per rule file that another agent also carries.
    entries: list[tuple[Agent, AgentFile]] = [(a, f) for a in project.present for f in a.files
                                              if not (a.id == "boost" and getattr(a, "index", True) is None)]
    # Sameness is a property of two texts, not of the agents reading them: compared once per pair
    # of distinct (file, body) texts, in each order an entry pair needs (in a monorepo, hundreds
    # of `AGENTS.md` are each read by half a dozen agents), then kept for every pair of entries
    # of those two texts, in the order of the entries.
    groups: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    for i, (_, f) in enumerate(entries):
        groups.setdefault((f.rel, _folded(f)), []).append(i)
    reals = {rel: _real(project.root, rel) for rel, _ in groups}
    texts = list(groups)
    counted: dict[int, Counter[str]] = {}  # by the text's number (no `id()`: an audited call)
    sizes = [sum(map(len, folded)) for _, folded in texts]

    def counts(k: int) -> Counter[str]:
        found = counted.get(k)
        if found is None:
            found = counted[k] = Counter(texts[k][1])
        return found

    pairs = []
    grouped = list(groups.items())
    for k1, k2 in _candidates(texts, reals, sizes):
        (g1, in1), (g2, in2) = grouped[k1], grouped[k2]
        if g1[0] == g2[0]:
            continue  # one file two agents read (two Copilot surfaces): each agent's own traps say how
        if only is not None and only not in (g1[0], g2[0]):
            continue
        known: dict[bool, str | None] = {}
        for i, j in product(in1, in2):
            first_is_1 = i < j
            i, j = min(i, j), max(i, j)
            if entries[i][0].id == entries[j][0].id or (only is not None and entries[i][1].rel != only):
                continue
            if first_is_1 not in known:
                x, y, which = (g1, g2, (k1, k2)) if first_is_1 else (g2, g1, (k2, k1))
                known[first_is_1] = _sameness((reals[x[0]], reals[y[0]]), x[1], y[1], counts, which,
                                              sizes)
            how = known[first_is_1]
            if how is not None:
                pairs.append((i, j, how))
    pairs.sort(key=lambda t: t[:2])
    if not pairs:
        return []
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
    for i, j, how in pairs:
        (a, fa), (b, fb) = entries[i], entries[j]
        ca, cb = covered(a, fa), covered(b, fb)
        if ca == cb:
            continue
        only_a, only_b = sorted(ca - cb), sorted(cb - ca)
        examples = tuple(only_a[:EXAMPLES] + only_b[:EXAMPLES])
        first, who = (only_a[0], a.name) if only_a else (only_b[0], b.name)
        count = len(only_a) + len(only_b)
        lead = (f"Same rule as `{fb.rel}` ({how}), but {a.name} and {b.name} disagree on {count} "
                f"{'file' if count == 1 else 'files'}")
        message = f"{lead}, such as `{first}` (only {who}). Align the globs."
        if len(message) >= MAX_MESSAGE:
            message = f"{lead} (see the examples). Align the globs."
        out.append(Problem(fa.rel, 0, "warning", "agents-disagree", message, examples=examples))
    return out


def _some(paths: set[str], n: int = 3) -> str:
    shown = sorted(paths)[:n]
    more = f" and {len(paths) - n} more" if len(paths) > n else ""
    return ", ".join(f"`{p}`" for p in shown) + more

