"""rulelens's Copilot in VS Code against VS Code's own instruction loading, from its released
code (VS Code 1.117.0, as @codingame/monaco-vscode-api 36.2.7 ships it)."""

from __future__ import annotations

from tests.conformance import harness
from tests.conformance.copilot_vscode import cases


def test_rulelens_loads_copilot_instructions_as_vscode_does() -> None:
    result = harness.check_agreement("copilot_vscode")
    harness.assert_goal(result, cases.EXPLAINED)
