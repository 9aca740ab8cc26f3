"""What every agent's reader and matcher provides, and the shared parts of reading files."""

from __future__ import annotations

import copy
import heapq
import os
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rulelens.agents.facts import Fact, Topic, all_confirmed
from rulelens.agents.import_syntax import looks_like_file, span
from rulelens.agents.imports import Follower, Imported, Syntax, named_file
from rulelens.agents.model import AgentFile, Budget, Decision, Load, Maybe, Moment
from rulelens.agents.reading import read_agent_file
from rulelens.agents.readings import UNSETTLED, Reading
from rulelens.glob_engines.boost import split_commas
from rulelens.glob_engines.dialects import DOTGLOB, GLOBSTAR, literal_end, matches, matching
from rulelens.rules.model import Problem, Severity
from rulelens.workspace.filelist import folders_of
from rulelens.workspace.reads import Reads
from rulelens.workspace.sorted_paths import prefix_span, starting_with

if TYPE_CHECKING:
    from rulelens.agents.observe_hook import ObserveHook
    from rulelens.rules.format.yaml_cache import FrontmatterCache
    from rulelens.rules.repository import RuleRepository
    from rulelens.workspace.filelist import FileList

# The codes every agent's files can get: YAML, globs that match nothing, budgets, and the same
# rule carried differently by two agents (traps.py).
SHARED_CODES = frozenset({"agent-budget-exceeded", "agent-glob-matches-nothing", "agent-yaml-invalid",
                          "agents-disagree", "agent-same-text"})
NOT_CONFIRMED = "documented behaviour not confirmed"
DEAD_SHOWN = 4  # dead patterns one "N of M patterns match no file" finding names
EXAMPLES_MAX = 2  # paths a reading-dependent finding names (the message says "and more" past one)


@dataclass
class Context:
    """One project as the agents see it: its root, its file list and Boost's repository."""

    root: Path
    paths: Sequence[str]
    repo: RuleRepository | None = None
    listing: FileList | None = None
    _folders: set[str] | None = field(default=None, repr=False)
    _folder_names: list[str] | None = field(default=None, repr=False)  # for `holding`, sorted
    _folded: str | None = field(default=None, repr=False)  # their lines, case-folded
    _plain: str | None = field(default=None, repr=False)
    _reads: Reads | None = field(default=None, repr=False)
    # Every agent present (AgentProject sets it): a rewrite one agent proposes is run through the
    # matchers of the others that read the same file.
    agents: Sequence[Agent] = field(default=(), repr=False)
    _held: dict[tuple[str, bool], list[str]] = field(default_factory=dict, repr=False)  # `holding`'s answers

    @property
    def reads(self) -> Reads:
        """Where the agents note what they read on disk: the file list's (workspace/reads.py)."""
        if self.listing is not None:
            return self.listing.reads
        if self._reads is None:
            self._reads = Reads()
        return self._reads

    def is_file(self, rel: str) -> bool:
        return self.reads.is_file(self.root / rel)

    def scan(self, folder: str, suffixes: tuple[str, ...], recursive: bool = True) -> list[str]:
        """`scan` below this project's root, noted."""
        return scan(self.root, folder, suffixes, recursive, self.reads)

    def read_file(self, rel: str, agent: str, cache: FrontmatterCache | None = None) -> AgentFile:
        """`read_agent_file` below this project's root, noted."""
        return read_agent_file(self.root, rel, agent, cache, self.reads)

    @property
    def folders(self) -> set[str]:
        if self._folders is None and self.listing is not None and self.listing.paths is self.paths:
            self._folders = {"", *self.listing.folders}
        if self._folders is None:
            self._folders = {"", *folders_of(self.paths)}
        return self._folders

    def ending(self, *suffixes: str) -> list[str]:
        """The listed paths ending with one of `suffixes`, sorted: from the file list's text at C
        speed when it has one (discovery asks this of 500,000 paths a dozen times)."""
        if self.listing is not None and self.listing.paths is self.paths:
            return self.listing.ending(suffixes)
        return sorted(p for p in self.paths if p.endswith(suffixes))

    def holding(self, needle: str, casefold: bool = False) -> list[str]:
        """The paths whose `/`-prefixed text holds `needle`, a run of whole folder names between
        slashes (`/src/api/`), in the paths' order; `casefold`: compared case-folded. Such a
        needle lies within one of a path's folders, so the folders' text is searched (one line
        `/folder/` each; case folding maps each character alone and yields no slash or line
        break) and each matching folder's slice of the sorted paths is taken whole (an outer
        folder's slice holds its subfolders'). The text costs under a MiB at 500,000 files,
        where a tuple a folder kept 3. Each needle's answer is kept: every pattern with the same
        literal folders asks it again (do not change the list returned)."""
        kept = self._held.get((needle, casefold))
        if kept is None:
            kept = self._held[(needle, casefold)] = self._holding(needle, casefold)
        return kept

    def _holding(self, needle: str, casefold: bool) -> list[str]:
        if self._folder_names is None:
            self._folder_names = sorted(d for d in self.folders if d)
        names = self._folder_names
        text = self._folded if casefold else self._plain
        if text is None:
            text = "\n".join(f"/{d}/" for d in names)
            if casefold:
                text = self._folded = text.casefold()
            else:
                self._plain = text
        hits: list[str] = []
        lines = "\n" not in needle and text.count("\n") == len(names) - 1  # no name holds a line break
        if not lines:
            hits = [d for d in names if needle in (f"/{d}/".casefold() if casefold else f"/{d}/")]
        line = 0
        seen = 0  # the text before `seen` has `line` line breaks
        pos = text.find(needle) if lines else -1
        while pos >= 0:
            line += text.count("\n", seen, pos)
            hits.append(names[line])
            seen = text.find("\n", pos)
            if seen < 0:
                break
            pos = text.find(needle, seen + 1)
        spans = [prefix_span(self.paths, d + "/") for d in hits]
        spans.sort(key=lambda span: (span[0], -span[1]))
        found: list[str] = []
        end = 0
        for lo, hi in spans:
            if lo >= end:
                found.extend(self.paths[lo:hi])
                end = hi
        return found

    def named(self, *names: str) -> list[str]:
        """The listed paths that are one of `names` or end with `/` and one of them, sorted."""
        found = set(self.ending(*("/" + n for n in names)))
        found.update(n for n in names if _holds(self.paths, n))
        return sorted(found)


