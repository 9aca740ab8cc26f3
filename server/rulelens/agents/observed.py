"""What agents were seen loading in real sessions (`rulelens init --observe`), beside what
rulelens predicts for a path.

The hook's command (cli/observe_hook.py) appends one line per load to git's folder; this reads
them and, for one path, says per predicted file when it was last seen loading and why, and flags
what contradicts the prediction: a file seen loading for this path that rulelens says does not
load for it, and a file that never loaded in `MIN_SESSIONS` or more observed sessions where it
should have. Where an agent's hook is known to stay silent for a file (agents/observe_hook.py),
that is said instead: silence there is no evidence.

A session "read a matching file" only where the hook shows it: a load whose trigger is a file
the rule matches. Sessions whose reads left no such trace are not counted against a rule.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rulelens.agents.observe_hook import OBSERVED, ROTATED

if TYPE_CHECKING:
    from rulelens.agents.base import Agent
    from rulelens.agents.project import AgentProject, PathView
    from rulelens.workspace.git import GitSession

# A rule that never loaded in this many observed sessions that should have loaded it is flagged.
MIN_SESSIONS = 3
# Reasons for which a file loads at the start of a session (or its restart after compaction).
AT_START = frozenset({"session_start", "compact", "refresh"})


@dataclass(frozen=True)
class Observation:
    """One load an agent's hook reported. Paths are root-relative where below the root."""

    agent: str
    at: str  # UTC, "2026-12-07T19:01:02Z"
    session: str
    file: str
    reason: str
    memory_type: str = ""
    trigger: str | None = None
    parent: str | None = None
    globs: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"at": self.at, "session": self.session, "file": self.file,
                                  "load_reason": self.reason}
        if self.memory_type:
            out["memory_type"] = self.memory_type
        if self.trigger is not None:
            out["trigger"] = self.trigger
        if self.parent is not None:
            out["parent"] = self.parent
        if self.globs:
            out["globs"] = list(self.globs)
        return out


def observed_file(root: Path, git: GitSession | None = None) -> Path | None:
    """Where the hook appends for this root's work tree (None outside git)."""
    from rulelens.workspace.cache_files import cache_file

    return cache_file(root, OBSERVED, git)


def read_observations(path: Path | None, root: Path) -> list[Observation]:
    """Every well-formed line of the file, oldest first, after those of the file it replaced
    when it passed its size cap (ROTATED, beside it); a line cut short or not JSON is skipped."""
    if path is None:
        return []
    raw = b""
    for part in (path.with_name(ROTATED.rpartition("/")[2]), path):
        try:
            raw += part.read_bytes() + b"\n"
        except OSError:
            continue
    bases = _bases(root)
    out: list[Observation] = []
    for line in raw.splitlines():
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if not isinstance(data, dict) or not isinstance(data.get("file_path"), str):
            continue
        globs = data.get("globs")
        trigger, parent = (data.get(k) for k in ("trigger_file_path", "parent_file_path"))
        out.append(Observation(
            agent=str(data.get("agent", "")), at=str(data.get("at", "")),
            session=str(data.get("session_id", "")), file=_relative(data["file_path"], bases),
            reason=str(data.get("load_reason", "")), memory_type=str(data.get("memory_type", "")),
            trigger=_relative(trigger, bases) if isinstance(trigger, str) else None,
            parent=_relative(parent, bases) if isinstance(parent, str) else None,
            globs=tuple(str(g) for g in globs) if isinstance(globs, list) else ()))
    return out


def _bases(root: Path) -> list[str]:
    seen = [str(root), os.path.realpath(root)]
    return [b.rstrip("/") + "/" for i, b in enumerate(seen) if b not in seen[:i]]


def _relative(path: str, bases: list[str]) -> str:
    for base in bases:
        if path.startswith(base):
            return path[len(base):]
    real = os.path.realpath(path)
    for base in bases:
        if real.startswith(base):
            return real[len(base):]
    return path


@dataclass(frozen=True)
class FileSeen:
    """One file rulelens predicts loads for the path, as the agent's hook saw it."""

    file: str
    last: Observation | None  # its latest load seen, in any session, for any reason
    silent: str | None  # why the hook cannot show it loading
    missed: int  # observed sessions that should have loaded it where it never loaded, when flagged

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"file": self.file, "last_seen": self.last.to_json() if self.last else None}
        if self.silent:
            out["hook_silent"] = self.silent
        if self.missed:
            out["never_loaded_in_sessions"] = self.missed
        return out


@dataclass(frozen=True)
class AgentSeen:
    """One agent's observed sessions, for one path."""

    agent: str  # id
    sessions: int
    files: list[FileSeen]
    # Loads seen for this very path (its trigger) of files rulelens says do not load for it.
    unexpected: list[Observation] = field(default_factory=list)
    # The moments the agent's hook is known to miss (ObserveHook.silent_when).
    silent_when: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"sessions": self.sessions, "files": [f.to_json() for f in self.files],
                "unexpected": [o.to_json() for o in self.unexpected],
                "hook_silent_when": list(self.silent_when)}


