"""Claude Code: `.claude/rules/**/*.md` with `paths`, and the `CLAUDE.md` files up the tree.

Sources: the Claude Code memory docs (code.claude.com) as quoted in anthropics/claude-code
#13905 and #22170; user reports for unparseable frontmatter (#17204). The matcher library is not
documented, so globs are matched picomatch-style with dotfiles, from the project root.
"""

from __future__ import annotations

from typing import ClassVar

from rulelens.agents.base import NOT_CONFIRMED, GlobAgent, glob_list, maybe, scan
from rulelens.agents.facts import Fact
from rulelens.agents.model import AgentFile, Budget, Decision
from rulelens.glob_engines.dialects import UNDOCUMENTED
from rulelens.rules.format.globs import split_commas
from rulelens.rules.format.reading import split_lines
from rulelens.rules.model import Problem

RULES = ".claude/rules"
OWN_INSTRUCTIONS = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")
SKILLS = ".claude/skills"


class ClaudeCode(GlobAgent):
    id: ClassVar[str] = "claude-code"
    name: ClassVar[str] = "Claude Code"
    facts = (
        Fact('files', '`.claude/rules/**/*.md` (recursive, symlinks followed); `CLAUDE.md` up the '
             'folder chain',
             'https://code.claude.com/docs/en/memory', 'docs', '2026-12-03'),
        Fact('files', '`.claude/skills/*/SKILL.md`: with `paths`, conditional like a rule; '
             'without, the model picks it by `description`',
             'anthropics/claude-code@5cfc0a1 CHANGELOG.md (2.1.84: "Rules and skills `paths:` frontmatter '
             'now accepts a YAML list"; 2.1.217)', 'docs', '2026-12-04'),
        Fact('keys', '`paths`: a YAML list (2.1.84), or one string split on commas',
             'anthropics/claude-code@5cfc0a1 CHANGELOG.md (2.1.84)', 'docs', '2026-12-04'),
        Fact('loading', 'no `paths`: at session start; with `paths`: when the agent reads a matching file',
             'https://code.claude.com/docs/en/memory', 'docs', '2026-12-03'),
        Fact('loading', 'unparseable frontmatter: the rule loads unconditionally',
             'anthropics/claude-code #17204 (user reports)', 'third-party', '2026-12-03'),
        Fact('loading', '`AGENTS.md` at the root when the project has no `CLAUDE.md`, `.claude/CLAUDE.md` or '
             '`CLAUDE.local.md` of its own (2.1.277); nested '
             '`AGENTS.md` on read unless a `CLAUDE.md` is beside it',
             'raw.githubusercontent.com/anthropics/claude-code/v2.1.277/mods/agents-md/README.md '
             '(`claude-md-or-agents-md`, the default)', 'docs', '2026-12-04'),
        Fact('dialect', 'matcher not documented: picomatch-style with dotfiles, from the root',
             'https://code.claude.com/docs/en/memory', 'inferred', '2026-12-03'),
        Fact('cap', 'docs recommend a `CLAUDE.md` under about 200 lines',
             'https://code.claude.com/docs/en/memory', 'docs', '2026-12-03'),
    )
    keys = ("paths",)
    flags = UNDOCUMENTED
    budget = Budget(200, "lines", "file", "Claude Code docs: keep CLAUDE.md under about 200 lines", True)
    source = "code.claude.com memory docs; anthropics/claude-code #17204, #22170"

    borrows = ("AGENTS.md",)
    file_globs = ("**/CLAUDE.md", ".claude/rules/**/*.md", ".claude/skills/*/SKILL.md", "**/AGENTS.md")

    def split_value(self, value: str) -> list[str] | None:
        return split_commas(value)

    def discover(self) -> list[str]:
        memory = self.ctx.named("CLAUDE.md")
        if (self.ctx.root / "CLAUDE.md").is_file() and "CLAUDE.md" not in memory:
            memory.insert(0, "CLAUDE.md")
        # No instruction file of the project's own at the root: the root AGENTS.md instead, and
        # nested ones on read. `.claude/CLAUDE.md` and `CLAUDE.local.md` count as its own too.
        if not any(n in memory or (self.ctx.root / n).is_file() for n in OWN_INSTRUCTIONS):
            claimed = {p.rpartition("/")[0] for p in memory}
            memory += [p for p in self.ctx.named("AGENTS.md") if p.rpartition("/")[0] not in claimed]
            if (self.ctx.root / "AGENTS.md").is_file() and "AGENTS.md" not in memory:
                memory.insert(0, "AGENTS.md")
        skills = [p for p in scan(self.ctx.root, SKILLS, ("SKILL.md",)) if p.count("/") == 3]
        return [*memory, *scan(self.ctx.root, RULES, (".md",)), *skills]

    @staticmethod
    def is_memory(f: AgentFile) -> bool:
        return not f.rel.startswith((RULES + "/", SKILLS + "/"))

    @staticmethod
    def is_skill(f: AgentFile) -> bool:
        return f.rel.startswith(SKILLS + "/")

    def patterns(self, f: AgentFile) -> list[str]:
        if self.is_memory(f) or f.data is None:
            return []
        return glob_list(f.data.get("paths")) or []

    def folder_loads(self, f: AgentFile) -> str | None:
        if not self.is_memory(f):
            return None
        return f.rel.rpartition("/")[0].removesuffix(".claude").rstrip("/") or None

    def glob_loads(self, f: AgentFile) -> list[str] | None:
        if self.is_memory(f):
            return None
        if f.data is None or "paths" not in f.data:
            return [] if self.is_skill(f) else None  # picked by its description, else always
        return glob_list(f.data["paths"])  # None: it loads always (decide's fallback)

    def decide(self, f: AgentFile, path: str) -> Decision:
        if self.is_memory(f):
            folder = f.rel.rpartition("/")[0].removesuffix(".claude").rstrip("/")
            if not folder:
                return self.load(f, "always")
            return self.load(f, "directory") if path.startswith(folder + "/") else None
        if self.is_skill(f) and (f.data is None or "paths" not in f.data):
            return maybe(f, "agent-decides")  # a skill without `paths` is picked by its description
        if f.data is None or "paths" not in f.data:
            return self.load(f, "always")  # no paths, or frontmatter it cannot parse: unconditional
        patterns = glob_list(f.data["paths"])
        if patterns is None:
            return self.load(f, "always")
        hit = self.matching(patterns, path)
        return self.load(f, "glob", hit) if hit else None

    def on_invalid_yaml(self) -> str:
        return ("It then loads this rule unconditionally, at every session start, not only for its "
                f"`paths` (users report this; {NOT_CONFIRMED}). Quote each glob: `- \"src/**/*.ts\"`.")

    def file_budget_note(self, f: AgentFile) -> str | None:
        lines = len(split_lines(f.text))
        if not self.is_memory(f) or lines <= 200:
            return None
        return f"{f.rel} has {lines} lines; Claude Code's docs recommend a CLAUDE.md under about 200"

    def file_traps(self, f: AgentFile) -> list[Problem]:
        out = super().file_traps(f)
        if self.is_memory(f) and self.budget is not None:
            lines = len(split_lines(f.text))
            if lines > self.budget.limit:
                name = f.rel.rpartition("/")[2]
                which = (f"This {name}" if name.startswith("CLAUDE") else
                         f"Claude Code reads this {name} in place of a CLAUDE.md; it")
                out.append(Problem(f.rel, 0, "info", "agent-budget-exceeded",
                                   f"{which} has {lines} lines; Claude Code's docs recommend a CLAUDE.md "
                                   "under about 200, since it loads in full every session. Move parts "
                                   "into `.claude/rules/` files with `paths`."))
        return out


