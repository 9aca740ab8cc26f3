"""rulelens's Codex against the released Codex binary, driven against a fake model."""

from __future__ import annotations

from tests.conformance import harness
from tests.conformance.codex import cases


def test_rulelens_reads_the_agents_md_chain_as_the_released_codex_does() -> None:
    result = harness.check_agreement("codex")
    harness.assert_goal(result, cases.EXPLAINED)
