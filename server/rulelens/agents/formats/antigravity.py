"""Google Antigravity: root `AGENTS.md`, and `.agents/rules/*.md` by `trigger` and `globs`.

The IDE's triggers are Windsurf's (formats/triggers.py): `always_on`, `glob` (by `globs`), `model_decision`,
`manual`. The matcher is not documented.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rulelens.agents.base import glob_list
from rulelens.agents.facts import Fact
from rulelens.agents.formats.triggers import TriggerRules, trigger_decision, trigger_glob_loads
from rulelens.agents.model import AgentFile, Decision
from rulelens.agents.readings import UNDOCUMENTED_READINGS
from rulelens.glob_engines.boost import split_commas
from rulelens.glob_engines.dialects import UNDOCUMENTED

RS = "dyoshikawa/rulesync@cfebcd7 docs/reference/supported-tools.md (Antigravity note); microsoft/apm #1984"


class Antigravity(TriggerRules):
    id: ClassVar[str] = "antigravity"
    name: ClassVar[str] = "Google Antigravity"
    facts = (
        Fact("files", "root `AGENTS.md` (then `CONTEXT.md`, `GEMINI.md`); `.agents/rules/*.md`", RS,
             "third-party", "2026-12-04"),
        Fact("files", "`.agents/rules/` is read; `.agent/rules/` only when it is absent (a Google reply: "
             "backward support for `.agent`)", "https://discuss.ai.google.dev/t/new-folder-for-rules/126165",
             "third-party", "2026-12-04"),
        Fact("keys", "`trigger`: `always_on`, `glob` (by `globs`), `manual`, `model_decision`; `description`",
             RS, "third-party", "2026-12-04"),
        Fact("keys", "a rule without `trigger` is not loaded on its own (used when @-mentioned): two "
             "projects that ran the IDE added `trigger: always_on` for that reason",
             "rtk-ai/rtk #2916; Smart-AI-Memory/attune-ai #1444", "third-party", "2026-12-05"),
        Fact("dialect", "matcher not documented", RS, "inferred", "2026-12-04"),
    )
    keys = ("globs",)
    flags = UNDOCUMENTED
    readings = UNDOCUMENTED_READINGS
    source = RS
    borrows = ("AGENTS.md", "GEMINI.md")
    file_globs = ("AGENTS.md", "CONTEXT.md", "GEMINI.md", ".agents/rules/*.md", ".agent/rules/*.md")

    def split_value(self, value: str) -> list[str] | None:
        return split_commas(value)

    def discover(self) -> list[str]:
        names = ("AGENTS.md", "CONTEXT.md", "GEMINI.md")  # the first found is read
        root = next((n for n in names if self.ctx.is_file(n)), None)
        rules = (self.ctx.scan(".agents/rules", (".md",), recursive=False)
                 or self.ctx.scan(".agent/rules", (".md",), recursive=False))  # the older folder
        return [*([root] if root else []), *rules]

    def fields(self, f: AgentFile) -> dict[str, Any]:
        return f.data if f.data is not None else dict(f.loose)

    def patterns(self, f: AgentFile) -> list[str]:
        if "/" not in f.rel:
            return []
        return glob_list(self.fields(f).get("globs")) or []

    def glob_loads(self, f: AgentFile) -> list[str] | None:
        if "/" not in f.rel:
            return None
        return trigger_glob_loads(self, f, self.fields(f).get("trigger"))

    def decide(self, f: AgentFile, path: str) -> Decision:
        if "/" not in f.rel:
            return self.load(f, "always")
        return trigger_decision(self, f, self.fields(f).get("trigger"), path)
