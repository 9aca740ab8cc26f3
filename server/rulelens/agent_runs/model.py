"""Plain data of an end-to-end run: what one agent sent its model, and when."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Moment = Literal["read", "edit", "create"]
MOMENTS: tuple[Moment, ...] = ("read", "edit", "create")
# When a file reached the model: in the first request, or first after the tool's result.
Arrived = Literal["start", "after-read", "after-edit", "after-create"]


def after(moment: Moment) -> Arrived:
    """The arrival named for a moment's tool result."""
    names: dict[Moment, Arrived] = {"read": "after-read", "edit": "after-edit", "create": "after-create"}
    return names[moment]


@dataclass(frozen=True)
class Seen:
    """One instruction file (root-relative) and when it reached the model."""

    file: str
    arrived: Arrived

    def to_json(self) -> dict[str, str]:
        return {"file": self.file, "arrived": self.arrived}


@dataclass(frozen=True)
class Observation:
    """What one run of an agent sent its model for (path, moment); `error` when it did not run
    to the end (then `files` holds what was seen before it stopped)."""

    agent: str
    version: str
    path: str
    moment: Moment
    files: tuple[Seen, ...]
    error: str | None = None
    seconds: float = 0.0

    def at(self, arrived: Arrived) -> list[str]:
        return [s.file for s in self.files if s.arrived == arrived]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"agent": self.agent, "version": self.version, "path": self.path,
                               "moment": self.moment, "files": [s.to_json() for s in self.files],
                               "seconds": round(self.seconds, 2)}
        if self.error is not None:
            out["error"] = self.error
        return out

    @staticmethod
    def from_json(data: dict[str, Any]) -> Observation:
        return Observation(data["agent"], data["version"], data["path"], data["moment"],
                           tuple(Seen(s["file"], s["arrived"]) for s in data["files"]),
                           data.get("error"), data.get("seconds", 0.0))


@dataclass(frozen=True)
class ToolCall:
    """The one tool call the fake model makes: the tool's name and its arguments."""

    name: str
    arguments: dict[str, Any]


@dataclass
class Recorded:
    """One request the agent sent: the URL path, its JSON body, and whether it was the main
    conversation (as opposed to a side call: a title, a routing choice, a token count)."""

    url: str
    body: dict[str, Any]
    main: bool
    answered_with_tool: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
