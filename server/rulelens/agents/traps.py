"""`check`'s findings for other agents' files: each agent's traps, budgets, and drift between
agents that carry the same rule."""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, product
from pathlib import Path

from rulelens.agents.base import NOT_CONFIRMED, Agent
from rulelens.agents.formats.codex import cap_words, chain_overflow, chain_reads
from rulelens.agents.model import AgentFile, Load
from rulelens.agents.project import AgentProject
from rulelens.agents.readings import Reading
from rulelens.rules.model import Problem

MIN_BODY = 24
EXAMPLES = 3  # paths per side in a finding's `examples`
MAX_MESSAGE = 200


def agent_problems(project: AgentProject) -> list[Problem]:
    """Every trap, exceeded budget and disagreement, in file order."""
    return agent_check(project)[0]


def agent_check(project: AgentProject) -> tuple[list[Problem], list[Drift]]:
    """`agent_problems`, and the disagreements with their causes (for one finding per cause)."""
    out: list[Problem] = []
    for agent in project.present:
        out.extend(agent.traps())
    out.extend(budget_problems(project))
    out.extend(twice_problems(project))
    drifts = all_drifts(project)
    out.extend(d.problem for d in drifts)
    return sorted(out, key=lambda p: (p.file.encode(), p.line, p.code)), drifts


def budget_problems(project: AgentProject) -> list[Problem]:
    out: list[Problem] = []
    order: list[tuple[str, bool]] | None = None  # each folder, and whether it is in a skill
    for agent in project.present:
        budget = agent.budget
        if budget is None or budget.per != "path":
            continue
        reported: set[str] = set()
        if order is None:  # the project's, made for the first agent with a cap per path
            skills = {rel.rpartition("/")[0] for rel in project.ctx.named("SKILL.md")}
            # A skill's folders last: a file cut where people work is a warning, named by that folder.
            order = sorted(((f, _in_skill(skills, f)) for f in project.ctx.folders),
                           key=lambda item: (item[1], item[0]))
        chains: set[tuple[Load, ...]] = set()
        for folder, skill in order:
            probe = f"{folder}/x" if folder else "x"
            loads = tuple(agent.started_in_folder(probe))
            # A chain within the cap has nothing cut (`chain_reads` reads every file whole), and
            # a chain met in an earlier folder cuts only files reported there: most folders of a
            # monorepo are one of a few chains, and each is worked out once.
            if sum(load.bytes for load in loads) <= budget.limit or loads in chains:
                continue
            chains.add(loads)
            blank = agent.blank_starts(loads)
            total, cut = chain_overflow(loads, budget.limit, blank)
            reads = chain_reads(loads, budget.limit, blank)
            read = dict(zip((load.file for load in loads), reads, strict=True))
            for rel in cut:
                if rel in reported:
                    continue
                reported.add(rel)
                where = f"`{folder}/`" if folder else "the root"
                what = f"is cut after {read[rel]:,} bytes" if read[rel] else "is not read"
                fix = ("Only a session started inside this skill's folder reads the chain there; the "
                       "skill itself is read through its SKILL.md." if skill else
                       "Shorten it or the files before it.")
                out.append(Problem(rel, 0, "info" if skill else "warning", "agent-budget-exceeded",
                                   f"Working in {where}, {agent.name}'s instruction chain is "
                                   f"{total:,} bytes; "
                                   f"it stops adding files at {cap_words(budget.limit, noun=True)} "
                                   f"({budget.source}), so this file {what}. {fix}"))
    return out


def _in_skill(skills: set[str], folder: str) -> bool:
    """Whether `folder` is (inside) one of `skills`, the folders holding a `SKILL.md`: a skill's
    documents are read through it, and nobody starts a session there, so a chain cut only there
    is `info` (a vendored skill's 100 KB `AGENTS.md`)."""
    parts = folder.split("/") if folder else []
    return any("/".join(parts[:n]) in skills for n in range(1, len(parts) + 1))