class Observed:
    """One project's observations, read once, grouped by agent."""

    def __init__(self, observations: Iterable[Observation]) -> None:
        self.by_agent: dict[str, list[Observation]] = {}
        for o in observations:
            self.by_agent.setdefault(o.agent, []).append(o)
        # Per agent, which files load for the paths the sessions read, for the last reading of
        # the agents asked (`reading`): an editor's hovers ask it again and again.
        self.reading: AgentProject | None = None
        self.triggered: dict[str, dict[str, set[str]]] = {}

    @classmethod
    def of(cls, project: AgentProject, git: GitSession | None = None) -> Observed:
        return cls(read_observations(observed_file(project.root, git), project.root))

    def __bool__(self) -> bool:
        return bool(self.by_agent)

    def for_path(self, project: AgentProject, view: PathView) -> dict[str, AgentSeen]:
        """Per present agent with observations: what was seen of the files predicted for the path."""
        out: dict[str, AgentSeen] = {}
        for agent in project.present:
            seen = self.by_agent.get(agent.id)
            if seen and agent.observe_hook is not None:
                out[agent.id] = _agent_seen(self, project, agent, seen, view)
        return out


def _agent_seen(observed: Observed, project: AgentProject, agent: Agent, seen: list[Observation],
                view: PathView) -> AgentSeen:
    hook = agent.observe_hook
    assert hook is not None
    sessions = {o.session for o in seen}
    files: list[FileSeen] = []
    if observed.reading is not project:
        observed.reading, observed.triggered = project, {}
    if agent.id not in observed.triggered:
        observed.triggered[agent.id] = _sessions_by_trigger(project, agent, seen)
    triggered = observed.triggered[agent.id]
    for load in view.loads.get(agent.id, []):
        mine = [o for o in seen if o.file == load.file]
        silent = hook.silence(load.file)
        loaded_in = {o.session for o in mine}
        if load.how == "always":
            should = {o.session for o in seen if o.reason in AT_START}
        else:
            should = triggered.get(load.file, set())
        missed = len(should) if should and not (should & loaded_in) and len(should) >= MIN_SESSIONS else 0
        files.append(FileSeen(load.file, mine[-1] if mine else None, silent, 0 if silent else missed))
    predicted = {load.file for load in view.loads.get(agent.id, [])}
    unexpected: dict[str, Observation] = {}
    for o in seen:
        if o.trigger == view.path and o.file not in predicted:
            unexpected[o.file] = o  # the latest per file
    return AgentSeen(agent.id, len(sessions), files, list(unexpected.values()), hook.silent_when)


def _sessions_by_trigger(project: AgentProject, agent: Agent, seen: list[Observation]) -> dict[str, set[str]]:
    """Per file the agent loads for a path it read, the sessions that read such a path: the
    triggers the hook reported, each asked of rulelens's model once."""
    by_trigger: dict[str, set[str]] = {}
    for o in seen:
        if o.trigger is not None and not o.trigger.startswith("/"):
            by_trigger.setdefault(o.trigger, set()).add(o.session)
    out: dict[str, set[str]] = {}
    for trigger, sessions in by_trigger.items():
        for load in project.view(trigger).loads.get(agent.id, []):
            if load.how != "always":
                out.setdefault(load.file, set()).update(sessions)
    return out


@dataclass(frozen=True)
class FileRecord:
    """One agent file across every observed session, for `map`: how often it loaded, and what
    contradicts rulelens's list of the files loaded for every path (or cannot be seen)."""

    agent: str  # id
    file: str
    loaded_in: int  # sessions it was seen loading in
    sessions: int  # the agent's observed sessions
    last: Observation | None
    note: str | None = None
    contradicts: bool = False

    def to_json(self) -> dict[str, object]:
        return {"agent": self.agent, "file": self.file, "loadedIn": self.loaded_in, "sessions": self.sessions,
                "last": self.last.to_json() if self.last else None, "note": self.note,
                "contradicts": self.contradicts}


def summary(observed: Observed, project: AgentProject,
            everywhere: Iterable[tuple[str, str]]) -> list[FileRecord]:
    """Per agent with observations, each file seen loading and each file rulelens says loads for
    every path (`everywhere`: agent id and file), compared over the agent's sessions."""
    always: dict[str, set[str]] = {}
    for agent_id, file in everywhere:
        always.setdefault(agent_id, set()).add(file)
    out: list[FileRecord] = []
    for agent in project.present:
        seen = observed.by_agent.get(agent.id)
        hook = agent.observe_hook
        if not seen or hook is None:
            continue
        sessions = {o.session for o in seen}
        started = {o.session for o in seen if o.reason in AT_START}
        by_file: dict[str, list[Observation]] = {}
        for o in seen:
            by_file.setdefault(o.file, []).append(o)
        mine = always.get(agent.id, set())
        for file, loads in sorted(by_file.items()):
            at_start = [o for o in loads if o.reason in AT_START]
            odd = bool(at_start) and file not in mine and not file.startswith("/")
            note = ("seen loading at session start, but rulelens does not list it as loaded for every file"
                    if odd else None)
            out.append(FileRecord(agent.id, file, len({o.session for o in loads}), len(sessions), loads[-1],
                                  note, odd))
        for file in sorted(mine - by_file.keys()):
            silent = hook.silence(file)
            if silent:
                out.append(FileRecord(agent.id, file, 0, len(sessions), None, f"not observable: {silent}"))
            elif len(started) >= MIN_SESSIONS:
                out.append(FileRecord(agent.id, file, 0, len(sessions), None,
                                      f"never loaded in {len(started)} observed sessions that started, "
                                      "though rulelens says it loads for every file", True))
            else:
                out.append(FileRecord(agent.id, file, 0, len(sessions), None, "not seen loading yet"))
    return out
