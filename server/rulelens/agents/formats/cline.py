"""Cline: `.clinerules` (a file, or a folder of rules) and `.cline/rules/`, with `paths`.

Source: cline/cline `rule-conditionals.ts`: `paths` must be a list of non-empty strings, else
the conditional is ignored (the rule applies, fail-open); patterns are trimmed; `paths: []`
matches nothing; each pattern is `picomatch(pattern, {dot: true})` on workspace-relative POSIX
paths. Unparseable frontmatter fails open too (Cline's design doc for `paths`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rulelens.agents.base import GlobAgent, literal_prefix, problem
from rulelens.agents.facts import Fact
from rulelens.agents.model import AgentFile, Decision
from rulelens.glob_engines.dialects import picomatch_matches, picomatch_negated
from rulelens.rules.model import Problem

RULE_SUFFIXES = (".md", ".txt")


def _string_list(value: Any) -> list[str] | None:
    """Cline's `isNonEmptyStringArray`: the list when every item is a non-empty string."""
    if isinstance(value, list) and all(isinstance(v, str) and v for v in value):
        return list(value)
    return None


def paths_match(patterns: list[str], path: str) -> list[str]:
    """The `paths` patterns that match `path`; Cline loads the rule when any does."""
    return [p for p in patterns if picomatch_matches(p, path)]


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
    source = "cline/cline rule-conditionals.ts"

    def pattern_matches(self, pattern: str, path: str) -> bool:
        return picomatch_matches(pattern, path)

    codes = frozenset(("cline-paths-empty", "cline-paths-negation", "cline-paths-not-list"))
    file_globs = (".clinerules", ".clinerules/**/*.{md,txt}", ".cline/rules/**/*.{md,txt}")

    def discover(self) -> list[str]:
        single = self.ctx.is_file(".clinerules")
        found = [".clinerules"] if single else self.ctx.scan(".clinerules", RULE_SUFFIXES)
        return [*found, *self.ctx.scan(".cline/rules", RULE_SUFFIXES)]

    def patterns(self, f: AgentFile) -> list[str]:
        items = _string_list((f.data or {}).get("paths"))
        return [p.strip() for p in items if p.strip()] if items else []

    def glob_loads(self, f: AgentFile) -> list[str] | None:
        if f.data is None or "paths" not in f.data or _string_list(f.data["paths"]) is None:
            return None
        return self.patterns(f)

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
        out.extend(self.negation_traps(f, line))
        return out

    def negation_traps(self, f: AgentFile, line: int) -> list[Problem]:
        """A `!` pattern in `paths`: picomatch reads it as "not", and Cline loads the rule when
        any pattern matches, so the `!` pattern adds every other file instead of excluding."""
        out: list[Problem] = []
        for pattern in self.patterns(f):
            negated, rest = picomatch_negated(pattern)
            if not negated:
                continue
            loads = [p for p in self.ctx.paths if picomatch_matches(pattern, p)]
            more = f" and {len(loads) - 3} more" if len(loads) > 3 else ""
            seen = ", ".join(f"`{p}`" for p in loads[:3]) + more
            total = len(self.ctx.paths)
            where = f"it loads for {len(loads)} of {total} files ({seen})" if loads else "it adds no file"
            out.append(problem(
                f, line, "warning", "cline-paths-negation",
                f"Cline loads a rule when any of its `paths` matches, and picomatch reads `{pattern}` as "
                f"\"every file not matching `{rest}`\": a `!` pattern does not exclude in Cline, so {where}. "
                f"{self.negation_fix(rest)}"))
        return out

    def negation_fix(self, excluded: str) -> str:
        """List the folders beside the excluded one instead (Cline has no exclusion)."""
        parent, _, name = literal_prefix(excluded + "/x").rpartition("/")
        if not name:
            return "Remove the `!` pattern and list only the folders the rule is for."
        prefix = f"{parent}/" if parent else ""
        siblings = sorted(d for d in self.ctx.folders
                          if d and d.rpartition("/")[0] == parent and d != f"{prefix}{name}")
        files_here = any(p.rpartition("/")[0] == parent for p in self.ctx.paths)
        fix = ([f"{prefix}*"] if files_here else []) + [f"{d}/**" for d in siblings]
        if not fix:
            return "Remove the `!` pattern and list only the folders the rule is for."
        shown = ", ".join(f'"{g}"' for g in fix[:6]) + (", …" if len(fix) > 6 else "")
        return f"Remove it and list the folders the rule is for instead, e.g. `paths: [{shown}]`."
