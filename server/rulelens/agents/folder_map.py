"""The project at a glance: which agents' rules reach each folder, and where they do not.

Everything is counted per folder, never kept per file: a 200,000-file project has a few
thousand folders, and that is what a person (and `rulelens map`) can take in. What one agent
file reaches comes from the agents' own matchers (`Agent.loads_for`), shared with the
`agents-disagree` check through the project's memo.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rulelens.agents.base import Agent
from rulelens.agents.model import AgentFile
from rulelens.agents.project import AgentProject
from rulelens.agents.traps import disagreements

# Files people write code in; a folder holding some of them that no scoped rule reaches is a gap.
CODE_SUFFIXES = frozenset((
    "php", "py", "ts", "tsx", "js", "jsx", "mjs", "cjs", "vue", "svelte", "go", "rs", "rb", "java", "kt",
    "kts", "scala", "swift", "m", "mm", "c", "h", "cc", "cpp", "hpp", "cs", "fs", "ex", "exs", "erl", "clj",
    "dart", "lua", "pl", "r", "jl", "sh", "sql", "twig", "astro"))


def is_code(path: str) -> bool:
    name = path.rpartition("/")[2]
    return "." in name and name.rpartition(".")[2].lower() in CODE_SUFFIXES


def folder_of(path: str) -> str:
    return path.rpartition("/")[0]


def ancestors(folder: str) -> Iterable[str]:
    """The folder and every folder above it, the root ("") last."""
    while folder:
        yield folder
        folder = folder.rpartition("/")[0]
    yield ""


@dataclass
class Folder:
    """One folder, counted with everything below it."""

    path: str  # root-relative; "" is the root
    files: int = 0
    code: int = 0
    reached: dict[str, int] = field(default_factory=dict)  # agent id -> files its scoped rules reach
    rule_files: dict[str, int] = field(default_factory=dict)  # agent id -> its scoped files reaching here
    over_budget: dict[str, int] = field(default_factory=dict)  # agent id -> files over its per-path cap


@dataclass(frozen=True)
class Everywhere:
    """An agent file that loads for every file of the project (`AGENTS.md`, always-on rules)."""

    agent: str
    file: str
    bytes: int
    via: str | None = None  # the importer and line, for a file loaded through an `@path` import


@dataclass(frozen=True)
class AgentSummary:
    id: str
    name: str
    confirmed: bool
    files: int  # its rule files in the project
    scoped: int  # of them, those that reach some files but not all
    reached: int  # project files its scoped rules reach
    cap: str | None  # its documented cap, in words


@dataclass(frozen=True)
class Disagreement:
    file: str
    message: str


@dataclass(frozen=True)
class OverBudget:
    agent: str
    folder: str  # the deepest folder holding every file over the cap (the root when spread out)
    files: int
    example: str
    note: str


@dataclass
class ProjectMap:
    root: str
    files: int
    agents: list[AgentSummary]
    everywhere: list[Everywhere]
    folders: dict[str, Folder]  # by path; parents before children when sorted
    gaps: list[str]  # topmost folders with code that no scoped rule of any agent reaches
    disagreements: list[Disagreement]
    over_budget: list[OverBudget]
    files_over_cap: list[Disagreement]  # one agent file over its per-file cap, and why


def build_map(project: AgentProject) -> ProjectMap:
    own = {f.rel for a in project.present for f in a.files}
    own.add(f"{project.repo.rules_dir}/index.md")  # Boost's index is rules, not code
    paths = [p for p in project.ctx.paths if p not in own]
    folders = _folders(paths)
    coverage = project.coverage
    everywhere: list[Everywhere] = []
    summaries: list[AgentSummary] = []
    covered_any: set[str] = set()
    for agent in project.present:
        reached: set[str] = set()
        scoped = 0
        per_file: list[tuple[AgentFile, set[str]]] = []
        for f in agent.files:
            if agent.imports_at_start(f):  # its imports load for every file, whatever it does
                listed = {e.file for e in everywhere if e.agent == agent.id}
                everywhere.extend(Everywhere(agent.id, i.file, i.bytes, i.via)
                                  for i in agent.imports_of(f.rel) if i.file not in listed)
            key = agent.coverage_key(f)
            if key not in coverage:
                coverage[key] = agent.loads_for(f, paths)
            hits = coverage[key]
            if not hits:
                continue
            per_file.append((f, hits))
            if len(hits) == len(paths):
                everywhere.append(Everywhere(agent.id, f.rel, f.size))
                # and the files its `@path` imports load with it, once per agent
                listed = {e.file for e in everywhere if e.agent == agent.id}
                everywhere.extend(Everywhere(agent.id, i.file, i.bytes, i.via)
                                  for i in agent.imports_of(f.rel) if i.file not in listed)
                continue
            scoped += 1
            reached |= hits
            for folder in {a for d in {folder_of(p) for p in hits} for a in ancestors(d)}:
                counts = folders[folder].rule_files
                counts[agent.id] = counts.get(agent.id, 0) + 1
        _add_counts(folders, agent.id, reached, "reached")
        covered_any |= reached
        summaries.append(AgentSummary(agent.id, agent.name, agent.confirmed, len(agent.files), scoped,
                                      len(reached), _cap(agent)))
    over = _over_budget(project, paths, folders, coverage)
    problems = disagreements(project)
    return ProjectMap(
        root=str(project.root), files=len(paths), agents=summaries, everywhere=everywhere,
        folders=folders, gaps=_gaps(folders, paths, covered_any),
        disagreements=[Disagreement(p.file, p.message) for p in problems],
        over_budget=over, files_over_cap=_files_over_cap(project))


def _folders(paths: Sequence[str]) -> dict[str, Folder]:
    direct: Counter[str] = Counter()
    code: Counter[str] = Counter()
    for p in paths:
        folder = folder_of(p)
        direct[folder] += 1
        if is_code(p):
            code[folder] += 1
    out: dict[str, Folder] = {"": Folder("")}
    for folder, n in direct.items():
        for a in ancestors(folder):
            entry = out.get(a)
            if entry is None:
                entry = out[a] = Folder(a)
            entry.files += n
            entry.code += code[folder]
    return out


def _add_counts(folders: dict[str, Folder], agent: str, paths: Iterable[str], which: str) -> None:
    """Count `paths` into their folders and every folder above (per direct folder first: a few
    thousand folders, not one walk up per file)."""
    direct = Counter(folder_of(p) for p in paths)
    for folder, n in direct.items():
        for a in ancestors(folder):
            counts: dict[str, int] = getattr(folders[a], which)
            counts[agent] = counts.get(agent, 0) + n


def _gaps(folders: dict[str, Folder], paths: Sequence[str], covered: set[str]) -> list[str]:
    """Topmost folders whose code files no scoped rule reaches (their subfolders are implied)."""
    reached_code = Counter(folder_of(p) for p in covered if is_code(p))
    reached_below: set[str] = set()
    for folder in reached_code:
        reached_below.update(ancestors(folder))
    bare = {f for f, entry in folders.items() if entry.code and f not in reached_below}
    return sorted(f for f in bare if f and folder_of(f) not in bare) if "" not in bare else [""]


def _cap(agent: Agent) -> str | None:
    b = agent.budget
    if b is None:
        return None
    return f"{b.limit:,} {b.unit} per {'file loaded' if b.per == 'file' else 'edited file'} ({b.source})"


def _over_budget(project: AgentProject, paths: Sequence[str], folders: dict[str, Folder],
                 coverage: dict[tuple[str, ...], set[str]]) -> list[OverBudget]:
    """Per agent with a per-path cap: the files whose load goes over it, summed from each agent
    file's coverage (bytes per path), not by asking the agent once per path."""
    out: list[OverBudget] = []
    for agent in project.present:
        budget = agent.budget
        if budget is None or budget.per != "path" or budget.unit != "bytes":
            continue
        always = 0
        totals: Counter[str] = Counter()
        for f in agent.files:
            hits = coverage.get(agent.coverage_key(f), set())
            if len(hits) == len(paths):
                always += f.size
            else:
                for p in hits:
                    totals[p] += f.size
        candidates = paths if always > budget.limit else totals
        over = sorted(p for p in candidates if always + totals.get(p, 0) > budget.limit)
        if not over:
            continue
        _add_counts(folders, agent.id, over, "over_budget")
        common = folder_of(over[0])
        for p in over[1:]:
            while common and not (p == common or p.startswith(common + "/")):
                common = folder_of(common)
        example = max(over, key=lambda p: totals.get(p, 0))
        note = project.view(example).over_budget.get(agent.id, "")
        out.append(OverBudget(agent.id, common, len(over), example, note))
    return out


def _files_over_cap(project: AgentProject) -> list[Disagreement]:
    out = []
    for agent in project.present:
        for f in agent.files:
            note = agent.file_budget_note(f)
            if note:
                out.append(Disagreement(f.rel, note))
    return out
