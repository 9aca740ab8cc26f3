"""Rules by `trigger`: the IDE vocabulary Devin Desktop (Windsurf) and Google Antigravity share.

A rule file's `trigger` says when it loads: `always_on`, `glob` (by its `globs`),
`model_decision` (the model picks it by its description) or `manual` (an @-mention). This is
the named base both agents build on (`TriggerRules`), so that neither agent module imports the
other; each keeps its own files, keys, dialect and facts.
"""

from __future__ import annotations

from typing import Any

from rulelens.agents.base import GlobAgent, maybe
from rulelens.agents.model import AgentFile, Decision


def trigger_decision(agent: GlobAgent, f: AgentFile, trigger: object, path: str,
                     always: str = "always") -> Decision:
    """What a rule's `trigger` loads for `path` (relative to the rule's folder), in the IDE's
    vocabulary that Devin Desktop and Google Antigravity share."""
    if trigger == "always_on":
        return agent.load(f, always)
    if trigger == "glob":
        hit = agent.matching(agent.patterns(f), path)
        return agent.load(f, "glob", hit) if hit else None
    if trigger == "model_decision":
        return maybe(f, "agent-decides")
    return maybe(f, "manual")


def trigger_unpicked_how(trigger: object) -> str:
    """How a rule that no glob loads is used, by its `trigger`: only `model_decision` lets the
    model pick it; `manual`, or no `trigger` at all, waits for an @-mention."""
    return "only when the model picks it" if trigger == "model_decision" else "only when @-mentioned"


def trigger_glob_fields(f: AgentFile, trigger: object) -> tuple[str, ...]:
    """The keys a `trigger` rule needs to load by glob: `globs` alone does nothing without
    `trigger: glob`."""
    return ("globs",) if trigger == "glob" else ("trigger", "globs")


def trigger_glob_loads(agent: GlobAgent, f: AgentFile, trigger: object) -> list[str] | None:
    """`glob_loads` for a `trigger` rule: its globs when glob-triggered, none when it never loads
    by path, None (ask `decide`) when always on."""
    if trigger == "always_on":
        return None
    return agent.patterns(f) if trigger == "glob" else []


class TriggerRules(GlobAgent):
    """What a rule file says with Windsurf's `trigger` (Google Antigravity's rules say the same):
    how it loads when nothing picks it by glob, and the lines that make it load by glob or always."""

    def fields(self, f: AgentFile) -> dict[str, Any]:
        """The frontmatter's keys as the agent reads them."""
        raise NotImplementedError

    def unpicked_how(self, f: AgentFile) -> str:
        return trigger_unpicked_how(self.fields(f).get("trigger"))

    def glob_fields(self, f: AgentFile) -> tuple[str, ...]:
        return trigger_glob_fields(f, self.fields(f).get("trigger"))

    def always_field(self, f: AgentFile) -> str | None:
        return "trigger: always_on"
