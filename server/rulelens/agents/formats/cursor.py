"""Cursor: `.cursor/rules/**/*.mdc` with `alwaysApply`, `globs` and `description`; `AGENTS.md`
at the root and in subfolders; the legacy `.cursorrules`.

Sources: Cursor's rules docs (`AGENTS.md` as a rule type, the root's and nested ones; the
legacy `.cursorrules`, still read), and as summarised by third parties (skillsaw's
`cursor-rules-valid`, rulesync #2875); documented behaviour not confirmed against Cursor itself,
which cannot run here: one answer for every moment. The matcher is not
documented. Where the sources disagree on unquoted `globs: **/*.ts` (rulesync: invalid YAML;
skillsaw and the rule files Cursor's own editor writes: a comma-separated glob list), rulelens
follows the second: Cursor's permissive reader takes the line as written.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rulelens.agents.base import NOT_CONFIRMED, GlobAgent, glob_list, maybe, nested, problem
from rulelens.agents.facts import Fact
from rulelens.agents.model import AgentFile, Decision
from rulelens.agents.readings import UNDOCUMENTED_READINGS
from rulelens.glob_engines.boost import split_commas
from rulelens.glob_engines.dialects import UNDOCUMENTED
from rulelens.rules.model import Problem

DOCS = "https://www.cursor.com/docs/rules"
LEGACY = ".cursorrules"


class Cursor(GlobAgent):
    id: ClassVar[str] = "cursor"
    name: ClassVar[str] = "Cursor"
    facts = (
        Fact('files', '`.cursor/rules/**/*.mdc`',
             'https://cursor.com/docs/context/rules', 'docs', '2026-12-04'),
        Fact('files', '`AGENTS.md`, a rule type of its own (markdown, no frontmatter): the root\'s for every '
             'file, a nested one for the files below its folder', DOCS, 'docs', '2026-12-07'),
        Fact('files', 'the legacy `.cursorrules` at the root, still read, for every file',
             'https://docs.cursor.com/context/rules (".cursorrules (legacy): still supported, but '
             'deprecated")', 'docs', '2026-12-07'),
        Fact('keys', '`alwaysApply: true` always; `globs` (a list, or a string split on '
             'commas, spaces trimmed); only `description`: the model decides',
             'skillsaw cursor-rules-valid; dyoshikawa/rulesync #2875', 'third-party', '2026-12-03'),
        Fact('dialect', 'matcher not documented: read here as globstar with dotfiles, `*` within one '
             'folder, from the root',
             'https://cursor.com/docs/context/rules', 'inferred', '2026-12-03'),
    )
    keys = ("globs",)
    flags = UNDOCUMENTED
    readings = UNDOCUMENTED_READINGS
    source = "cursor.com/docs/rules via third-party summaries (skillsaw, rulesync #2875)"

    codes = frozenset(("cursor-alwaysapply-string",))
    file_globs = ("**/.cursor/rules/**/*.{mdc,md}", "**/AGENTS.md", LEGACY)
    borrows = ("AGENTS.md",)

    def split_value(self, value: str) -> list[str] | None:
        return split_commas(value)

    def discover(self) -> list[str]:
        """The root's `.cursor/rules`, then those in subfolders: Cursor's docs have
        `backend/.cursor/rules/*.mdc` apply to `backend/`, their globs relative to it."""
        found = self.ctx.scan(".cursor/rules", (".mdc", ".md"))
        for folder in nested(self.ctx, ".cursor/rules"):
            found.extend(self.ctx.scan(folder, (".mdc", ".md")))
        plain = [LEGACY] if self.ctx.is_file(LEGACY) else []
        agents = self.ctx.named("AGENTS.md")
        if self.ctx.is_file("AGENTS.md") and "AGENTS.md" not in agents:
            agents.insert(0, "AGENTS.md")
        return [*plain, *agents, *found]

    @staticmethod
    def is_plain(f: AgentFile) -> bool:
        """An `AGENTS.md` or the legacy `.cursorrules`: markdown that loads by where it is."""
        return f.rel == LEGACY or f.rel.rpartition("/")[2] == "AGENTS.md"

    def glob_base(self, f: AgentFile) -> str:
        if self.is_plain(f):
            return f.rel.rpartition("/")[0]
        return f.rel.partition("/.cursor/rules/")[0] if "/.cursor/rules/" in f.rel else ""

    def folder_loads(self, f: AgentFile) -> str | None:
        return (self.glob_base(f) or None) if self.is_plain(f) else None

    def fields(self, f: AgentFile) -> dict[str, Any]:
        if f.data is not None:
            return f.data
        return dict(f.loose)  # Cursor's permissive reader: each `key: value` line as written

    def patterns(self, f: AgentFile) -> list[str]:
        if self.is_plain(f):
            return []
        return glob_list(self.fields(f).get("globs")) or []

    def nothing_traps(self, f: AgentFile) -> list[Problem]:
        always = self.fields(f).get("alwaysApply")
        return [] if always is True or (always == "true" and f.data is None) else super().nothing_traps(f)

    def glob_loads(self, f: AgentFile) -> list[str] | None:
        always = self.fields(f).get("alwaysApply")
        if self.is_plain(f) or self.glob_base(f) or always is True or (always == "true" and f.data is None):
            return None
        return self.patterns(f)

    def decide(self, f: AgentFile, path: str) -> Decision:
        inner = self.within(f, path)
        if inner is None:
            return None  # a nested folder's rules are for the files below it
        if self.is_plain(f):
            return self.load(f, "directory" if self.glob_base(f) else "always")
        fields = self.fields(f)
        if fields.get("alwaysApply") is True or (fields.get("alwaysApply") == "true" and f.data is None):
            return self.load(f, "directory" if self.glob_base(f) else "always")
        patterns = self.patterns(f)
        hit = self.matching(patterns, inner)
        if hit:
            return self.load(f, "glob", hit)
        if fields.get("description"):
            return maybe(f, "agent-decides")
        return None if patterns else maybe(f, "manual")

    def file_traps(self, f: AgentFile) -> list[Problem]:
        if self.is_plain(f):
            return []  # markdown without frontmatter: nothing of Cursor's own to find
        if f.yaml_error is None:
            out = []
        else:
            globs_line = f.key_lines.get("globs")
            if globs_line is not None and f.yaml_error_line == globs_line:
                out = [problem(f, globs_line, "info", "agent-yaml-invalid",
                               "Strict YAML cannot read this unquoted `globs` line (rulesync #2875 calls it "
                               "invalid); Cursor's own reader takes it as a comma-separated glob list, and "
                               "rulelens follows Cursor. Other tools that read this file will not.")]
            else:
                out = [problem(f, f.yaml_error_line, "warning", "agent-yaml-invalid",
                               f"This frontmatter is not valid YAML ({f.yaml_error}); Cursor reads it line "
                               f"by line, so check each key ({NOT_CONFIRMED}).")]
        value = self.fields(f).get("alwaysApply")
        if isinstance(value, str) and f.data is not None:
            out.append(problem(f, f.line_of("alwaysApply"), "warning", "cursor-alwaysapply-string",
                               f"`alwaysApply` is the string {value!r}, not a boolean, so Cursor does not "
                               f"treat this rule as always applied ({NOT_CONFIRMED}). "
                               "Write `alwaysApply: true`."))
        return out