def twice_problems(project: AgentProject) -> list[Problem]:
    """`agent-same-text`: agents that load two files holding the same text for one path (a root
    `CLAUDE.md` that is a link to `AGENTS.md`, read by an agent that reads both), as `match
    --agents` shows it (`same_text`): one finding per pair, naming the agents. The folders are
    walked only for agents that have two such files at all."""
    from rulelens.agents.model import named_together
    from rulelens.agents.project import same_text

    found: dict[tuple[str, str], tuple[str, list[Agent]]] = {}  # (twice, first): (folder, agents)
    for agent in project.present:
        held: dict[tuple[int, str], list[AgentFile]] = {}
        for f in agent.files:
            if f.text.strip():
                held.setdefault((f.size, f.text), []).append(f)
        # Which files can load at all is asked only where such texts are.
        if not _twice(project, held, lambda f: True) or not _twice(project, held, _may_load(agent)):
            continue
        for folder in sorted(project.ctx.folders):
            probe = f"{folder}/x" if folder else "x"
            loads = [d for d in agent.view(probe) if isinstance(d, Load)]
            for pair in same_text(agent, loads):
                if _imports_relative(project, agent, *pair):
                    continue
                where, agents = found.setdefault(pair, (folder, []))
                if agent not in agents:
                    agents.append(agent)
    out: list[Problem] = []
    for (twice, first), (folder, agents) in found.items():
        names = named_together([a.name for a in agents])
        where = f"`{folder}/`" if folder else "the root"
        how = "a link to it" if _real(project.root, twice) == _real(project.root, first) else "a copy of it"
        size = next((f.size for f in agents[0].files if f.rel == twice), 0)
        sure = "" if all(a.sure_of("files") for a in agents) else f" ({NOT_CONFIRMED})"
        beside = first.rpartition("/")[0] == twice.rpartition("/")[0]
        fix = (f"Make `{twice}` the one line `@{first.rpartition('/')[2]}` (Claude Code imports it)"
               if twice.rpartition("/")[2] == "CLAUDE.md" and beside else "Keep the text in one of them")
        them = "it reads" if len(agents) == 1 else "each reads"
        out.append(Problem(twice, 0, "info", "agent-same-text",
                           f"{names} {'loads' if len(agents) == 1 else 'load'} this file and `{first}` for "
                           f"files in {where}{sure}, and this file is {how}: {them} the same {size:,} bytes "
                           f"twice. {fix}, so that the words are read once."))
    return out


def _twice(project: AgentProject, held: dict[tuple[int, str], list[AgentFile]],
           keep: Callable[[AgentFile], bool]) -> bool:
    """Whether two files `keep` takes hold one text (`held`: the files by text), not stubs that
    import by relative path (each file brings in its own folder's words) unless the two are one
    file through a link: most projects have none, and their folders are not walked."""
    for (_, text), files in held.items():
        rels = [f.rel for f in files if keep(f)]
        if len(rels) < 2:
            continue
        if not _has_imports(text) or len({_real(project.root, r) for r in rels}) < len(rels):
            return True
    return False


def _may_load(agent: Agent) -> Callable[[AgentFile], bool]:
    """Whether a file of `agent` can be among the files its `view` loads, so one of
    `same_text`'s pair: not one that loads for no path by itself (`glob_loads` is []: a skill
    the model picks by its description) unless another file's `@path` import brings it in."""
    if type(agent).imports_of is not Agent.imports_of:
        brought = {imp.file for f in agent.files if "@" in f.text for imp in agent.imports_of(f.rel)}
    elif type(agent).view is not Agent.view and any("@" in f.text for f in agent.files):
        return lambda f: True  # imports read another way (Gemini CLI's): any file may be one
    else:
        brought = set()
    return lambda f: f.rel in brought or agent.glob_loads(f) != []


def _has_imports(text: str) -> bool:
    return any(line.strip().startswith("@") for line in text.splitlines())


def _imports_relative(project: AgentProject, agent: Agent, twice: str, first: str) -> bool:
    """Two files (not one through a link) whose same text imports by relative path (`@AGENTS.md`
    in each folder's `CLAUDE.md`): each brings in its own folder's file, so the words differ."""
    if _real(project.root, twice) == _real(project.root, first):
        return False
    f = agent.file(twice)
    return f is not None and _has_imports(f.text)


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
    """`agents-disagree`: the findings of `all_drifts`."""
    return [d.problem for d in all_drifts(project, only)]


def all_drifts(project: AgentProject, only: str | None = None) -> list[Drift]:
    """`agents-disagree`: one rule (one file through a symlink, a copy, or nearly the same body)
    carried by two agents, reaching different project files: one finding per pair of files.
    `only`: just the findings reported on that file (an editor's one document)."""
    # Without a committed index, Boost's agent finds no rule by path: `index-missing` says so once,
    # rather than one disagreement per rule file that another agent also carries.
    entries: list[tuple[Agent, AgentFile]] = [(a, f) for a in project.present for f in a.files
                                              if not (a.home and getattr(a, "index", True) is None)
                                              and a.compared(f)]
    # Sameness is a property of two texts, not of the agents reading them: compared once per pair
    # of distinct (file, body) texts, in each order an entry pair needs (in a monorepo, hundreds
    # of `AGENTS.md` are each read by half a dozen agents), then kept for every pair of entries
    # of those two texts, in the order of the entries.
    groups: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    folds: dict[str, tuple[str, ...]] = {}  # by body: one file is read by several agents
    for i, (_, f) in enumerate(entries):
        folded = folds.get(f.body)
        if folded is None:
            folded = folds[f.body] = _folded(f)
        groups.setdefault((f.rel, folded), []).append(i)
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
    return _drifts(project, entries, pairs)


