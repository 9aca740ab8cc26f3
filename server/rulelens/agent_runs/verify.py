"""`rulelens verify`'s core: which agents are installed, which paths to ask about, and each
agent's run (`runner.run`) beside rulelens's prediction (`compare`), as one `Verification`.

The fronts (CLI, language server) only parse their input and print; everything that decides
what runs, and what the exit code is, is here."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from rulelens.agent_runs.compare import Comparison, compare, predict
from rulelens.agent_runs.launchers import LAUNCHERS
from rulelens.agent_runs.model import Moment, Observation
from rulelens.agent_runs.runner import run, version
from rulelens.agent_runs.scratch import Reused, Scratch
from rulelens.agents.project import AgentProject

# The command each agent installs on PATH, and the user's global files it reads (its launcher's).
COMMANDS: dict[str, str] = {agent: launcher.command for agent, launcher in LAUNCHERS.items()}
USER_FILES: dict[str, tuple[tuple[str, str], ...]] = {
    agent: launcher.user_files for agent, launcher in LAUNCHERS.items()}

# Network: the agents are given the fake model's 127.0.0.1 address alone; a client that honours
# the proxy variables sends anything else to a closed port on 127.0.0.1 (Node 24 honours them
# only with NODE_USE_ENV_PROXY).
CLOSED = "http://127.0.0.1:9"
NO_NETWORK: dict[str, str] = {
    "HTTPS_PROXY": CLOSED, "HTTP_PROXY": CLOSED, "ALL_PROXY": CLOSED, "https_proxy": CLOSED,
    "http_proxy": CLOSED, "all_proxy": CLOSED, "NO_PROXY": "127.0.0.1,localhost",
    "no_proxy": "127.0.0.1,localhost", "NODE_USE_ENV_PROXY": "1"}

INSTRUCTION_NAMES = frozenset({"CLAUDE.md", "AGENTS.md", "GEMINI.md", "QWEN.md", "CLAUDE.local.md",
                               "AGENTS.override.md"})
SOURCE_SUFFIXES = frozenset({".py", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".php", ".go", ".rs", ".java",
                             ".kt", ".rb", ".vue", ".svelte", ".cs", ".swift", ".c", ".cc", ".cpp", ".h",
                             ".ex", ".lua", ".scala", ".dart", ".sh", ".sql", ".css", ".scss"})
SKIP_FOLDERS = frozenset({"node_modules", "vendor", "dist", "build", "third_party", "fixtures", "testdata"})
RULE_PATHS = 3  # at most this many paths chosen for rules' globs


class AgentChoiceError(ValueError):
    """An `--agent` that names no agent rulelens can run."""


@dataclass(frozen=True)
class Installed:
    """An agent to run: its id and binary."""

    agent: str
    binary: Path


@dataclass(frozen=True)
class Pick:
    """A path to ask about, and why it was chosen (for the output)."""

    path: str
    why: str

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "why": self.why}


def agent_id(word: str) -> str:
    """An agent's id from its id or its command's name (`claude` is `claude-code`)."""
    if word in LAUNCHERS:
        return word
    for agent, command in COMMANDS.items():
        if word == command:
            return agent
    raise AgentChoiceError(f"--agent {word}: rulelens runs {', '.join(sorted(LAUNCHERS))} "
                           f"(or their commands {', '.join(COMMANDS[a] for a in sorted(COMMANDS))})")


def find_agents(asked: Sequence[str], which: Callable[[str], str | None] = shutil.which
                ) -> tuple[list[Installed], list[str]]:
    """The agents to run and one line per asked agent that cannot be. `asked` empty: every
    agent whose command is on PATH; `ID`: that one from PATH; `ID=BINARY`: that binary."""
    found: list[Installed] = []
    failures: list[str] = []
    if not asked:
        for agent in sorted(LAUNCHERS):
            where = which(COMMANDS[agent])
            if where:
                found.append(Installed(agent, Path(where)))
        if not found:
            commands = ", ".join(f"`{COMMANDS[a]}`" for a in sorted(COMMANDS))
            failures.append(f"no agent installed: none of {commands} is on PATH "
                            "(name one with --agent ID=BINARY)")
        return found, failures
    for word in asked:
        name, eq, binary = word.partition("=")
        agent = agent_id(name.strip())
        if any(i.agent == agent for i in found):
            continue
        if eq:
            path = Path(binary).expanduser()
            if not path.is_file():
                failures.append(f"{agent}: {binary} is not a file")
                continue
            found.append(Installed(agent, path))
        else:
            where = which(COMMANDS[agent])
            if where is None:
                failures.append(f"{agent}: `{COMMANDS[agent]}` is not on PATH "
                                f"(name it with --agent {agent}=BINARY)")
                continue
            found.append(Installed(agent, Path(where)))
    return found, failures


def spread(paths: Sequence[str]) -> list[str]:
    """Paths in a fixed order that does not follow the tree's (SHA-256 of each path): the first
    is any file, not always the alphabetically first."""
    return sorted(paths, key=lambda p: hashlib.sha256(p.encode()).hexdigest())


def ordinary(path: str, instruction: set[str]) -> bool:
    parts = path.split("/")
    return (path not in instruction and not any(p.startswith(".") for p in parts)
            and not any(p in SKIP_FOLDERS for p in parts[:-1]) and ".min." not in parts[-1])


def pick_paths(project: AgentProject, moment: Moment = "read") -> list[Pick]:
    """A few paths, from what the rules name: a path each rule's globs match (up to
    RULE_PATHS rules), a file below a folder holding its own instruction file, one ordinary file
    no glob names. Deterministic: the same tree gives the same paths. For `create`, a new name
    beside each."""
    paths = list(project.ctx.paths)
    instruction = {f.rel for a in project.present for f in a.files}
    picks: list[Pick] = []
    named: set[str] = set()
    for agent in project.present:
        for f in sorted(agent.files, key=lambda f: f.rel):
            if f.rel.rpartition("/")[2] in INSTRUCTION_NAMES:
                continue  # a folder's own file, not a rule's globs: below
            hits = agent.loads_for(f, paths)
            if not hits or len(hits) == len(paths):
                continue
            named |= hits
            if sum(1 for p in picks if p.why.startswith("named")) >= RULE_PATHS:
                continue
            chosen = next((p for p in spread([h for h in hits if ordinary(h, instruction)])
                           if all(p != q.path for q in picks)), None)
            if chosen is not None:
                picks.append(Pick(chosen, f"named by {f.rel}'s globs"))
    folders = sorted({rel.rpartition("/")[0] for rel in instruction
                      if "/" in rel and rel.rpartition("/")[2] in INSTRUCTION_NAMES
                      and not rel.rpartition("/")[0].split("/")[-1].startswith(".")})
    for folder in folders:
        below = [p for p in paths if p.startswith(folder + "/") and ordinary(p, instruction)]
        chosen = next((p for p in spread(below) if all(p != q.path for q in picks)), None)
        if chosen is not None:
            name = next(rel for rel in sorted(instruction) if rel.rpartition("/")[0] == folder
                        and rel.rpartition("/")[2] in INSTRUCTION_NAMES)
            picks.append(Pick(chosen, f"below {name}"))
            break
    nested = tuple(f + "/" for f in folders)
    plain = [p for p in paths if ordinary(p, instruction) and p not in named and not p.startswith(nested)]
    source = [p for p in plain if PurePosixPath(p).suffix in SOURCE_SUFFIXES]
    chosen = next(iter(spread(source or plain)), None)
    if chosen is not None:
        picks.append(Pick(chosen, "an ordinary file no rule names"))
    if moment == "create":
        return [Pick(new_name(p.path, set(paths)), f"a new file beside {p.path} ({p.why})") for p in picks]
    return picks


def new_name(near: str, taken: set[str]) -> str:
    """A free name beside `near` that keeps its suffixes (`a.test.ts` -> `a_new.test.ts`)."""
    folder, _, name = near.rpartition("/")
    head, dot, rest = name.partition(".")
    for n in range(1, 1000):
        candidate = f"{head or 'file'}_new{'' if n == 1 else n}{dot}{rest}"
        full = f"{folder}/{candidate}" if folder else candidate
        if full not in taken:
            return full
    return f"{near}.new"


def user_files(agent: str, home: Path | None = None) -> dict[str, Path]:
    """The user's global instruction files of `agent` that exist, by their path in the scratch
    home. Only these files are read from the user's home, and only when asked."""
    base = Path.home() if home is None else home
    out: dict[str, Path] = {}
    for source, target in USER_FILES.get(agent, ()):
        full = base / source
        if full.is_dir():
            for md in sorted(full.rglob("*.md")):
                if md.is_file():
                    out[f"{target}/{md.relative_to(full).as_posix()}"] = md
        elif full.is_file():
            out[target] = full
    return out


