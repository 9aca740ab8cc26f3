"""rulelens's Qwen Code against Qwen Code's own memory and rules loading, from its package."""

from __future__ import annotations

from tests.conformance import harness
from tests.conformance.qwen_code import cases


def test_rulelens_loads_qwen_code_rules_as_its_released_code_does() -> None:
    result = harness.check_agreement("qwen_code")
    harness.assert_goal(result, cases.EXPLAINED)
