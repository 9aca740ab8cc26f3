"""Firebender: `.firebender/rules/*.mdc` with Cursor's keys (`description`, `globs`, `alwaysApply`).

No frontmatter means always. Firebender's examples (`"*Kotest.kt, *Test.kt"`) match files in
any folder, so rulelens matches a pattern without a slash against the file name; whether
Firebender does so, or matches the whole path, is not documented.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rulelens.agents.base import GlobAgent, glob_list, literal_prefix, maybe
from rulelens.agents.facts import Fact
from rulelens.agents.model import AgentFile, Decision
from rulelens.agents.readings import IGNORE_CASE, NO_DOTFILES
from rulelens.glob_engines.boost import split_commas
from rulelens.glob_engines.dialects import UNDOCUMENTED, matches
from rulelens.workspace.sorted_paths import starting_with

DOCS = "https://docs.firebender.com/api-reference/rules"
GLOBAL = "https://docs.firebender.com/multi-agent/global-rules"


class Firebender(GlobAgent):
    id: ClassVar[str] = "firebender"
    name: ClassVar[str] = "Firebender"
    facts = (
        Fact("files", "`.firebender/rules/*.mdc`", DOCS, "docs", "2026-12-04"),
        Fact("keys", "`description`, `globs` (a comma-separated string), `alwaysApply`; "
             "no frontmatter: always",
             DOCS, "docs", "2026-12-04"),
        Fact("dialect", "a pattern without a slash matches the file name in any folder (from the docs' "
             "example: `*Kotest.kt, *Test.kt` applies to `ProfileViewModelKotest.kt`, its folder unnamed)",
             GLOBAL, "inferred", "2026-12-04"),
    )
    keys = ("globs",)
    flags = UNDOCUMENTED
    readings = (IGNORE_CASE, NO_DOTFILES)  # the docs' example settles where `*` reaches
    from_root = False
    source = DOCS
    file_globs = (".firebender/rules/*.mdc",)

    def split_value(self, value: str) -> list[str] | None:
        return split_commas(value)

    def discover(self) -> list[str]:
        return self.ctx.scan(".firebender/rules", (".mdc",), recursive=False)

    def pattern_matches(self, pattern: str, path: str) -> bool:
        if "/" not in pattern:
            return matches(pattern, path.rpartition("/")[2], self.flags)
        return matches(pattern, path, self.flags)

    def candidates(self, pattern: str) -> Sequence[str]:
        """A pattern with a slash is matched from the root: only paths below its literal folders."""
        if "/" not in pattern:
            return self.ctx.paths
        return starting_with(self.ctx.paths, literal_prefix(pattern))

    def fields(self, f: AgentFile) -> dict[str, Any]:
        return f.data if f.data is not None else dict(f.loose)

    def patterns(self, f: AgentFile) -> list[str]:
        return glob_list(self.fields(f).get("globs")) or []

    def glob_loads(self, f: AgentFile) -> list[str] | None:
        if not f.has_frontmatter or self.fields(f).get("alwaysApply") in (True, "true"):
            return None
        return self.patterns(f)

    def decide(self, f: AgentFile, path: str) -> Decision:
        fields = self.fields(f)
        if not f.has_frontmatter or fields.get("alwaysApply") in (True, "true"):
            return self.load(f, "always")
        patterns = self.patterns(f)
        hit = self.matching(patterns, path)
        if hit:
            return self.load(f, "glob", hit)
        if fields.get("description"):
            return maybe(f, "agent-decides")
        return None if patterns else maybe(f, "manual")
