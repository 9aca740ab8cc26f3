"""Files a rule generator writes (rulesync from `.rulesync/rules/`, ruler from `.ruler/`), known
from the generator's configuration even where the file carries no "generated" notice: a finding
on one is fixed in the generator's source, so it is treated as `generated.py` treats a file that
says it is generated.

rulesync writes each source rule `.rulesync/rules/api/00-api.md` as every target's file of the
same name (`.claude/rules/api/00-api.md`, `.github/instructions/api/00-api.instructions.md`,
`.cursor/rules/api/00-api.mdc`, flattened as `.devin/rules/api-00-api.md`), and a `root: true`
rule as the targets' root files. ruler concatenates `.ruler/*.md` into each agent's root file
(and `ruler_*` files such as `.cursor/rules/ruler_cursor_instructions.mdc`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rulelens.workspace.reads import Reads

# The root files the generators write for their targets (at the folder that holds the source).
ROOT_FILES = frozenset({"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "GEMINI.md", "QWEN.md",
                        ".github/copilot-instructions.md", ".windsurfrules", ".clinerules"})
RULESYNC_CONFIGS = ("rulesync.jsonc", "rulesync.json")
RULESYNC_SOURCE = ".rulesync/rules"
RULER_SOURCE = ".ruler"
RULER_CONFIG = "ruler.toml"
EXTENSIONS = (".instructions.md", ".prompt.md", ".mdc", ".md", ".markdown")
ROOT_KEY = re.compile(r"(?m)^(?:root|localRoot):\s*true\b")


@dataclass(frozen=True)
class Generated:
    """Who writes a file and from what: `tool` ("rulesync"), its configuration as found
    (`rulesync.jsonc`), and the source file or folder where the change belongs."""

    tool: str
    config: str
    source: str


def _stem(rel: str) -> str:
    for ext in EXTENSIONS:
        if rel.lower().endswith(ext):
            return rel[: -len(ext)]
    return rel


def _keys(rel: str) -> list[str]:
    """The names a written file may have been written from: its last segments, joined by `-`
    (rulesync flattens `api/00-api.md` as `api-00-api.md` for some targets) or kept as folders."""
    parts = _stem(rel).split("/")
    tails = [parts[i:] for i in range(1, len(parts))]  # never the agent's own folder (`.claude`)
    return ["/".join(t) for t in tails] + ["-".join(t) for t in tails]


class Generators:
    """What generates which file in the project at `root`, read once."""

    def __init__(self, root: Path, reads: Reads | None = None) -> None:
        self.reads = reads if reads is not None else Reads()
        self.tool: str | None = None
        self.config = ""
        self.source = ""
        self.by_key: dict[str, str] = {}
        self.root_from: str | None = None  # the source that writes the root files
        self._read(root)

    def _read(self, root: Path) -> None:
        reads = self.reads
        config = next((c for c in RULESYNC_CONFIGS if reads.is_file(root / c)), None)
        if config is not None and reads.is_dir(root / RULESYNC_SOURCE):
            self.tool, self.config, self.source = "rulesync", config, RULESYNC_SOURCE
            for current, _dirs, names in reads.walk(root / RULESYNC_SOURCE):
                for name in sorted(names):
                    self._source(root, Path(current) / name)
            return
        ruler = root / RULER_SOURCE
        if reads.is_dir(ruler):
            self.tool, self.source = "ruler", RULER_SOURCE
            self.config = f"{RULER_SOURCE}/{RULER_CONFIG}" if reads.is_file(ruler / RULER_CONFIG) else (
                RULER_CONFIG if reads.is_file(root / RULER_CONFIG) else RULER_SOURCE + "/")
            self.root_from = RULER_SOURCE + "/"

    def _source(self, root: Path, path: Path) -> None:
        """One of rulesync's source rules: the names it writes, and whether it is the root rule."""
        rel = path.relative_to(root).as_posix()
        inner = _stem(rel[len(RULESYNC_SOURCE) + 1:])
        self.by_key.setdefault(inner, rel)
        self.by_key.setdefault(inner.replace("/", "-"), rel)
        if self.root_from is None:
            try:
                head = self.reads.read_text(path)[:2000]
            except (OSError, UnicodeDecodeError):
                return
            if ROOT_KEY.search(head):
                self.root_from = rel

    def of(self, rel: str) -> Generated | None:
        """Who writes `rel`, or None when no generator configured here does."""
        if self.tool is None or rel.startswith(self.source + "/") or rel == self.config:
            return None
        if rel in ROOT_FILES and self.root_from is not None:
            return Generated(self.tool, self.config, self.root_from)
        if self.tool == "ruler":
            return (Generated(self.tool, self.config, self.source + "/")
                    if posixpath.basename(rel).startswith("ruler_") else None)
        if not rel.startswith("."):  # rulesync writes rule files only in the agents' folders
            return None
        source = next((self.by_key[k] for k in _keys(rel) if k in self.by_key), None)
        return None if source is None else Generated(self.tool, self.config, source)


def generated_by(root: Path, reads: Reads | None = None) -> Callable[[str], Generated | None]:
    """`of(rel)` for the project at `root`, what it looks at noted in `reads`."""
    return Generators(root, reads).of
