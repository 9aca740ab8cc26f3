"""Codex: the `AGENTS.md` chain from the project root down to the working folder.

Source: developers.openai.com/codex/guides/agents-md: in each folder from the root down,
`AGENTS.override.md`, else `AGENTS.md`, at most one file a folder; empty files skipped;
concatenated root first; adding stops once the combined size reaches `project_doc_max_bytes`
(32 KiB by default). rulelens takes the edited file's folder as the working folder.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import ClassVar

from rulelens.agents.base import Agent, problem
from rulelens.agents.facts import Fact
from rulelens.agents.model import AgentFile, Budget, Decision, Load, Maybe
from rulelens.rules.model import Problem
from rulelens.rules.project.sorted_paths import starting_with

NAMES: tuple[str, ...] = ("AGENTS.override.md", "AGENTS.md")


def folder_of(rel: str) -> str:
    return rel.rpartition("/")[0]


class Codex(Agent):
    id: ClassVar[str] = "codex"
    name: ClassVar[str] = "Codex"
    facts: ClassVar[tuple[Fact, ...]] = (
        Fact('files', '`AGENTS.override.md`, else `AGENTS.md`, in each folder from the root down to '
             'the working folder',
             'https://developers.openai.com/codex/guides/agents-md', 'docs', '2026-12-03'),
        Fact('loading', 'the whole chain, root first, once per run; empty files skipped',
             'https://developers.openai.com/codex/guides/agents-md', 'docs', '2026-12-03'),
        Fact('cap', '32 KiB for the chain together (`project_doc_max_bytes`); the rest is cut',
             'https://developers.openai.com/codex/guides/agents-md', 'docs', '2026-12-03'),
    )
    budget: ClassVar[Budget | None] = Budget(
        32 * 1024, "bytes", "path", "developers.openai.com: project_doc_max_bytes, 32 KiB by default", True)
    source = "developers.openai.com/codex/guides/agents-md"

    codes = frozenset(("codex-shadowed",))
    file_globs: ClassVar[tuple[str, ...]] = ("**/AGENTS.md", "**/AGENTS.override.md")
    # The file names of the chain, the first preferred in a folder.
    names: ClassVar[tuple[str, ...]] = NAMES

    def discover(self) -> list[str]:
        found = set(self.ctx.named(*(n for n in self.names if "/" not in n)))  # a file name, no folder
        found.update(n for n in self.names if (self.ctx.root / n).is_file())
        return sorted(found, key=lambda p: (p.count("/"), p))

    def chosen(self) -> dict[str, AgentFile]:
        """The one file Codex uses in each folder."""
        if not hasattr(self, "_chosen"):
            by_folder: dict[str, AgentFile] = {}
            for name in reversed(self.names):  # AGENTS.md first, so the override replaces it
                for f in self.files:
                    if f.rel.rpartition("/")[2] == name and f.text.strip():
                        by_folder[folder_of(f.rel)] = f
            self._chosen = by_folder
        return self._chosen

    def decide(self, f: AgentFile, path: str) -> Decision:
        folder = folder_of(f.rel)
        if self.chosen().get(folder) is not f:
            return None
        return self.load(f, "directory") if not folder or path.startswith(folder + "/") else None

    def coverage_key(self, f: AgentFile) -> tuple[str, ...]:
        return (self.id, f.rel)

    def loads_for(self, f: AgentFile, paths: Sequence[str]) -> set[str]:
        """The paths below the file's folder, when it is the folder's chosen file: no per-path test
        (the first path need not be below it, so the base class's shortcut would miss)."""
        if self.chosen().get(folder_of(f.rel)) is not f:
            return set()
        folder = folder_of(f.rel)
        return set(starting_with(paths, folder + "/") if folder else paths)

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

    def view(self, path: str) -> list[Load | Maybe]:
        """The chain for `path`, root first: only the files of the folders on its way are asked
        (a monorepo has hundreds of `AGENTS.md`, and `check` asks this for every folder)."""
        found: list[tuple[int, int, Load | Maybe]] = []
        parts = path.split("/")[:-1]
        for depth in range(len(parts) + 1):
            for i, f in self._by_folder.get("/".join(parts[:depth]), ()):
                d = self.decide(f, path)
                if d is not None:
                    found.append((d.file.count("/"), i, d))
        return [d for _, _, d in sorted(found, key=lambda t: t[:2])]

    def file_traps(self, f: AgentFile) -> list[Problem]:
        folder = folder_of(f.rel)
        winner = self.chosen().get(folder)
        if winner is not None and winner.rel != f.rel and f.text.strip():
            return [problem(f, 0, "info", "codex-shadowed",
                            f"{self.name} reads `{winner.rel}` in this folder instead, so it never reads "
                            "this file.")]
        return []


def chain_overflow(loads: list[Load], limit: int) -> tuple[int, list[str]]:
    """Total bytes of a root-first chain, and the files Codex cuts or drops past the limit."""
    total = 0
    cut: list[str] = []
    for load in loads:
        if total + load.bytes > limit:
            cut.append(load.file)
        total += load.bytes
    return total, cut
