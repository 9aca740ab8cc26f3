"""rulelens's Gemini CLI against Gemini CLI's own context loading, from its package."""

from __future__ import annotations

from tests.agents.released import harness
from tests.agents.released.gemini_cli import cases


def test_rulelens_loads_gemini_cli_context_as_its_released_code_does() -> None:
    result = harness.check_agreement("gemini_cli")
    harness.assert_goal(result, cases.EXPLAINED)