@dataclass(frozen=True)
class Row:
    """One file in either list: when rulelens says it arrives, when it did (None: not at all)."""

    file: str
    predicted: str | None
    sent: str | None

    @property
    def differs(self) -> bool:
        return self.predicted != self.sent

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "predicted": self.predicted, "sent": self.sent, "differs": self.differs}


def rows(result: Comparison) -> list[Row]:
    """The prediction and the observation side by side, a file per row (a file predicted at
    one moment and sent at another is one row, marked)."""
    said: dict[str, str] = {}
    for s in result.predicted:
        said.setdefault(s.file, s.arrived)
    sent: dict[str, str] = {}
    for s in result.observation.files:
        sent.setdefault(s.file, s.arrived)
    files = sorted(set(said) | set(sent), key=lambda f: ((said.get(f) or sent.get(f)) != "start", f))
    return [Row(f, said.get(f), sent.get(f)) for f in files]


@dataclass
class Case:
    """One agent asked about one path."""

    agent: str
    binary: Path
    pick: Pick
    result: Comparison

    @property
    def observation(self) -> Observation:
        return self.result.observation

    def to_json(self) -> dict[str, Any]:
        o = self.observation
        out: dict[str, Any] = {"agent": self.agent, "version": o.version, "path": o.path, "moment": o.moment,
                               "why": self.pick.why, "agree": self.result.agree,
                               "seconds": round(o.seconds, 2),
                               "rows": [r.to_json() for r in rows(self.result)],
                               "predicted": [s.to_json() for s in self.result.predicted],
                               "sent": [s.to_json() for s in o.files], "error": o.error}
        return out


