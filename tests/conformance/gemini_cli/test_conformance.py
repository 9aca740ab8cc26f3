"""rulelens's Gemini CLI against Gemini CLI's own context loading, from its package: its functions
called on every case (probe.mjs), and the `gemini` command itself on a few (binary.mjs)."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.conformance import harness
from tests.conformance.gemini_cli import cases


def test_rulelens_loads_gemini_cli_context_as_its_released_code_does() -> None:
    result = harness.check_agreement("gemini_cli")
    harness.assert_goal(result, cases.EXPLAINED)


def test_the_gemini_command_loads_what_its_functions_load() -> None:
    """The probe calls Gemini CLI's loading functions as its CLI wires them; the command, run
    against a fake model on loopback, must load the same files at the same moments. Skips as
    `check_agreement` does without the release (fails in CI)."""
    install, exe = harness.installed("gemini_cli"), harness.node()
    if install is None or exe is None:
        message = "gemini_cli's pinned release is not installed (.ci/install-5-agents.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    chosen = cases.binary_cases()
    done = subprocess.run([exe, str(harness.HERE / "gemini_cli/binary.mjs"), str(install)],
                          input=json.dumps([c.as_json() for c in chosen]), capture_output=True, text=True,
                          timeout=600, check=True)
    command = json.loads(done.stdout)
    functions = harness.run_probe("gemini_cli", install, chosen)
    result = harness.compare("gemini_cli (the gemini command)", harness.pinned("gemini_cli")[1], chosen,
                             command, functions)
    print("\n" + result.table())
    if harness.RECORD is not None:  # the run's closing table
        harness.RECORD("agreement", (f"gemini_cli {result.version}", "gemini command, realistic",
                                     len(chosen), result.agree.get("realistic", 0)))
    assert command == functions
    assert command == cases.rulelens_answers(chosen)
