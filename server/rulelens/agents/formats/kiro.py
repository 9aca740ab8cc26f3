"""Kiro: `.kiro/steering/*.md` by `inclusion` (`always`, `fileMatch`, `manual`, `auto`).

Sources: kiro.dev steering docs as summarised by third parties, and kirodotdev/Kiro #11095 (a
comma-separated `fileMatchPattern` string silently matches nothing) and #9176; documented
behaviour not confirmed. No frontmatter, or no `inclusion`, means always. The matcher is not
documented.
"""

from __future__ import annotations

from typing import ClassVar

from rulelens.agents.base import NOT_CONFIRMED, GlobAgent, glob_list, maybe, problem
from rulelens.agents.facts import Fact
from rulelens.agents.model import AgentFile, Decision
from rulelens.agents.readings import UNDOCUMENTED_READINGS
from rulelens.glob_engines.dialects import UNDOCUMENTED
from rulelens.rules.model import Problem


class Kiro(GlobAgent):
    id: ClassVar[str] = "kiro"
    name: ClassVar[str] = "Kiro"
    facts = (
        Fact('files', '`.kiro/steering/*.md`; `AGENTS.md` anywhere in the workspace (CLI 2.18.0, IDE '
             '1.0.309)',
             'dyoshikawa/rulesync@cfebcd7 docs/reference/supported-tools.md (Kiro '
                  'note)', 'third-party', '2026-12-04'),
        Fact('keys', '`inclusion`: `always` (default), `fileMatch` by `fileMatchPattern` (string or '
             'list), `manual`, `auto` by `description`',
             'https://kiro.dev/docs/steering/', 'docs', '2026-12-04'),
        Fact('keys', 'a comma-separated `fileMatchPattern` string is one pattern and matches nothing',
             'kirodotdev/Kiro #11095', 'third-party', '2026-12-03'),
        Fact('dialect', 'matcher not documented',
             'https://kiro.dev/docs/steering/', 'inferred', '2026-12-03'),
    )
    keys = ("fileMatchPattern",)
    flags = UNDOCUMENTED
    readings = UNDOCUMENTED_READINGS
    source = "kiro.dev steering docs (third-party summaries); kirodotdev/Kiro #11095, #9176"

    borrows = ("AGENTS.md",)
    codes = frozenset(("kiro-pattern-comma",))
    file_globs = (".kiro/steering/*.md", "**/AGENTS.md")

    def discover(self) -> list[str]:
        agents = self.ctx.named("AGENTS.md")
        if self.ctx.is_file("AGENTS.md") and "AGENTS.md" not in agents:
            agents.insert(0, "AGENTS.md")
        return [*self.ctx.scan(".kiro/steering", (".md",), recursive=False), *agents]

    def patterns(self, f: AgentFile) -> list[str]:
        value = f.data.get("fileMatchPattern") if f.data is not None else None
        return glob_list(value, split=False) or []  # a string is one pattern, commas and all

    def folder_loads(self, f: AgentFile) -> str | None:
        if f.rel.rpartition("/")[2] == "AGENTS.md" and not f.rel.startswith(".kiro/"):
            return f.rel.rpartition("/")[0] or None
        return None

    def glob_loads(self, f: AgentFile) -> list[str] | None:
        if f.rel.rpartition("/")[2] == "AGENTS.md" and not f.rel.startswith(".kiro/"):
            return None
        inclusion = (f.data or {}).get("inclusion", "always")
        if inclusion == "fileMatch":
            return self.patterns(f)
        return [] if inclusion in ("manual", "auto") else None

    def decide(self, f: AgentFile, path: str) -> Decision:
        if f.rel.rpartition("/")[2] == "AGENTS.md" and not f.rel.startswith(".kiro/"):
            # AGENTS.md anywhere in the workspace. Whether a nested one is for its folder or for
            # everything is not documented: rulelens reads it as every other agent does, for its folder.
            folder = f.rel.rpartition("/")[0]
            if not folder:
                return self.load(f, "always")
            return self.load(f, "directory") if path.startswith(folder + "/") else None
        inclusion = (f.data or {}).get("inclusion", "always")
        if inclusion == "fileMatch":
            hit = self.matching(self.patterns(f), path)
            return self.load(f, "glob", hit) if hit else None
        if inclusion == "manual":
            return maybe(f, "manual")
        if inclusion == "auto":
            return maybe(f, "agent-decides")
        return self.load(f, "always")

    def on_invalid_yaml(self) -> str:
        return ("Kiro then sees no `inclusion` and includes this file always, the default "
                f"({NOT_CONFIRMED}). "
                "Quote the values.")

    def nothing_traps(self, f: AgentFile) -> list[Problem]:
        value = (f.data or {}).get("fileMatchPattern")
        if isinstance(value, str) and _comma_outside_braces(value):
            return []  # kiro-pattern-comma says it better
        return super().nothing_traps(f)

    def file_traps(self, f: AgentFile) -> list[Problem]:
        out = super().file_traps(f)
        value = (f.data or {}).get("fileMatchPattern")
        if isinstance(value, str) and _comma_outside_braces(value):
            parts = ", ".join(f'"{p.strip()}"' for p in value.split(",") if p.strip())
            out.append(problem(
                f, f.line_of("fileMatchPattern"), "warning", "kiro-pattern-comma",
                f"Kiro takes the `fileMatchPattern` string `{value}` as one pattern, commas included, so it "
                f"matches nothing and this steering file never loads (kirodotdev/Kiro #11095). "
                f"Write a list: `fileMatchPattern: [{parts}]`."))
        return out


def _comma_outside_braces(value: str) -> bool:
    depth = 0
    for ch in value:
        if ch == "{":
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
        elif ch == "," and depth == 0:
            return True
    return False