EXIT_EQUAL, EXIT_DIFFERENCE, EXIT_NOTHING = 0, 1, 2
STOPPED = "stopped before every run was done (cancelled, or the server is shutting down)"


@dataclass
class Verification:
    """Everything a `verify` run found; `code` is its exit code."""

    root: Path
    moment: Moment
    moment_given: bool
    with_user_files: bool
    agents: list[Installed]
    picks: list[Pick]
    cases: list[Case] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    user_files: dict[str, list[str]] = field(default_factory=dict)  # agent -> ~/… files copied

    @property
    def differences(self) -> list[Case]:
        return [c for c in self.cases if c.observation.error is None and not c.result.agree]

    @property
    def errors(self) -> list[Case]:
        return [c for c in self.cases if c.observation.error is not None]

    @property
    def code(self) -> int:
        if self.differences:
            return EXIT_DIFFERENCE
        if self.failures or self.errors or not self.cases:
            return EXIT_NOTHING
        return EXIT_EQUAL

    def failure_lines(self) -> list[str]:
        """Each failure, one line saying why."""
        return [*self.failures,
                *(f"{c.agent} on {c.observation.path}: {(c.observation.error or '').rstrip(': ')}"
                  for c in self.errors)]

    def user_files_note(self) -> str:
        if not self.with_user_files:
            return ("Your global instruction files (~/.claude/CLAUDE.md and the like) are left out: "
                    "each agent runs with an empty home. --with-user-files copies them in.")
        copied = [f for files in self.user_files.values() for f in files]
        if not copied:
            return "--with-user-files: none of the agents' global instruction files exist in your home."
        return ("Your global instruction files are included (copied into the empty home): "
                + ", ".join(copied) + ". rulelens predicts and compares the project's files only.")

    def to_json(self) -> dict[str, Any]:
        return {"root": str(self.root), "moment": self.moment, "moment_default": not self.moment_given,
                "user_files": {"included": self.with_user_files, "files": self.user_files,
                               "note": self.user_files_note()},
                "agents": [{"agent": i.agent, "binary": str(i.binary)} for i in self.agents],
                "paths": [p.to_json() for p in self.picks],
                "cases": [c.to_json() for c in self.cases],
                "failures": self.failure_lines(), "exit": self.code}