@dataclass(frozen=True)
class Drift:
    """One `agents-disagree` finding, with what caused it: `unpicked` names the side that loads
    for no path by itself (a skill without `paths`, which the model picks by description) while
    `other` loads by its globs; None where the globs of both sides simply differ."""

    problem: Problem
    unpicked: tuple[Agent, AgentFile] | None = None
    other: tuple[Agent, AgentFile] | None = None
    # Where a reading left open makes the two agree (an `info` finding): that reading, as worded.
    agree_if: tuple[str, str, str] | None = None  # (condition, otherwise, advice)


def _drifts(project: AgentProject, entries: list[tuple[Agent, AgentFile]],
            pairs: list[tuple[int, int, str]]) -> list[Drift]:
    """The pairs of copies whose agents load them for different files, under every reading of
    their matchers that is still open (agents/readings.py)."""
    # What each file reaches: kept with the project reading, so one editor document after another
    # does not compute it again.
    coverage = project.coverage
    own = {f.rel for _, f in entries}

    def covered(agent: Agent, f: AgentFile, reading: Reading | None = None) -> set[str]:
        key = (reading.condition if reading else "", *agent.coverage_key(f))
        if key not in coverage:
            # Every listed path, then less the rule files themselves: `loads_for` trusts each
            # pattern's remembered hits for the whole list, with no lookup per hit.
            reader = agent.read_as(reading) if reading else agent
            coverage[key] = reader.loads_for(f, project.ctx.paths) - own
        return coverage[key]

    def readings(agent: Agent, f: AgentFile) -> list[tuple[Reading | None, set[str]]]:
        """What `f` loads for under each reading still open that can change it, the first one first."""
        patterns = agent.patterns(f)
        return [(None, covered(agent, f)),
                *((r, covered(agent, f, r)) for r in agent.open_readings()
                  if any(r.affects(p) for p in patterns))]

    lines: dict[str, tuple[Counter[str], int]] = {}

    def folded(f: AgentFile) -> tuple[Counter[str], int]:
        """`f`'s folded lines counted, and how many there are."""
        if f.rel not in lines:
            counted = Counter(_folded(f))
            lines[f.rel] = counted, sum(counted.values())
        return lines[f.rel]

    through: dict[tuple[str, str], set[str]] = {}

    def elsewhere(agent: Agent, f: AgentFile) -> set[str]:
        """The files `agent` reads this rule's text for through another of its files that holds
        it (a root `CLAUDE.md` that a converter's nested source file was written into); once
        per file, however many pairs it is in."""
        key = (agent.id, f.rel)
        if key not in through:
            through[key] = _through(agent, f)
        return through[key]

    def _through(agent: Agent, f: AgentFile) -> set[str]:
        mine, size = folded(f)
        need = SAME_RULE * size
        out: set[str] = set()
        for g in agent.files:
            if g is f:
                continue
            theirs, their_size = folded(g)
            if their_size >= need and sum(min(n, theirs.get(line, 0)) for line, n in mine.items()) >= need:
                out |= covered(agent, g)
        return out

    out: list[Drift] = []
    for i, j, how in pairs:
        (a, fa), (b, fb) = entries[i], entries[j]
        ca, cb = covered(a, fa), covered(b, fb)
        if ca == cb or (_placed(a, fa) and _placed(b, fb)):
            continue  # the same files; or copies that each load for their own folder, by place
        if (ca | elsewhere(a, fa)) == (cb | elsewhere(b, fb)):
            continue  # each agent reads the text for the same files, one of them through another file
        pa, pb = a.prepended(fa), b.prepended(fb)
        if (pa or pb) and ca - pa == cb - pb:
            continue  # the only cause is a prepended `**/`: that agent's own finding says it, once
        sides = list(product(readings(a, fa), readings(b, fb)))
        agreeing = next(((ra, rb) for (ra, xa), (rb, xb) in sides if xa == xb), None)
        only_a = set.intersection(*(xa - xb for (_, xa), (_, xb) in sides))
        only_b = set.intersection(*(xb - xa for (_, xa), (_, xb) in sides))
        counts = sorted({len(xa ^ xb) for (_, xa), (_, xb) in sides})
        unpicked = next(((x, y) for x, y in (((a, fa), (b, fb)), ((b, fb), (a, fa)))
                         if x[0].glob_loads(x[1]) == [] and y[0].patterns(y[1])), None)
        if agreeing is not None:
            problem, agree_if = _unsure(a, fa, b, fb, how, agreeing, len(ca ^ cb), ca - cb, cb - ca)
            out.append(Drift(problem, agree_if=agree_if))
            continue
        always = next(((x, y) for x, y in (((a, fa), (b, fb)), ((b, fb), (a, fa)))
                       if x[0].glob_loads(x[1]) == [] and not y[0].patterns(y[1])
                       and y[0].glob_loads(y[1]) is None and not y[0].folder_loads(y[1])
                       and x[0].always_field(x[1])), None)  # y loads everywhere: not a nested file
        if unpicked is not None:
            problem = _unpicked_problem(fa, fb, how, unpicked, counts)
        elif always is not None:
            problem = _always_problem(fa, fb, how, always, counts)
        else:
            problem = _disagree(a, fa, b, fb, how, counts, sorted(only_a), sorted(only_b))
            problem = _with_rewrites(problem, matcher_fix(a, fa, b, fb, own))
        out.append(Drift(problem, *(unpicked or (None, None))))
    return out


