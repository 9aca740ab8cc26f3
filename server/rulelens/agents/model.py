"""Plain data of the per-agent view: what an agent loads for a path, and why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

How = Literal["always", "glob", "directory"]
# "start-folder": a folder's file the agent reads only when it is started in that folder or below
# (Codex and Qwen Code, which read their folder chain once, at start, from the folder they start in).
MaybeHow = Literal["agent-decides", "manual", "start-folder"]
# What the agent does with the path when it loads files for it: reads it (the default
# everywhere), edits it where it exists, or creates it. Agents' answers can differ per moment
# (a tool that refuses the file, a tool that loads no rules).
Moment = Literal["read", "edit", "create"]
MOMENTS: tuple[Moment, ...] = ("read", "edit", "create")
DEFAULT_MOMENT: Moment = "read"


@dataclass(frozen=True)
class Load:
    """A file the agent loads on its own for an edit of the path."""

    file: str
    how: How
    patterns: tuple[str, ...]
    bytes: int
    # For a file that loads because another imports it (`@path`): the importer and the import's
    # 1-based line, "CLAUDE.md:12".
    via: str | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"file": self.file, "how": self.how, "patterns": list(self.patterns),
                                  "bytes": self.bytes}
        if self.via is not None:
            out["imported_by"] = self.via
        return out


@dataclass(frozen=True)
class Maybe:
    """A file the model may pick by its description, that loads only when asked for, or only
    when the agent is started in its folder (`how`)."""

    file: str
    how: MaybeHow
    # For a file another one imports (`@path`), and that loads as its importer may: "QWEN.md:3".
    via: str | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"file": self.file, "how": self.how}
        if self.via is not None:
            out["imported_by"] = self.via
        return out


Decision = Load | Maybe | None


@dataclass(frozen=True)
class Budget:
    """A documented cap on what an agent loads; `per` says what the cap counts over."""

    limit: int
    unit: Literal["bytes", "characters", "lines"]
    per: Literal["path", "file"]
    source: str
    confirmed: bool


@dataclass
class AgentFile:
    """One agent's rule file as that agent's reader sees it.

    `data` is the strict YAML mapping (None without frontmatter or when it does not parse);
    `loose` is a line-by-line `key: value` reading, which is what permissive readers
    (Cursor's, Windsurf's for `globs`) fall back to.
    """

    agent: str
    rel: str
    text: str
    size: int
    has_frontmatter: bool = False
    data: dict[str, Any] | None = None
    yaml_error: str | None = None
    yaml_error_line: int = 0
    loose: dict[str, str | list[str]] = field(default_factory=dict)
    key_lines: dict[str, int] = field(default_factory=dict)
    body: str = ""
    heading: str | None = None
    head: str = ""  # the frontmatter's text, as written

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, 0)


def named_together(names: list[str]) -> str:
    """Agents' names as a sentence lists them: "A", "A and B", "A, B and C"."""
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)
