"""Qwen Code: `QWEN.md` up the folder chain, and `.qwen/rules/**/*.md` scoped by `paths`.

A rule with `paths` is injected once a tool call reads or edits a matching file; one without
is part of the system prompt from the first request. Every `.md` file below `.qwen/rules/` is a
rule, subfolders included; project rules load only in a trusted workspace. Patterns are matched
with picomatch's defaults (no dotfiles) against workspace-relative paths (rulesync's reading:
Qwen Code's docs do not name the matcher).
"""

from __future__ import annotations

from typing import ClassVar

from rulelens.agents.base import GlobAgent, glob_list, scan
from rulelens.agents.facts import Fact
from rulelens.agents.model import AgentFile, Decision
from rulelens.glob_engines.dialects import picomatch_default_matches
from rulelens.rules.format.globs import split_commas

RULES = ".qwen/rules"
PR = "https://github.com/dyoshikawa/rulesync/pull/1942 (cites QwenLM/qwen-code#3339)"
DOCS = "https://qwenlm.github.io/qwen-code-docs/en/users/features/rules/"


class QwenCode(GlobAgent):
    id: ClassVar[str] = "qwen-code"
    name: ClassVar[str] = "Qwen Code"
    facts = (
        Fact("files", "every `.md` file below `.qwen/rules/`, subfolders included (in a trusted workspace)",
             DOCS, "docs", "2026-12-04"),
        Fact("files", "`QWEN.md` up the folder chain", PR, "third-party", "2026-12-04"),
        Fact("keys", "`paths` (a list of globs) scopes a rule; `description`", DOCS, "docs", "2026-12-04"),
        Fact("loading", "with `paths`: injected once a tool call reads or edits a matching file; without: in "
             "the system prompt from the first request", DOCS, "docs", "2026-12-04"),
        Fact("dialect", "picomatch", PR, "third-party", "2026-12-04"),
    )
    keys = ("paths",)
    source = DOCS
    file_globs = ("**/QWEN.md", ".qwen/rules/**/*.md")

    def pattern_matches(self, pattern: str, path: str) -> bool:
        return picomatch_default_matches(pattern, path)

    def split_value(self, value: str) -> list[str] | None:
        return split_commas(value)

    def discover(self) -> list[str]:
        memory = sorted(self.ctx.named("QWEN.md"),
                        key=lambda p: (p.count("/"), p))
        return [*memory, *scan(self.ctx.root, RULES, (".md",))]

    @staticmethod
    def is_memory(f: AgentFile) -> bool:
        return not f.rel.startswith(RULES + "/")

    def patterns(self, f: AgentFile) -> list[str]:
        if self.is_memory(f) or f.data is None:
            return []
        return glob_list(f.data.get("paths")) or []

    def folder_loads(self, f: AgentFile) -> str | None:
        return (f.rel.rpartition("/")[0] or None) if self.is_memory(f) else None

    def glob_loads(self, f: AgentFile) -> list[str] | None:
        return None if self.is_memory(f) else (self.patterns(f) or None)

    def decide(self, f: AgentFile, path: str) -> Decision:
        if self.is_memory(f):
            folder = f.rel.rpartition("/")[0]
            if not folder:
                return self.load(f, "always")
            return self.load(f, "directory") if path.startswith(folder + "/") else None
        patterns = self.patterns(f)
        if not patterns:
            return self.load(f, "always")
        hit = self.matching(patterns, path)
        return self.load(f, "glob", hit) if hit else None
