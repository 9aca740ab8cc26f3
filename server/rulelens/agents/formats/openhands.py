"""OpenHands: skills (`.agents/skills/<name>/SKILL.md`, legacy `.openhands/microagents/*.md`)
scoped by `paths`, and the root `AGENTS.md`.

A skill with `paths` (a list, or one string split on commas) is added once per conversation
when the agent reads, edits or creates a matching file; `paths` beats `triggers`. Patterns are
gitignore-style and case-sensitive against workspace-relative POSIX paths. A `SKILL.md` without
`paths` is advertised by its description and invoked by the agent (or on a keyword); a legacy
`.openhands/microagents/` file without a trigger loads in full.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rulelens.agents.base import GlobAgent, glob_list, literal_prefix, maybe
from rulelens.agents.facts import Fact
from rulelens.agents.model import AgentFile, Decision
from rulelens.glob_engines.boost import split_commas
from rulelens.glob_engines.dialects import UNDOCUMENTED, gitignore_matches
from rulelens.workspace.sorted_paths import starting_with

DOCS = "https://docs.openhands.dev/overview/skills/path"


class OpenHands(GlobAgent):
    id: ClassVar[str] = "openhands"
    name: ClassVar[str] = "OpenHands"
    facts = (
        Fact("files", "`.agents/skills/<name>/SKILL.md`, legacy `.openhands/microagents/`; root `AGENTS.md`",
             "https://docs.openhands.dev/overview/skills", "docs", "2026-12-04"),
        Fact("keys", "`paths` (a list or a comma string) beats `triggers`", DOCS, "docs", "2026-12-04"),
        Fact("loading", "a `SKILL.md` without `paths`: advertised, the agent invokes it; a legacy skill "
             "without a trigger: always", "https://docs.openhands.dev/overview/skills", "docs", "2026-12-04"),
        Fact("loading", "when the agent reads, edits or creates a matching file, once per conversation",
             DOCS, "docs", "2026-12-04"),
        Fact("dialect", "gitignore-style, case-sensitive, workspace-relative POSIX paths", DOCS, "docs",
             "2026-12-04"),
    )
    keys = ("paths",)
    flags = UNDOCUMENTED
    from_root = False  # gitignore patterns without a slash match at any depth
    source = DOCS
    borrows = ("AGENTS.md",)
    file_globs = ("AGENTS.md", ".agents/skills/*/SKILL.md", ".openhands/microagents/**/*.md")

    def pattern_matches(self, pattern: str, path: str) -> bool:
        return gitignore_matches(pattern, path)

    def candidates(self, pattern: str) -> Sequence[str]:
        """gitignore anchors a pattern with a slash before its end at the root: only paths below
        its literal folders can match; one without (`*.ts`, `docs/`) matches at any depth."""
        body = pattern.strip()
        if "/" not in body.rstrip("/") or body.startswith("."):
            return self.ctx.paths
        return starting_with(self.ctx.paths, literal_prefix(body))

    def split_value(self, value: str) -> list[str] | None:
        return split_commas(value)

    def discover(self) -> list[str]:
        root = ["AGENTS.md"] if self.ctx.is_file("AGENTS.md") else []
        skills = [p for p in self.ctx.scan(".agents/skills", ("SKILL.md",))
                  if p.count("/") == 3 and p.endswith("/SKILL.md")]
        return [*root, *skills, *self.ctx.scan(".openhands/microagents", (".md",))]

    def patterns(self, f: AgentFile) -> list[str]:
        return glob_list((f.data or {}).get("paths")) or []

    def glob_loads(self, f: AgentFile) -> list[str] | None:
        if f.rel == "AGENTS.md":
            return None
        patterns = self.patterns(f)
        if patterns or (f.data or {}).get("triggers") or f.rel.endswith("/SKILL.md"):
            return patterns  # [] for a skill the agent invokes: it loads for no path by itself
        return None

    def decide(self, f: AgentFile, path: str) -> Decision:
        if f.rel == "AGENTS.md":
            return self.load(f, "always")
        data = f.data or {}
        patterns = self.patterns(f)
        if patterns:
            hit = self.matching(patterns, path)
            return self.load(f, "glob", hit) if hit else None
        if data.get("triggers") or f.rel.endswith("/SKILL.md"):
            return maybe(f, "agent-decides")  # a keyword, or the agent invokes it by its description
        return self.load(f, "always")  # a legacy skill without a trigger loads in full
