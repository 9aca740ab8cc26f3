"""The codes of other agents' traps (docs/agents.md), beside Boost's format's (rules/check/codes.py).

The project configuration names codes (rules/check/config.py); with this list a misspelt one is
an error. Each agent declares its own codes; tests/docs/test_codes_documented.py fails when a
finding's code is declared nowhere.
"""

from __future__ import annotations

from rulelens.agents.base import SHARED_CODES
from rulelens.agents.registry import AGENT_IDS, AGENTS
from rulelens.rules.check.codes import CODES

AGENT_CODES = SHARED_CODES.union(*(a.codes for a in AGENTS))


def known_codes() -> frozenset[str]:
    """Every code `check` and the language server can report."""
    return frozenset(CODES) | AGENT_CODES


def known_agents() -> tuple[str, ...]:
    """Every agent id the configuration's `agents` list may name."""
    return AGENT_IDS
