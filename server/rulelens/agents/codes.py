"""The codes of other agents' traps (docs/agents.md), beside Boost's format's (rules/check/codes.py).

The project configuration names codes (rules/check/config.py); with this list a misspelt one is
an error. tests/unit/test_codes_documented.py fails when a finding's code is missing here.
"""

from __future__ import annotations

from rulelens.rules.check.codes import CODES

AGENT_CODES = frozenset({
    "agent-budget-exceeded", "agent-glob-matches-nothing", "agent-yaml-invalid", "agents-disagree",
    "cline-paths-empty", "cline-paths-negation", "cline-paths-not-list", "codex-shadowed",
    "continue-globs-comma",
    "copilot-applyto-elsewhere", "copilot-no-applyto", "cursor-alwaysapply-string",
    "kiro-pattern-comma", "windsurf-globs-string",
})


def known_codes() -> frozenset[str]:
    """Every code `check` and the language server can report."""
    return frozenset(CODES) | AGENT_CODES
