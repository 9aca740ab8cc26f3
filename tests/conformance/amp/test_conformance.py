"""rulelens's Amp against Amp's own guidance-file discovery, from its released binary."""

from __future__ import annotations

from tests.conformance import harness
from tests.conformance.amp import cases


def test_rulelens_loads_amp_guidance_as_its_released_code_does() -> None:
    result = harness.check_agreement("amp")
    harness.assert_goal(result, cases.EXPLAINED)