_MAGIC = frozenset("*?[]{}()!@+\\\"")


def literal_prefix(pattern: str) -> str:
    """The leading folders of a glob that hold no wildcard: every match starts with them."""
    while pattern.startswith("./"):
        pattern = pattern[2:]
    literal: list[str] = []
    for segment in pattern.split("/")[:-1]:
        if not segment or any(c in _MAGIC for c in segment):
            break
        literal.append(segment)
    return "/".join(literal)


def scan(root: Path, folder: str, suffixes: tuple[str, ...], recursive: bool, reads: Reads) -> list[str]:
    """Files below root/folder with one of the suffixes, root-relative, sorted; symlinks followed;
    each folder listed noted in `reads`."""
    base = root / folder
    if not reads.is_dir(base):
        return []
    found: list[str] = []
    seen: set[str] = set()
    for current, dirs, names in reads.walk(base):
        real = os.path.realpath(current)
        if real in seen:  # a symlink cycle: each real folder is read once
            dirs[:] = []
            continue
        seen.add(real)
        rel = Path(current).relative_to(root).as_posix()
        found.extend(f"{rel}/{n}" for n in names if n.endswith(suffixes))
        if not recursive:
            dirs[:] = []
        dirs.sort()
    return sorted(found)


def nested(ctx: Context, marker: str) -> list[str]:
    """Folders of the project named `marker` below the root (`backend/.cursor/rules`), sorted:
    the agents that read rule folders in subfolders too."""
    return sorted(d for d in ctx.folders if d.endswith("/" + marker))


def glob_list(value: Any, split: bool = True) -> list[str] | None:
    """A list of glob strings from a frontmatter value (a list, or one string split on commas
    outside braces when `split`); None when the value is neither."""
    if isinstance(value, str):
        return split_commas(value) if split else ([value.strip()] if value.strip() else [])
    if isinstance(value, list):
        return [str(v).strip() for v in value if isinstance(v, str | int | float) and str(v).strip()]
    return None


