"""Another agent's rule file in the editor: the glob under the cursor in its frontmatter key
(`paths`, `applyTo`, `globs`, `fileMatchPattern`) with what it matches under that agent's own
matcher, and completion's counts. (Its findings as typed are the core's `check_document`.)

The owner comes from the root's current reading (`DocumentSnapshot.owner`); the text is the
snapshot's (the open buffer, else the disk).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lsprotocol import types

from rulelens.agents.base import Agent
from rulelens.agents.editing import glob_items, matching_paths
from rulelens.lsp.session import Session
from rulelens.lsp.wire.positions import lines_of, to_code_points
from rulelens.lsp.workspace.snapshot import DocumentSnapshot
from rulelens.rules.model import GlobItem


@dataclass(frozen=True)
class GlobFacts:
    """A glob in an agent's file and what it matches under that agent's matcher."""

    agent: Agent
    item: GlobItem
    lines: list[str]
    matched: list[str]
    total: int


def glob_at(server: Session, target: DocumentSnapshot, pos: types.Position) -> GlobFacts | None:
    agent = target.owner()
    if agent is None:
        return None
    lines = lines_of(target.text)
    line, col = to_code_points(server.codec, lines, pos)
    for item in glob_items(agent, lines):
        if item.line == line and item.start_col <= col <= item.end_col:
            return GlobFacts(agent, item, lines, matching_paths(agent, item.text.strip(), rel=target.rel),
                             len(agent.ctx.paths))
    return None


def counter(agent: Agent) -> Callable[[str], int]:
    """How many project files a completion offer matches under `agent`'s matcher (a folder
    offer `dir/` counts as `dir/**`)."""
    def count(glob: str) -> int:
        return len(matching_paths(agent, glob + "**" if glob.endswith("/") else glob))
    return count
