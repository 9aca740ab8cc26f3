"""One launcher per agent whose released binary accepts a model endpoint; `LAUNCHERS` by id."""

from __future__ import annotations

from rulelens.agent_runs.launchers.base import Launcher
from rulelens.agent_runs.launchers.claude_code import ClaudeCode
from rulelens.agent_runs.launchers.copilot_cli import CopilotCli

LAUNCHERS: dict[str, Launcher] = {launcher.agent: launcher for launcher in (ClaudeCode(), CopilotCli())}
