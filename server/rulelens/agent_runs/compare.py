"""rulelens's prediction for (agent, path, moment) beside what the agent's binary sent.

The prediction is `AgentProject.view(path, on=moment)`; each load becomes a (file, arrival):
loaded at start ("always"), else after the moment's tool result. Every harness starts its agent
at the project root. A load that says when it arrives itself (an `arrived` field) is
taken at its word."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulelens.agent_runs.model import Arrived, Moment, Observation, Seen, after
from rulelens.agents.model import Load
from rulelens.agents.project import AgentProject
from rulelens.rules.repository import RuleRepository


@dataclass(frozen=True)
class Comparison:
    """One case: the observation, the prediction, and what only one of them has."""

    observation: Observation
    predicted: tuple[Seen, ...]
    only_agent: tuple[Seen, ...]
    only_rulelens: tuple[Seen, ...]

    @property
    def agree(self) -> bool:
        return self.observation.error is None and not self.only_agent and not self.only_rulelens

    def to_json(self) -> dict[str, Any]:
        return {"observation": self.observation.to_json(), "agree": self.agree,
                "predicted": [s.to_json() for s in self.predicted],
                "only_agent": [s.to_json() for s in self.only_agent],
                "only_rulelens": [s.to_json() for s in self.only_rulelens]}


def arrival(agent: str, load: Load, moment: Moment) -> Arrived:
    said = getattr(load, "arrived", None)
    if said in ("start", "after-read", "after-edit", "after-create"):
        return said  # type: ignore[no-any-return]
    if load.how == "always":
        return "start"
    return after(moment)


def view_loads(project: AgentProject, agent: str, path: str, moment: Moment) -> list[Load]:
    """The agent's loads for the path at the moment."""
    return list(project.view(path, on=moment).loads.get(agent, []))


def predict(project_root: Path, agent: str, path: str, moment: Moment,
            project: AgentProject | None = None) -> tuple[Seen, ...]:
    """rulelens's answer in the observation's shape."""
    if project is None:
        project = AgentProject(RuleRepository(Path(project_root), writable=False))
    loads = view_loads(project, agent, path, moment)
    return tuple(sorted({Seen(load.file, arrival(agent, load, moment)) for load in loads},
                        key=lambda s: (s.arrived != "start", s.file)))


def compare(observation: Observation, predicted: tuple[Seen, ...],
            project_root: Path | None = None) -> Comparison:
    """What only the agent sent and what only rulelens lists. With `project_root`, a file and a
    symbolic link to it are one file (agents name the file they read, rulelens the path it
    found: `.claude/rules/x.md` linked to `.agents/rules/x.md`)."""
    real = canonical(project_root) if project_root is not None else (lambda rel: rel)
    seen = {(real(s.file), s.arrived): s for s in observation.files}
    said = {(real(s.file), s.arrived): s for s in predicted}
    key = lambda s: (s.arrived != "start", s.file)  # noqa: E731
    return Comparison(observation, predicted,
                      tuple(sorted((s for k, s in seen.items() if k not in said), key=key)),
                      tuple(sorted((s for k, s in said.items() if k not in seen), key=key)))


def canonical(root: Path) -> Callable[[str], str]:
    """A root-relative path to the one its symbolic links lead to, inside the project."""
    base = os.path.realpath(root)

    def real(rel: str) -> str:
        target = os.path.realpath(os.path.join(base, rel))
        return os.path.relpath(target, base) if target.startswith(base + os.sep) else rel

    return real
