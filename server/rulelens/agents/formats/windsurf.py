"""Windsurf / Devin: `.windsurf/rules/*.md`, `.devin/rules/*.md` by `trigger`; `.windsurfrules`.

Sources: docs.windsurf.com (memories & rules: the four triggers, 12,000 characters per rule
file; an older English page said 6,000). That the Devin CLI needs `globs` as a YAML list, and
that a bare `globs: **/*.ts` line is accepted, rest on third-party material (skillsaw's
`devin-rules-valid`): documented behaviour not confirmed. The matcher is not documented.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rulelens.agents.base import NOT_CONFIRMED, glob_list, nested, problem
from rulelens.agents.facts import Fact
from rulelens.agents.formats.triggers import TriggerRules, trigger_decision, trigger_glob_loads
from rulelens.agents.model import AgentFile, Budget, Decision
from rulelens.agents.readings import UNDOCUMENTED_READINGS
from rulelens.glob_engines.boost import split_commas
from rulelens.glob_engines.dialects import UNDOCUMENTED
from rulelens.rules.model import Problem

LEGACY = ".windsurfrules"


def _as_list(value: str) -> str:
    return "[" + ", ".join(f'"{p}"' for p in glob_list(value) or []) + "]"


class Windsurf(TriggerRules):
    id: ClassVar[str] = "windsurf"
    # Windsurf was renamed Devin Desktop; the id stays `windsurf` so JSON keys, codes
    # (`windsurf-globs-string`) and configurations written against it keep working.
    name: ClassVar[str] = "Devin Desktop"
    facts = (
        Fact('files', '`.devin/rules/*.md` (preferred), `.windsurf/rules/*.md` '
             '(fallback), `.windsurfrules` (legacy)',
             'https://docs.devin.ai/cli/extensibility/rules.md', 'docs', '2026-12-04'),
        Fact('keys', '`trigger`: `always_on`, `glob` (by `globs`), `model_decision`, `manual`',
             'https://docs.windsurf.com/windsurf/cascade/memories', 'docs', '2026-12-03'),
        Fact('keys', 'the Devin CLI needs `globs` as a YAML list; a string fails to load',
             'stbenjam/skillsaw@a3eb177 devin-rules-valid', 'third-party', '2026-12-04'),
        Fact('dialect', 'matcher not documented',
             'https://docs.windsurf.com/windsurf/cascade/memories', 'inferred', '2026-12-03'),
        Fact('cap', '12,000 characters per rule file',
             'https://docs.windsurf.com/windsurf/cascade/memories', 'docs', '2026-12-03'),
    )
    keys = ("globs",)
    flags = UNDOCUMENTED
    readings = UNDOCUMENTED_READINGS
    budget = Budget(12_000, "characters", "file", "docs.windsurf.com: rule files are limited to 12,000 "
                    "characters each", True)
    source = "docs.windsurf.com memories & rules; skillsaw devin-rules-valid (third-party)"

    codes = frozenset(("windsurf-globs-string",))
    file_globs = (".windsurfrules", "**/.windsurf/rules/*.md", "**/.devin/rules/*.md")

    def split_value(self, value: str) -> list[str] | None:
        return split_commas(value)

    def discover(self) -> list[str]:
        # `.devin/rules` is preferred; `.windsurf/rules` is read only when it is absent.
        found = (self.ctx.scan(".devin/rules", (".md",), recursive=False)
                 or self.ctx.scan(".windsurf/rules", (".md",), recursive=False))
        # Rules discovery also reads the rule folders of subfolders; each applies below its folder.
        for marker in (".windsurf/rules", ".devin/rules"):
            for folder in nested(self.ctx, marker):
                found.extend(self.ctx.scan(folder, (".md",), recursive=False))
        if self.ctx.is_file(LEGACY):
            found.insert(0, LEGACY)
        return found

    def glob_base(self, f: AgentFile) -> str:
        for marker in ("/.windsurf/rules/", "/.devin/rules/"):
            if marker in f.rel:
                return f.rel.partition(marker)[0]
        return ""

    def fields(self, f: AgentFile) -> dict[str, Any]:
        if f.data is not None:
            return f.data
        # A bare `globs: **/*.ts` is read as written even though strict YAML refuses it.
        loose = f.loose.get("globs")
        return {"trigger": f.loose.get("trigger"), "globs": loose} if loose is not None else {}

    def patterns(self, f: AgentFile) -> list[str]:
        return glob_list(self.fields(f).get("globs")) or []

    def glob_loads(self, f: AgentFile) -> list[str] | None:
        if f.rel == LEGACY or self.glob_base(f):
            return None
        return trigger_glob_loads(self, f, self.fields(f).get("trigger"))

    def decide(self, f: AgentFile, path: str) -> Decision:
        if f.rel == LEGACY:
            return self.load(f, "always")
        inner = self.within(f, path)
        if inner is None:
            return None  # a subfolder's rules are for the files below it
        return trigger_decision(self, f, self.fields(f).get("trigger"), inner,
                                "directory" if self.glob_base(f) else "always")

    def on_invalid_yaml(self) -> str:
        return ("Devin Desktop then reads no `trigger`, so the rule is only used when @-mentioned "
                f"({NOT_CONFIRMED}). "
                "Quote the values, and write `globs` as a list.")

    def file_budget_note(self, f: AgentFile) -> str | None:
        if len(f.text) <= 12_000:
            return None
        return f"{f.rel} has {len(f.text):,} characters; Devin Desktop reads the first 12,000 of a rule file"

    def file_traps(self, f: AgentFile) -> list[Problem]:
        out: list[Problem] = []
        bare_globs = f.yaml_error is not None and f.key_lines.get("globs") == f.yaml_error_line
        if f.yaml_error is not None and not bare_globs:
            out.extend(super().file_traps(f))
        if isinstance(self.fields(f).get("globs"), str):
            out.append(problem(
                f, f.line_of("globs"), "info", "windsurf-globs-string",
                "`globs` is a single string: Devin Desktop accepts it. The Devin CLI's rule format is not "
                "documented: if it needs a list, as skillsaw reports (\"expected a sequence\"), it does not "
                "load this rule. A YAML list works in both: "
                f"`globs: {_as_list(self.fields(f)['globs'])}`."))
        if self.file_budget_note(f):
            out.append(problem(f, 0, "warning", "agent-budget-exceeded",
                               f"This rule file has {len(f.text):,} characters; Devin Desktop reads at most "
                               f"12,000 per rule file and cuts the rest. Split it."))
        return out
