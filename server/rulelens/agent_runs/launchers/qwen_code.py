"""Qwen Code (`qwen -p`), against a fake OpenAI chat completions API (OPENAI_BASE_URL, an
OpenAI key, approvals off, an empty home). Its binary is `cli.js` (run with Node). Files reach
the model as "--- Context from: PATH ---" blocks at start (the path relative to the folder it
started in: the root), with "<!-- Imported from: PATH -->" for what they import, and as
"--- Rule from: PATH ---" blocks (root-relative) beside a tool's result."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rulelens.agent_runs.fake_models.base import Family
from rulelens.agent_runs.fake_models.openai_chat import ChatCompletions
from rulelens.agent_runs.launchers.base import (
    NEW_TEXT,
    Launcher,
    Start,
    base_env,
    edit_arguments,
    node_command,
    node_env,
    texts,
)
from rulelens.agent_runs.launchers.gemini_cli import blocks, without_blocks
from rulelens.agent_runs.model import Moment, ToolCall
from rulelens.agents.formats.qwen_code import QwenCode as QwenCodeModel

BLOCKS = re.compile(r"--- (End of )?(?:Context|Rule) from: ([^\n]+?) ---|<!-- Imported from: ([^\n]+?) -->")


class QwenCode(Launcher):
    agent = QwenCodeModel.id
    command = "qwen"
    user_files = ((".qwen/QWEN.md", ".qwen/QWEN.md"),)

    def family(self) -> Family:
        return ChatCompletions()

    def tool_call(self, root: Path, path: str, moment: Moment) -> ToolCall:
        target = str(root / path)
        if moment == "read":
            return ToolCall("read_file", {"absolute_path": target, "file_path": target})
        if moment == "edit":
            old, new = edit_arguments(root, path)
            return ToolCall("edit", {"file_path": target, "old_string": old, "new_string": new})
        return ToolCall("write_file", {"file_path": target, "content": NEW_TEXT})

    def prepare_home(self, binary: Path, home: Path) -> None:
        (home / ".qwen").mkdir(parents=True, exist_ok=True)
        (home / ".qwen/settings.json").write_text(json.dumps({
            "security": {"auth": {"selectedType": "openai"}},
            "general": {"enableAutoUpdate": False, "disableAutoUpdate": True},
            "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False}}))

    def start(self, binary: Path, root: Path, home: Path, path: str, moment: Moment, url: str) -> Start:
        env = {**base_env(home, path), "OPENAI_API_KEY": "fake", "OPENAI_BASE_URL": f"{url}/v1",
               "OPENAI_MODEL": "fake-model", "QWEN_CODE_TRUST_WORKSPACE": "true",
               **self.quick_start(binary)}
        verb = {"read": "Read", "edit": "Edit", "create": "Create"}[moment]
        argv = [*node_command(binary), "-p", f"{verb} {path}", "--yolo", "--auth-type", "openai"]
        return Start(argv, env, root)

    def quick_start(self, binary: Path) -> dict[str, str]:
        # It loads and reads its settings, then replaces itself (execve) with a Node given a
        # larger heap and this variable (relaunchAppInChildProcess): the run is that process.
        return {"QWEN_CODE_NO_RELAUNCH": "true", **node_env(binary)}

    def version_argv(self, binary: Path) -> list[str]:
        return [*node_command(binary), "--version"]

    def named(self, body: Mapping[str, Any]) -> list[str]:
        return [name for text in texts(body.get("messages") or []) for name in blocks(text, BLOCKS)]

    def without_named(self, text: str) -> str:
        return without_blocks(text)