def rewrites_of(pattern: str) -> list[str]:
    """Ways to write `pattern` that agents may read alike where they read it differently: with a
    file part after a trailing `/**` (an agent that drops that `/**` reads the folder's name at any
    depth), or at any depth said outright (`**/*.ts` for `*.ts`, which some read at the root only)."""
    found = []
    if pattern.endswith("/**"):
        found.append(pattern + "/*")
    if "/" not in pattern:
        found.append("**/" + pattern)
    return found


def matcher_fix(a: Agent, fa: AgentFile, b: Agent, fb: AgentFile,
                own: set[str]) -> dict[str, str] | None:
    """Where two copies write the same globs and the agents' matchers read some of them apart:
    for each such glob, a rewrite both matchers (each run on it) read alike and as one of them read
    the glob before (`{glob: rewrite}`), or {} where some glob has none (a fact with no fix). None
    where the copies' globs differ (aligning them is the fix) or no one glob is read apart."""
    written = [p for p in a.patterns(fa) if not p.startswith("!")]
    if not written or sorted(a.patterns(fa)) != sorted(b.patterns(fb)):
        return None
    fixes: dict[str, str] = {}
    for pattern in written:
        ha, hb = a.written_hits(fa, pattern) - own, b.written_hits(fb, pattern) - own
        if ha == hb:
            continue
        found = next((r for r in rewrites_of(pattern)
                      if (x := a.written_hits(fa, r) - own) == b.written_hits(fb, r) - own and x in (ha, hb)),
                     None)
        if found is None:
            return {}
        fixes[pattern] = found
    return fixes or None


def _with_rewrites(problem: Problem, fixes: dict[str, str] | None) -> Problem:
    """`problem` with the rewrite that makes the agents agree, or as `info` where none does."""
    if fixes is None:
        return problem
    lead = problem.message.removesuffix(" Align the globs.")
    if not fixes:
        return replace(problem, severity="info", message=(
            f"{lead} Both copies write the same globs, which the two agents' matchers read apart, and no "
            "rewrite tried here makes them agree: a fact with no fix here."))
    said = " and ".join(f"`{new}` for `{old}`" for old, new in fixes.items())
    return replace(problem, message=f"{lead} Write {said} in both copies: each agent's matcher then reads "
                   "them alike.")


def _placed(agent: Agent, f: AgentFile) -> bool:
    """Whether `f` loads by where it is (an `AGENTS.md`, a nested `CLAUDE.md`), with no globs a
    team could align: copies of it elsewhere differ only in how agents treat nested files."""
    return not agent.patterns(f) and agent.glob_loads(f) is None


def _files(counts: Sequence[int]) -> str:
    """"3 files", or "2 to 5 files" where the readings still open give different counts."""
    low, high = counts[0], counts[-1]
    return f"{low} {'file' if high == 1 else 'files'}" if low == high else f"{low} to {high} files"


