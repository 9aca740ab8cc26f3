"""One launcher per agent whose released binary accepts a model endpoint; `LAUNCHERS` by id."""

from __future__ import annotations

from rulelens.agent_runs.launchers.base import Launcher
from rulelens.agent_runs.launchers.claude_code import ClaudeCode
from rulelens.agent_runs.launchers.codex import Codex
from rulelens.agent_runs.launchers.copilot_cli import CopilotCli
from rulelens.agent_runs.launchers.gemini_cli import GeminiCli
from rulelens.agent_runs.launchers.qwen_code import QwenCode

LAUNCHERS: dict[str, Launcher] = {launcher.agent: launcher for launcher in (
    ClaudeCode(), CopilotCli(), Codex(), GeminiCli(), QwenCode())}
