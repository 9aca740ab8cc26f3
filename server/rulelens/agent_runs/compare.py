"""rulelens's prediction for (agent, path, moment) beside what the agent's binary sent.

The prediction is `AgentProject.view(path, on=moment)` where the model knows moments, else
`view(path)`; each load becomes a (file, arrival): loaded at start ("always", or a folder's
file for an agent started in the path's folder), else after the moment's tool result. A load
that says when it arrives itself (an `arrived` field) is taken at its word."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulelens.agent_runs.model import Arrived, Moment, Observation, Seen, after
from rulelens.agents.formats.codex import Codex
from rulelens.agents.model import Load
from rulelens.agents.project import AgentProject
from rulelens.rules.repository import RuleRepository

# Agents whose harness starts them in the folder of the path (the folder's files are loaded
# at start by them, as rulelens reads agents that read a folder chain).
STARTED_IN_PATH_FOLDER: frozenset[str] = frozenset({Codex.id})


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
    if load.how == "always" or (load.how == "directory" and agent in STARTED_IN_PATH_FOLDER):
        return "start"
    return after(moment)


def view_loads(project: AgentProject, agent: str, path: str, moment: Moment) -> list[Load]:
    """The agent's loads for the path at the moment, asked as the model allows."""
    view = project.view
    moments = "on" in inspect.signature(view).parameters
    answer = view(path, on=moment) if moments else view(path)  # type: ignore[call-arg]
    return list(answer.loads.get(agent, []))


def predict(project_root: Path, agent: str, path: str, moment: Moment,
            project: AgentProject | None = None) -> tuple[Seen, ...]:
    """rulelens's answer in the observation's shape."""
    if project is None:
        project = AgentProject(RuleRepository(Path(project_root), writable=False))
    loads = view_loads(project, agent, path, moment)
    return tuple(sorted({Seen(load.file, arrival(agent, load, moment)) for load in loads},
                        key=lambda s: (s.arrived != "start", s.file)))


def compare(observation: Observation, predicted: tuple[Seen, ...]) -> Comparison:
    seen = set(observation.files)
    said = set(predicted)
    key = lambda s: (s.arrived != "start", s.file)  # noqa: E731
    return Comparison(observation, predicted, tuple(sorted(seen - said, key=key)),
                      tuple(sorted(said - seen, key=key)))