def _disagree(a: Agent, fa: AgentFile, b: Agent, fb: AgentFile, how: str, counts: Sequence[int],
              only_a: list[str], only_b: list[str]) -> Problem:
    """A disagreement every open reading holds: examples only from paths on which all agree."""
    examples = tuple(only_a[:EXAMPLES] + only_b[:EXAMPLES])
    lead = f"Same rule as `{fb.rel}` ({how}), but {a.name} and {b.name} disagree on {_files(counts)}"
    message = f"{lead}. Align the globs."
    if examples:
        first, who = (only_a[0], a.name) if only_a else (only_b[0], b.name)
        message = f"{lead}, such as `{first}` (only {who}). Align the globs."
    if len(message) >= MAX_MESSAGE:
        message = f"{lead} (see the examples). Align the globs."
    return Problem(fa.rel, 0, "warning", "agents-disagree", message, examples=examples)


def _unsure(a: Agent, fa: AgentFile, b: Agent, fb: AgentFile, how: str,
            agreeing: tuple[Reading | None, Reading | None], count: int,
            only_a: set[str], only_b: set[str]) -> tuple[Problem, tuple[str, str, str]]:
    """A disagreement some open reading removes: `info`, naming that reading and how to write
    the globs so that no reading matters."""
    named = [(agent, r) for agent, r in ((a, agreeing[0]), (b, agreeing[1])) if r is not None]
    condition = " and ".join(r.condition.format(agent=agent.name) for agent, r in named)
    otherwise = " and ".join(r.otherwise.format(agent=agent.name) for agent, r in named)
    advice = "; ".join(dict.fromkeys(r.advice for _, r in named if r.advice))
    shown = sorted(only_a)[:EXAMPLES] + sorted(only_b)[:EXAMPLES]
    first, who = (min(only_a), a.name) if only_a else (min(only_b), b.name)
    message = (f"Same rule as `{fb.rel}` ({how}): {a.name} and {b.name} load it for the same files if "
               f"{condition}; if {otherwise}, they disagree on {count} "
               f"{'file' if count == 1 else 'files'}, such as `{first}` (only {who}).")
    if advice:
        message += f" {advice[0].upper()}{advice[1:]}."
    return (Problem(fa.rel, 0, "info", "agents-disagree", message, examples=tuple(shown)),
            (condition, otherwise, advice))


def _unpicked_problem(fa: AgentFile, fb: AgentFile, how: str,
                      unpicked: tuple[tuple[Agent, AgentFile], tuple[Agent, AgentFile]],
                      counts: Sequence[int]) -> Problem:
    (agent, f), (other, _) = unpicked
    add = _keys_to_add(agent, f)
    why = (f"{agent.name} loads it {agent.unpicked_how(f)}, and {other.name} loads "
           f"{'the copy' if f is fa else 'this file'} by glob ({_files(counts)})")
    carries = f"`{agent.glob_fields(f)[-1]}`"
    if f is fa:
        message = (f"Same rule as `{fb.rel}` ({how}), but this file carries no {carries}: {why}. "
                   f"Add {add} with its globs.")
    else:
        message = (f"Same rule as `{fb.rel}` ({how}), which carries no {carries}: {why}. Add {add} to "
                   "it with these globs.")
    return Problem(fa.rel, 0, "warning", "agents-disagree", message)


def _always_problem(fa: AgentFile, fb: AgentFile, how: str,
                    always: tuple[tuple[Agent, AgentFile], tuple[Agent, AgentFile]],
                    counts: Sequence[int]) -> Problem:
    """A copy one agent loads by no path (a rule without `trigger`) beside one another agent loads
    without globs: the line to add is the trigger, not a glob."""
    (agent, f), (other, _) = always
    a, b = (agent, other) if f is fa else (other, agent)
    lead = f"Same rule as `{fb.rel}` ({how}), but {a.name} and {b.name} disagree on {_files(counts)}"
    return Problem(fa.rel, 0, "warning", "agents-disagree",
                   f"{lead}: {other.name} loads it with no globs, {agent.name} {agent.unpicked_how(f)}. "
                   f"Add `{agent.always_field(f)}` to `{f.rel}`.")


def _keys_to_add(agent: Agent, f: AgentFile) -> str:
    """"`paths:`", or "`trigger: glob` and `globs:`" where a `trigger` must say glob too."""
    return " and ".join("`trigger: glob`" if k == "trigger" else f"`{k}:`" for k in agent.glob_fields(f))


def _some(paths: set[str], n: int = 3) -> str:
    shown = sorted(paths)[:n]
    more = f" and {len(paths) - n} more" if len(paths) > n else ""
    return ", ".join(f"`{p}`" for p in shown) + more

