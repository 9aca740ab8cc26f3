"""What the agents that read one instruction file (or a few) per folder share: Codex's
`AGENTS.md` chain and Gemini CLI's `GEMINI.md` chain. Each file belongs to one folder's link of
the chain, and a path's answer asks only the folders on its way (a monorepo has hundreds of
these files, and `check` asks for every folder). The agents' own rules (which file a folder
takes, when it loads) stay in their modules; neither imports the other."""

from __future__ import annotations

from functools import cached_property
from typing import ClassVar

from rulelens.agents.base import Agent
from rulelens.agents.model import AgentFile


def folder_of(rel: str) -> str:
    """The root-relative folder of `rel` ("" for the root's files)."""
    return rel.rpartition("/")[0]


class FolderChain(Agent):
    """An agent whose files are links of a chain of folders, found by their names."""

    # The file names of the chain, in the agent's order.
    names: ClassVar[tuple[str, ...]]

    def chain_folder(self, rel: str) -> str:
        """The folder whose link of the chain `rel` is."""
        return folder_of(rel)

    @cached_property
    def _by_folder(self) -> dict[str, list[tuple[int, AgentFile]]]:
        """Each file, numbered, under the folder whose chain link it is."""
        out: dict[str, list[tuple[int, AgentFile]]] = {}
        for i, f in enumerate(self.files):
            out.setdefault(self.chain_folder(f.rel), []).append((i, f))
        return out

    def on_the_way(self, path: str) -> list[tuple[str, list[tuple[int, AgentFile]]]]:
        """The folders from the root down to `path`'s, each with its files (numbered)."""
        parts = path.split("/")[:-1]
        folders = ["/".join(parts[:depth]) for depth in range(len(parts) + 1)]
        return [(d, self._by_folder.get(d, [])) for d in folders]

    def coverage_key(self, f: AgentFile) -> tuple[str, ...]:
        return (self.id, f.rel)