def verify(root: Path, agents: Sequence[Installed], picks: Sequence[Pick], moment: Moment = "read", *,
           moment_given: bool = False, timeout: float = 120, with_user_files: bool = False,
           failures: Sequence[str] = (), project: AgentProject | None = None,
           progress: Callable[[str], None] | None = None,
           home: Path | None = None, stop: Callable[[], bool] | None = None) -> Verification:
    """Each agent asked about each path in a scratch copy of `root` (made once, copied once per
    agent and put back after each run), beside rulelens's prediction. An agent whose binary
    does not start is one failure, and is not asked about the other paths. `stop`: asked before
    each run and while an agent runs; when it says so, the running agent is ended and the runs
    left are not started (an editor's command cancelled, a language server shutting down), and
    that is one failure."""
    from rulelens.rules.repository import RuleRepository

    if project is None:
        project = AgentProject(RuleRepository(root, writable=False))
    out = Verification(root, moment, moment_given, with_user_files, list(agents), list(picks),
                       failures=list(failures))
    if not agents or not picks:
        if not picks:
            out.failures.append("no path to verify: the project has no file to ask about")
        return out
    copied: dict[str, dict[str, Path]] = {}
    if with_user_files:
        for installed in agents:
            copied[installed.agent] = user_files(installed.agent, home)
            base = Path.home() if home is None else home
            out.user_files[installed.agent] = [
                "~/" + source.relative_to(base).as_posix() for source in copied[installed.agent].values()]
    with Scratch(root) as template:
        for installed in agents:
            try:
                version(installed.agent, Path(os.path.abspath(installed.binary)))
            except OSError as e:
                why = e.strerror or e
                out.failures.append(f"{installed.agent}: could not start {installed.binary}: {why}")
                continue
            with Reused(template.root) as copy:  # one copy per agent, put back after each run
                if not each_path(out, installed, picks, moment, root, template.root, copy, timeout, project,
                                 copied.get(installed.agent), progress, stop):
                    return out
    return out


def each_path(out: Verification, installed: Installed, picks: Sequence[Pick], moment: Moment, root: Path,
              template: Path, copy: Reused, timeout: float, project: AgentProject,
              home_files: Mapping[str, Path] | None, progress: Callable[[str], None] | None,
              stop: Callable[[], bool] | None) -> bool:
    """One agent on each path, its cases added to `out`; False when `stop` said to stop."""
    for pick in picks:
        if stop is not None and stop():
            out.failures.append(STOPPED)
            return False
        if progress is not None:
            progress(f"{installed.agent}: {moment} {pick.path}")
        try:
            observed = run(installed.agent, installed.binary, root, pick.path, moment, timeout,
                           template=template, env=NO_NETWORK, home_files=home_files, reused=copy, stop=stop)
        except (OSError, subprocess.SubprocessError) as e:  # the copy, not the agent
            detail = getattr(e, "stderr", None)
            why = detail.decode("utf-8", "replace").strip() if isinstance(detail, bytes) else ""
            observed = Observation(installed.agent, "unknown", pick.path, moment, (),
                                   f"the scratch copy failed: {why or e}")
        predicted = predict(root, installed.agent, pick.path, moment, project)
        out.cases.append(Case(installed.agent, installed.binary, pick, compare(observed, predicted)))
        if observed.error is not None and observed.error.startswith("could not start"):
            break
    return True


def given_paths(project: AgentProject, paths: Sequence[str]) -> list[Pick]:
    return [Pick(p, "given") for p in paths]


def environment_note(env: Mapping[str, str] = NO_NETWORK) -> str:
    """What the agents were given, for the output."""
    return ("Each agent ran in a scratch copy of the project with an empty home, a dummy key, a fake "
            "model on 127.0.0.1 and its non-essential traffic off; proxy variables send any other "
            f"request that honours them to {env['HTTPS_PROXY']}, a closed port.")
