"""rulelens's Copilot CLI against the released Copilot CLI, driven against a fake model."""

from __future__ import annotations

from tests.conformance import harness
from tests.conformance.copilot_cli import cases


def test_rulelens_loads_copilot_cli_instructions_as_the_released_cli_does() -> None:
    result = harness.check_agreement("copilot_cli")
    harness.assert_goal(result, cases.EXPLAINED)