class Agent(ABC):
    """One agent: which files it reads, what it loads for a path, and how its rules misfire."""

    id: ClassVar[str]
    name: ClassVar[str]
    # The home format's agent (Boost): its rule files are the core's `RuleRepository`, which every
    # surface shows as the project's rules, apart from the other agents' files (`AgentProject.others`).
    home: ClassVar[bool] = False
    keys: ClassVar[tuple[str, ...]] = ()
    # A class default; an agent whose project sets its cap (Codex's config) sets its own.
    budget: Budget | None = None
    source: ClassVar[str] = ""
    # Whether patterns are matched case-sensitively against the root-relative path.
    from_root: ClassVar[bool] = False
    # Every behaviour rulelens relies on, with its source (agents/facts.py).
    facts: ClassVar[tuple[Fact, ...]] = ()
    # Derived from `facts`: False where any claim rests on neither the agent's code nor its docs.
    confirmed: ClassVar[bool] = True
    # The version of the agent's release its `code` facts were read (or its binary run) at
    # ("2.1.337"), declared beside them; None where no release's code was read.
    release: ClassVar[str | None] = None
    # The agent's name and `release` ("Claude Code 2.1.337"), where every claim is confirmed;
    # else None. That confirms the matcher and the files read; the whole answer for a moment is
    # confirmed only where `end_to_end` holds the moment (`stamp`).
    confirmed_in: ClassVar[str | None] = None
    # The moments (model.py) for which that release was run end to end, on whole projects, and
    # every file that reached the model compared with `view`'s answer: only there does an answer
    # say "confirmed in <release>"; elsewhere "matcher confirmed in <release>".
    end_to_end: ClassVar[frozenset[Moment]] = frozenset()
    # Whether `view` answers each moment as runs of the agent's release showed it (its
    # `moment_facts`); False: one answer for every moment, not checked per moment.
    per_moment: ClassVar[bool] = False
    # Where this agent's files can live, root-relative: an editor's cheap test before reading
    # anything, and the file watchers' globs. `discover()` finds the files themselves.
    file_globs: ClassVar[tuple[str, ...]] = ()
    # The codes of this agent's own traps (`file_traps`), beside SHARED_CODES.
    codes: ClassVar[frozenset[str]] = frozenset()
    # True where the agent also reads files that its own files name (Amp's @-mentions), which
    # can be anywhere: those are found through the naming file, not by a glob.
    follows_mentions: ClassVar[bool] = False
    # File names this agent reads in another agent's format (`AGENTS.md`): an editor shows such a
    # file as that other agent's, so its findings and glob hovers are the format's own.
    borrows: ClassVar[tuple[str, ...]] = ()
    # The readings of its glob matcher still open (agents/readings.py), beside the one `decide`
    # uses: None for the usual ones where the dialect is unconfirmed (`open_readings`), () where
    # its code settles them all.
    readings: ClassVar[tuple[Reading, ...] | None] = None
    # The `@path` imports its reader follows (agents/imports.py), None where it follows none.
    import_syntax: ClassVar[Syntax | None] = None
    import_code: ClassVar[str] = ""  # the code of its imports that load no file
    # The hook through which a project can log what the agent loads in real sessions
    # (`rulelens init --observe`); None where the agent has none.
    observe_hook: ClassVar[ObserveHook | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.confirmed = all_confirmed(cls.facts)
        name = getattr(cls, "name", "")
        release = cls.release
        cls.confirmed_in = f"{name} {release}" if cls.confirmed and release and name else None

    @classmethod
    def sure_of(cls, topic: Topic) -> bool:
        """Whether every claim about `topic` is confirmed by the agent's code or official docs."""
        return all_confirmed(cls.facts, topic)

    @classmethod
    def open_readings(cls) -> tuple[Reading, ...]:
        """The alternative readings a finding about this agent's globs must hold under."""
        if cls.readings is not None:
            return cls.readings
        return () if cls.sure_of("dialect") else UNSETTLED

    # Remembered answers, typed; each is made empty on first use, per instance. A reading's copy
    # (`_variant`) forgets every `_`-named mapping it was copied with, so it remembers its own.
    @cached_property
    def _variants(self) -> dict[Reading, Agent]:
        return {}

    @cached_property
    def _pattern_hits(self) -> dict[str, frozenset[str]]:
        return {}

    @cached_property
    def _matches_any(self) -> dict[str, bool]:
        return {}

    def read_as(self, reading: Reading) -> Agent:
        """This agent with its globs matched under `reading`: a shallow copy sharing its files,
        with its own remembered hits. Remembered per reading."""
        variants = self._variants
        if reading not in variants:
            variants[reading] = _variant(self, reading)
        return variants[reading]

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        cache = ctx.repo.frontmatter if ctx.repo is not None else None
        # A listed path that is no file (a link that leads nowhere) is one no agent can read.
        self.files: list[AgentFile] = [ctx.read_file(rel, self.id, cache)
                                       for rel in self.discover() if ctx.is_file(rel)]

    def import_traps(self, f: AgentFile) -> list[Problem]:
        """Each `@path` of `f` this agent reads as an import that loads no file, at its columns,
        worded by `import_message` under `import_code`."""
        out: list[Problem] = []
        for imp, why in self.follower().broken(f.rel, f.text):
            if not looks_like_file(imp.path):
                continue
            line, col, end = span(f.text, imp)
            message = self.import_message(imp.path, named_file(f.rel, imp.path), why)
            out.append(Problem(f.rel, line, "warning", self.import_code, message, col, end))
        return out

    def import_message(self, path: str, named: str, why: str) -> str:
        """What the agent does with `@path`, an import of the file `named` that loads nothing for
        the reason `why` (agents/imports.py), and the fix."""
        raise NotImplementedError(f"{self.name} reports no import")

    def follower(self) -> Follower:
        """The project's `@path` import reader with this agent's syntax, made once per reading."""
        found: Follower | None = self.__dict__.get("_follower")
        if found is None:
            assert self.import_syntax is not None, f"{self.name} follows no imports"
            found = self.__dict__["_follower"] = Follower(self.ctx.root, self.ctx.reads, self.import_syntax)
        return found

    @abstractmethod
    def discover(self) -> list[str]:
        """Root-relative paths of this agent's files in the project."""

    @abstractmethod
    def decide(self, f: AgentFile, path: str) -> Decision:
        """Whether `f` loads for an edit of `path` (a Load), may load (a Maybe), or does not."""

    def patterns(self, f: AgentFile) -> list[str]:
        """The globs this agent reads from `f`, as written (for checks against the project)."""
        return []

    def pattern_matches(self, pattern: str, path: str) -> bool:
        return False

    def pattern_in(self, rel: str, pattern: str) -> str:
        """`pattern`, written in the file `rel`, as `pattern_matches` takes it: as written, but
        for agents that read some patterns from the file's own folder."""
        return pattern

    def split_value(self, value: str) -> list[str] | None:
        """The patterns this agent's reader takes from a one-line string value of its glob key;
        None where it takes the string as one pattern."""
        return None

    def view(self, path: str, on: Moment = "read") -> list[Load | Maybe]:
        """What loads for `path` when the agent reads it (`on`: or edits it, or creates it)."""
        out: list[Load | Maybe] = []
        for f in self.files:
            d = self.decide(f, path)
            if d is not None:
                out.append(d)
        return out if self.triggers(path, on) else [d for d in out if not _after_the_tool(d)]

    def started_in_folder(self, path: str) -> list[Load]:
        """What the agent loads for `path` when started in its folder, for a per-path cap's
        findings ("working in `a/`"): its answer, where the folder it starts in changes nothing
        (Codex's chain does)."""
        return [d for d in self.view(path) if isinstance(d, Load)]

    def triggers(self, path: str, on: Moment) -> bool:
        """Whether the agent's tool for `on` loads the path's own files (its globs' and folders'):
        False where the tool refuses the path or loads nothing for it, so that only what loads at
        start is left. One answer for every moment unless the agent's runs showed otherwise."""
        return True

    def moment_note(self, path: str, on: Moment) -> str | None:
        """Why this agent's answer for `path` on `on` lacks files another moment has, in words."""
        return None

    @classmethod
    def stamp(cls, on: Moment = "read") -> str | None:
        """How sure the answer on `on` is, as every surface words it: "confirmed in <release>"
        where that release was run end to end for the moment, "matcher confirmed in <release>"
        where only its matcher and file reading were checked against its code; None where it
        was not read from a release."""
        if not cls.confirmed_in:
            return None
        return f"{'' if on in cls.end_to_end else 'matcher '}confirmed in {cls.confirmed_in}"

    def imports_of(self, rel: str) -> list[Imported]:
        """The files `rel`'s `@path` imports load with it (agents/imports.py), for an agent that
        follows such imports; none by default."""
        return []

    def imports_at_start(self, f: AgentFile) -> bool:
        """Whether `f`'s imports load at session start whether or not `f` itself loads for the
        path (Claude Code's rules with `paths`); by default they load with `f`."""
        return False

    def blank_starts(self, loads: Sequence[Load]) -> dict[str, int]:
        """The bytes of blank text each loaded file starts with, for an agent whose per-path cap
        passes over a cut that is all blank (Codex's)."""
        return {}

    def file_budget_note(self, f: AgentFile) -> str | None:
        """A one-line note when one loaded file is over this agent's per-file cap."""
        return None

    def glob_base(self, f: AgentFile) -> str:
        """The folder `f` applies to and its globs are relative to: "" for the root's files."""
        return ""

    def within(self, f: AgentFile, path: str) -> str | None:
        """`path` relative to `f`'s folder, or None when it lies outside it."""
        base = self.glob_base(f)
        if not base:
            return path
        return path[len(base) + 1:] if path.startswith(base + "/") else None

    def file(self, rel: str) -> AgentFile | None:
        return next((f for f in self.files if f.rel == rel), None)

    def candidates(self, pattern: str) -> Sequence[str]:
        """The project paths `pattern` could match: those below its literal folders, for agents
        that match case-sensitively from the root; else all of them."""
        return starting_with(self.ctx.paths, literal_prefix(pattern)) if self.from_root else self.ctx.paths

    def scanned(self, pattern: str) -> Iterable[str]:
        """`candidates`, less those a cheap test rules out (for the scans of every project file)."""
        return self.candidates(pattern)

    def coverage_key(self, f: AgentFile) -> tuple[str, ...]:
        """Files with equal keys load for the same paths: same agent, folder and frontmatter."""
        return (self.id, f.rel.rpartition("/")[0], f.rel if not f.has_frontmatter else "", f.head)

    def glob_loads(self, f: AgentFile) -> list[str] | None:
        """The patterns of `f` when it loads for a path exactly when one of them matches it
        (root-relative, nothing else decides; [] when it loads for no path, as a rule the agent
        picks by its description); None where anything else can. `loads_for` then
        takes the union of each pattern's remembered hits instead of deciding path by path."""
        return None

    def unpicked_how(self, f: AgentFile) -> str:
        """How `f` loads when no glob loads it (`glob_loads` is []), as "loads it ..." ends."""
        return "only when the model picks it"

    def glob_fields(self, f: AgentFile) -> tuple[str, ...]:
        """The frontmatter keys `f` must gain to load by glob: the globs' key, and for an agent
        whose `trigger` decides, `trigger: glob` beside it."""
        return (self.keys[0] if self.keys else "paths",)

    def always_field(self, f: AgentFile) -> str | None:
        """The frontmatter line that makes `f` load for every file, where it loads for none by
        path now and a line can change that (a `trigger`); None elsewhere."""
        return None

    def folder_loads(self, f: AgentFile) -> str | None:
        """The folder below which `f` loads for every path and outside which for none (a nested
        `CLAUDE.md`'s); None where anything else decides."""
        return None

    def compared(self, f: AgentFile) -> bool:
        """Whether `agents-disagree` compares `f` as this agent's copy of a rule: not where the
        agent offers no way to change when it loads (a skill Copilot lists by description, which
        no key of its own can scope), so that no advice names a key the agent does not read."""
        return True

    def loads_for(self, f: AgentFile, paths: Sequence[str]) -> set[str]:
        """The paths `f` loads for; `paths` sorted. Path-independent loads skip the per-path test."""
        if not paths:
            return set()
        only = self.glob_loads(f)
        if only is not None:
            hits = {p for pattern in only for p in self.pattern_hits(pattern)}
            return hits if paths is self.ctx.paths else {p for p in hits if _holds(paths, p)}
        folder = self.folder_loads(f)
        if folder:
            return set(starting_with(paths, folder + "/"))
        first = self.decide(f, paths[0])
        if isinstance(first, Load) and first.how == "always":
            return set(paths)
        base = self.glob_base(f)
        if isinstance(first, Load) and first.how == "directory":
            folder = base or f.rel.rpartition("/")[0]
            if folder:
                paths = starting_with(paths, folder + "/")
        else:
            prefixes = {"/".join(x for x in (base, literal_prefix(p)) if x) for p in self.patterns(f)}
            if self.from_root and prefixes and "" not in prefixes:
                paths = sorted({p for prefix in prefixes for p in starting_with(paths, prefix)})
        self._bulk = True  # many paths: `matching` answers from each pattern's remembered hits
        try:
            return {p for p in paths if isinstance(self.decide(f, p), Load)}
        finally:
            self._bulk = False

    _bulk = False

    def pattern_hits(self, pattern: str) -> frozenset[str]:
        """Every listed path `pattern` matches, remembered: `check` asks for each file's coverage,
        and copies of one rule in several files (or agents' folders) share their patterns."""
        cache = self._pattern_hits
        if pattern not in cache:
            cache[pattern] = frozenset(self.hits_among(pattern, self.scanned(pattern)))
        return cache[pattern]

    def hits_among(self, pattern: str, paths: Iterable[str]) -> Iterator[str]:
        """The `paths` `pattern` matches, lazily: `pattern_matches` path by path, unless an
        agent's matcher answers many paths at once faster (and exactly as it would one by one)."""
        return (p for p in paths if self.pattern_matches(pattern, p))

    def listed(self, path: str) -> bool:
        return _holds(self.ctx.paths, path)

    def traps(self) -> list[Problem]:
        out: list[Problem] = []
        for f in self.files:
            out.extend(self.file_traps(f))
            out.extend(self.nothing_traps(f))
        return out

    def file_traps(self, f: AgentFile) -> list[Problem]:
        """Findings particular to this agent; the YAML finding by default."""
        if f.yaml_error is None:
            return []
        return [problem(f, f.yaml_error_line, "warning", "agent-yaml-invalid",
                        f"{self.name} cannot read this frontmatter as YAML ({f.yaml_error}). "
                        f"{self.on_invalid_yaml()}")]

    def on_invalid_yaml(self) -> str:
        return f"What {self.name} then does is not documented ({NOT_CONFIRMED}). Quote the values."

    def matches_any(self, pattern: str) -> bool:
        """Whether `pattern` matches some project file (remembered: copies share patterns)."""
        cache = self._matches_any
        if pattern not in cache:
            cache[pattern] = next(self.hits_among(pattern, self.scanned(pattern)), None) is not None
        return cache[pattern]

    def matches_any_in(self, f: AgentFile, pattern: str) -> bool:
        """`matches_any`, for the files below `f`'s folder when its globs are relative to it."""
        base = self.glob_base(f)
        if not base:
            return self.matches_any(pattern)
        return any(self.pattern_matches(pattern, p[len(base) + 1:])
                   for p in starting_with(self.ctx.paths, base + "/"))

    def key_line(self, f: AgentFile) -> int:
        """The line of the key `f`'s globs are read from (0: none)."""
        return f.line_of(self.keys[0]) if self.keys else 0

    def nothing_patterns(self, f: AgentFile) -> list[str]:
        """The patterns `nothing_traps` checks: all, less those another finding already covers."""
        return self.patterns(f)

    def nothing_traps(self, f: AgentFile) -> list[Problem]:
        """A glob that matches no file here. A warning only while the rule loads for no file at
        all through this agent; where it still loads through its other patterns, the dead ones
        are one `info` for the file (a list kept for other projects is not worth failing CI)."""
        out: list[Problem] = []
        sure = self.sure_of("dialect")
        dead: list[str] = []
        for pattern in self.nothing_patterns(f):
            if self.matches_any_in(f, pattern):
                continue
            dead.append(pattern)
        if not dead:
            return out
        line = self.key_line(f)
        written = self.patterns(f)
        live = any(self.matches_any_in(f, p) for p in written if not p.startswith("!"))
        if live:
            # A literal path (one named file, no wildcard) that is not here is no alternative kept
            # for later: the file was moved or never was, and the rule points at it. Said as before.
            named = [p for p in dead if _literal(p)]
            out.extend(self._dead_warning(f, line, p, sure) for p in named)
            dead = [p for p in dead if not _literal(p)]
            if not dead:
                return out
            unsure = [p for p in dead if any(r.affects(p) and self.read_as(r).hits_in(f, p, 1)
                                             for r in self.open_readings())]
            shown = ", ".join(f"`{p}`" for p in dead[:DEAD_SHOWN])
            more = f" and {len(dead) - DEAD_SHOWN} more" if len(dead) > DEAD_SHOWN else ""
            n = len([p for p in written if not p.startswith("!")])
            maybe_live = (f" ({', '.join(f'`{p}`' for p in unsure)} may match files, depending on "
                          f"how {self.name} reads globs: not confirmed)") if unsure else ""
            return [*out, problem(f, line, "info", "agent-glob-matches-nothing",
                            f"{len(dead)} of {n} patterns match no file here for {self.name} "
                            f"({shown}{more}){maybe_live}; the rule still loads through the others. "
                            "Remove them if the project will not have such files.")]
        facts: list[str] = []
        for pattern in dead:
            readings = [r for r in self.open_readings() if r.affects(pattern)]
            found = next(((r, hits) for r in readings
                          if (hits := self.read_as(r).hits_in(f, pattern, EXAMPLES_MAX))), None)
            if found is not None:
                out.append(problem(f, line, "info", "agent-glob-matches-nothing",
                                   self.unsure_nothing_message(pattern, *found)))
            else:  # every reading still open agrees: a fact
                facts.append(pattern)
        if len(facts) > 1:  # one cause, the rule's whole list: one finding naming its dead globs
            out.append(self._dead_warning_all(f, line, facts, sure))
        else:
            out.extend(self._dead_warning(f, line, p, sure) for p in facts)
        return out

    def _dead_warning(self, f: AgentFile, line: int, pattern: str, sure: bool) -> Problem:
        return problem(
            f, line, "warning", "agent-glob-matches-nothing",
            f"{self.name} matches `{pattern}` against no file of this project"
            f"{'' if sure else ' in any reading of its matcher'}, so this rule never "
            f"loads through it{self.nothing_hint(pattern)}. Fix the glob or remove it.")

    def _dead_warning_all(self, f: AgentFile, line: int, patterns: Sequence[str], sure: bool) -> Problem:
        """Every glob of a rule dead at once: one finding for the rule file, naming them all."""
        hints = "".join(dict.fromkeys(self.nothing_hint(p) for p in patterns))
        return problem(
            f, line, "warning", "agent-glob-matches-nothing",
            f"{self.name} matches {_listed_globs(patterns)} against no file of this project"
            f"{'' if sure else ' in any reading of its matcher'}, so this rule never "
            f"loads through them{hints}. Fix the globs or remove them.")

    def hits_in(self, f: AgentFile, pattern: str, limit: int) -> list[str]:
        """Up to `limit` project paths `pattern` matches (relative to `f`'s folder where its
        globs are), sorted: the examples of a finding that holds under one reading only."""
        base = self.glob_base(f)
        if not base:
            return heapq.nsmallest(limit, self.pattern_hits(pattern))
        found: list[str] = []
        paths = starting_with(self.ctx.paths, base + "/")
        for p in paths:
            if self.pattern_matches(pattern, p[len(base) + 1:]):
                found.append(p)
                if len(found) == limit:
                    break
        return found

    def unsure_nothing_message(self, pattern: str, reading: Reading, hits: Sequence[str]) -> str:
        """A matches-nothing finding worded as a condition: a reading left open decides it."""
        such = f"`{hits[0]}`" + (" and more" if len(hits) > 1 else "")
        nested = ""
        body = pattern.lstrip("/")
        if reading.any_depth and "/" not in body:
            nested = f" `**/{body}` loads for nested files in every reading."
        return (f"{self.name}'s matcher is not confirmed: if {reading.otherwise.format(agent=self.name)}, "
                f"`{pattern}` loads this rule for no file here; if "
                f"{reading.condition.format(agent=self.name)}, it loads for {such}.{nested}")

    def nothing_hint(self, pattern: str) -> str:
        return ""

    def prepended(self, f: AgentFile) -> frozenset[str]:
        """The files this agent loads `f` for only because it puts `**/` before a relative glob
        (none here: Copilot in VS Code's module says where it does)."""
        return frozenset()

    def written_hits(self, f: AgentFile, pattern: str) -> frozenset[str]:
        """Every project file `pattern` of `f` loads it for through this agent, less those
        `prepended` covers: what a rewrite of the glob must keep."""
        return frozenset(self.hits_in(f, pattern, len(self.ctx.paths)))

    def load(self, f: AgentFile, how: str, patterns: Sequence[str] = ()) -> Load:
        return Load(f.rel, how, tuple(patterns), f.size)  # type: ignore[arg-type]


class GlobAgent(Agent):
    """An agent that matches globs from one frontmatter key against the root-relative path."""

    flags: ClassVar[int]
    from_root = True

    def pattern_matches(self, pattern: str, path: str) -> bool:
        return matches(pattern, path, self.flags)

    def scanned(self, pattern: str) -> Iterable[str]:
        found = self.candidates(pattern)
        if type(self).pattern_matches is not GlobAgent.pattern_matches:
            return found  # another matcher: the literal end may not hold as `matches` reads it
        end = literal_end(pattern, self.flags)  # a string test here, not a wcmatch call a path
        return (p for p in found if p.endswith(end)) if end else found

    def hits_among(self, pattern: str, paths: Iterable[str]) -> Iterator[str]:
        if type(self).pattern_matches is not GlobAgent.pattern_matches:
            return super().hits_among(pattern, paths)  # another matcher, path by path
        return matching(pattern, self.flags, paths)  # `matches`, the pattern read once

    def matching(self, patterns: Sequence[str], path: str) -> list[str]:
        if self._bulk and self.listed(path):  # `candidates` holds every listed path it can match
            return [p for p in patterns if path in self.pattern_hits(p)]
        return [p for p in patterns if self.pattern_matches(p, path)]


def _variant(agent: Agent, reading: Reading) -> Agent:
    """`agent` under `reading` (`Agent.read_as`). Its hits are worked out from the first
    reading's where the reading allows: one that cannot change a pattern shares its hits; one
    that only drops dotfiles tests only the hits with a dot segment; one that ignores case adds
    to them, from the paths with a capital letter when the pattern has none; only where `*`
    reaches is every path tested again, by its name."""
    variant = copy.copy(agent)
    for key in [k for k, v in variant.__dict__.items() if isinstance(v, dict) and k.startswith("_")]:
        del variant.__dict__[key]  # remembered answers of the first reading
    if reading.flags is not None:
        variant.flags = reading.flags  # type: ignore[attr-defined]
    first, own = agent.pattern_matches, type(agent).pattern_matches
    any_depth, fold, flags = reading.any_depth, reading.ignore_case, reading.flags
    paths = agent.ctx.paths
    capitals_list: list[str] | None = None  # the paths with a capital letter, once asked
    ends = own is GlobAgent.pattern_matches and not fold  # `literal_end` holds as `matches` reads it
    deep = ends and getattr(agent, "flags", 0) & (GLOBSTAR | DOTGLOB) == GLOBSTAR | DOTGLOB

    def capitals() -> list[str]:
        """The paths with a capital letter: the only ones folding can add to a lower-case pattern."""
        nonlocal capitals_list
        if capitals_list is None:
            capitals_list = [p for p in paths if p != p.casefold()]
        return capitals_list

    def pattern_matches(pattern: str, path: str) -> bool:
        if fold:
            pattern, path = pattern.casefold(), path.casefold()
        if any_depth and "/" not in pattern.strip().strip("/"):
            path = path.rpartition("/")[2]
        return first(pattern, path) if flags is None else own(variant, pattern, path)

    def pattern_hits(pattern: str) -> frozenset[str]:
        cache = variant._pattern_hits
        if pattern in cache:
            return cache[pattern]
        if not reading.affects(pattern):
            hits = agent.pattern_hits(pattern)
        elif flags is not None and not (any_depth or fold) and flags | DOTGLOB == getattr(agent, "flags", 0):
            hits = frozenset(p for p in agent.pattern_hits(pattern)
                             if not (p.startswith(".") or "/." in p) or pattern_matches(pattern, p))
        elif fold and not any_depth and flags is None:
            known = agent.pattern_hits(pattern)
            extra = paths if pattern != pattern.casefold() else capitals()
            hits = known | {p for p in extra if p not in known and pattern_matches(pattern, p)}
        elif any_depth and not fold and flags is None and deep:
            # A name at any depth is `**/` in front, where `**` reaches into dot folders too.
            hits = agent.pattern_hits("**/" + pattern.strip().strip("/"))
        else:
            end = literal_end(pattern, getattr(agent, "flags", 0)) if ends else ""
            hits = frozenset(p for p in paths if p.endswith(end) and pattern_matches(pattern, p))
        cache[pattern] = hits
        return hits

    def hits_among(pattern: str, among: Iterable[str]) -> Iterator[str]:
        return (p for p in among if pattern_matches(pattern, p))  # this reading's matcher, path by path

    # Instance attributes over the class's methods: `decide` and the scans all call these.
    # The case-sensitive shortcut of literal folders no longer holds.
    variant.pattern_matches = pattern_matches  # type: ignore[method-assign]
    variant.pattern_hits = pattern_hits  # type: ignore[method-assign]
    variant.hits_among = hits_among  # type: ignore[method-assign,assignment]
    variant.scanned = lambda pattern: paths  # type: ignore[method-assign]
    variant.from_root = False  # type: ignore[misc]
    return variant


def _after_the_tool(d: Load | Maybe) -> bool:
    """A load that the path's tool call brings (a glob's, a folder's), not one from the start."""
    return isinstance(d, Load) and d.how != "always"


def _listed_globs(patterns: Sequence[str]) -> str:
    """`a`, `b` and `c`: the globs one finding names."""
    quoted = [f"`{p}`" for p in patterns]
    return ", ".join(quoted[:-1]) + " and " + quoted[-1] if len(quoted) > 1 else "".join(quoted)


def _literal(pattern: str) -> bool:
    """A pattern that names one path (no wildcard, class or braces): `src/lib/Service.ts`."""
    return not pattern.startswith("!") and not any(c in pattern for c in "*?[{")


def _holds(paths: Sequence[str], path: str) -> bool:
    """Whether the sorted `paths` hold `path`."""
    start, end = prefix_span(paths, path)
    return start < end and paths[start] == path


def problem(f: AgentFile, line: int, severity: Severity, code: str, message: str) -> Problem:
    return Problem(f.rel, line, severity, code, message)


def maybe(f: AgentFile, how: str) -> Maybe:
    return Maybe(f.rel, how)  # type: ignore[arg-type]
