"""Where the pinned releases' binaries are (tests/conformance/<agent>/node_modules), and the
skip that `harness.check_agreement` makes: without the install a test skips, except under CI."""

from __future__ import annotations

import os
from pathlib import Path

from rulelens.agent_runs.compare import Comparison
from tests.conformance import harness

BINARIES: dict[str, str] = {
    "claude-code": "claude_code/node_modules/@anthropic-ai/claude-code-linux-x64/claude",
    "copilot-cli": "copilot_cli/node_modules/@github/copilot-linux-x64/copilot",
    "codex": "codex/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
    "gemini-cli": "gemini_cli/node_modules/@google/gemini-cli/bundle/gemini.js",
    "qwen-code": "qwen_code/node_modules/@qwen-code/qwen-code/cli.js",
}


def binary(agent: str) -> Path:
    """The pinned binary of `agent`; skips (fails under CI) when it is not installed."""
    import pytest

    path = harness.HERE / BINARIES[agent]
    if not path.exists():
        message = f"{agent}'s pinned release is not installed (.ci/install-5-agents.sh): {path}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def with_node_on_path() -> None:
    """Node on PATH, for the agents whose binary is a Node script."""
    exe = harness.node()
    if exe is not None:
        folder = str(Path(exe).parent)
        if folder not in os.environ.get("PATH", "").split(os.pathsep):
            os.environ["PATH"] = folder + os.pathsep + os.environ.get("PATH", "")


def record(comparison: Comparison) -> None:
    """One end-to-end case in the run's closing table ("end to end, cases", one line per agent
    and release, summed over the cases: tests/conftest.py), as CI prints it."""
    o = comparison.observation
    if harness.RECORD is not None:
        harness.RECORD("agreement", (f"{o.agent} {o.version}", "end to end, cases", 1, int(comparison.agree)))
