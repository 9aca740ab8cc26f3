"""Cline: `.clinerules` (a file, or a folder of rules) and `.cline/rules/`, with `paths`.

Source: cline/cline `rule-conditionals.ts`: `paths` must be a list of non-empty strings, else
the conditional is ignored (the rule applies, fail-open); patterns are trimmed; `paths: []`
matches nothing; each pattern is `picomatch(pattern, {dot: true})` on workspace-relative POSIX
paths. Unparseable frontmatter fails open too (Cline's design doc for `paths`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rulelens.agents.base import GlobAgent, problem, scan
from rulelens.agents.dialects import PICOMATCH_DOT, picomatch_matches
from rulelens.agents.facts import Fact
from rulelens.agents.model import AgentFile, Decision
from rulelens.rules.model import Problem

RULE_SUFFIXES = (".md", ".txt")


def _string_list(value: Any) -> list[str] | None:
    """Cline's `isNonEmptyStringArray`: the list when every item is a non-empty string."""
    if isinstance(value, list) and all(isinstance(v, str) and v for v in value):
        return list(value)
    return None


class Cline(GlobAgent):
    id: ClassVar[str] = "cline"
    name: ClassVar[str] = "Cline"
    facts = (
        Fact('files', '`.clinerules` (a file or a folder) and `.cline/rules/`',
             'cline/cline '
                  'src/core/context/instructions/user-instructions/rule-conditionals.ts',
             'code', '2026-12-03'),
        Fact('keys', '`paths` must be a list of non-empty strings, else ignored (the rule loads '
             'always); `paths: []` never',
             'cline/cline '
                  'src/core/context/instructions/user-instructions/rule-conditionals.ts',
             'code', '2026-12-03'),
        Fact('dialect', '`picomatch(pattern, {dot: true})` on workspace-relative POSIX paths',
             'cline/cline '
                  'src/core/context/instructions/user-instructions/rule-conditionals.ts',
             'code', '2026-12-03'),
    )
    keys = ("paths",)
    flags = PICOMATCH_DOT
    source = "cline/cline rule-conditionals.ts"

    def pattern_matches(self, pattern: str, path: str) -> bool:
        return picomatch_matches(pattern, path)

    file_globs = (".clinerules", ".clinerules/**/*.{md,txt}", ".cline/rules/**/*.{md,txt}")

    def discover(self) -> list[str]:
        root = self.ctx.root
        single = (root / ".clinerules").is_file()
        found = [".clinerules"] if single else scan(root, ".clinerules", RULE_SUFFIXES)
        return [*found, *scan(root, ".cline/rules", RULE_SUFFIXES)]

    def patterns(self, f: AgentFile) -> list[str]:
        items = _string_list((f.data or {}).get("paths"))
        return [p.strip() for p in items if p.strip()] if items else []

    def decide(self, f: AgentFile, path: str) -> Decision:
        if f.data is None or "paths" not in f.data:
            return self.load(f, "always")
        if _string_list(f.data["paths"]) is None:
            return self.load(f, "always")  # fail-open: Cline ignores a `paths` it cannot use
        patterns = self.patterns(f)
        hit = self.matching(patterns, path)
        return self.load(f, "glob", hit) if hit else None

    def on_invalid_yaml(self) -> str:
        return "Cline then ignores the frontmatter, so this rule loads for every request. Quote the globs."

    def file_traps(self, f: AgentFile) -> list[Problem]:
        out = super().file_traps(f)
        if f.data is None or "paths" not in f.data:
            return out
        value = f.data["paths"]
        line = f.line_of("paths")
        if _string_list(value) is None:
            if isinstance(value, str):
                shape = "a bare string"
            elif isinstance(value, list):
                shape = "a list with an empty or non-string item"
            else:
                shape = f"a {type(value).__name__}"
            fix = f"`paths:\\n  - \"{value}\"`" if isinstance(value, str) else "a list of quoted globs"
            out.append(problem(
                f, line, "warning", "cline-paths-not-list",
                f"`paths` is {shape}; Cline ignores a `paths` that is not a list of non-empty strings, so "
                f"this rule loads for every request. Write {fix}."))
        elif not self.patterns(f):
            out.append(problem(f, line, "info", "cline-paths-empty",
                               "`paths` is empty, so Cline never loads this rule. Remove `paths` to load it "
                               "always, or list the globs it is for."))
        return out
