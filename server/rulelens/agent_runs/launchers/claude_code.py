"""Claude Code (`claude -p`), against a fake Anthropic Messages API.

Its Read, Edit and Write tools run without a prompt when `--allowedTools` names them; every
instruction file reaches the model in a `Contents of <absolute path>` block: the ones loaded at
start in the first user message, the ones a tool's path attaches beside the tool's result."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rulelens.agent_runs.fake_models.anthropic import Messages
from rulelens.agent_runs.fake_models.base import Family
from rulelens.agent_runs.launchers.base import NEW_TEXT, Launcher, Start, base_env, edit_arguments, texts
from rulelens.agent_runs.model import Moment, ToolCall
from rulelens.agents.formats.claude_code import ClaudeCode as ClaudeCodeModel

# "Contents of /abs/CLAUDE.md (project instructions, checked into the codebase):" at start,
# "Contents of /abs/src/CLAUDE.md:" beside a tool's result.
CONTENTS = re.compile(r"(?:^|\n)Contents of (/[^\n]*?)(?: \([^()\n]*\))?:\n")
TOOL = {"read": "Read", "edit": "Edit", "create": "Write"}


class ClaudeCode(Launcher):
    agent = ClaudeCodeModel.id
    command = "claude"
    # CLAUDE_CONFIG_DIR is HOME/.claude
    user_files = ((".claude/CLAUDE.md", ".claude/CLAUDE.md"), (".claude/rules", ".claude/rules"))
    fingerprints = False

    def family(self) -> Family:
        return Messages()

    def tool_call(self, root: Path, path: str, moment: Moment) -> ToolCall:
        target = str(root / path)
        if moment == "read":
            return ToolCall("Read", {"file_path": target})
        if moment == "edit":
            old, new = edit_arguments(root, path)
            return ToolCall("Edit", {"file_path": target, "old_string": old, "new_string": new})
        return ToolCall("Write", {"file_path": target, "content": NEW_TEXT})

    def start(self, binary: Path, root: Path, home: Path, path: str, moment: Moment, url: str) -> Start:
        env = {**base_env(home, path), "ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "sk-ant-rulelens-fake",
               "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
               "CLAUDE_CONFIG_DIR": str(home / ".claude")}
        verb = {"read": "Read", "edit": "Edit", "create": "Create"}[moment]
        # The endpoint again as a flag's settings, which win over the project's: a project whose
        # `.claude/settings.json` sets `env.ANTHROPIC_BASE_URL` (Azure/karpenter-provider-azure's
        # proxy on localhost:4141) would send the run elsewhere and end before any request.
        pinned = json.dumps({"env": {"ANTHROPIC_BASE_URL": url}})
        argv = [str(binary), "-p", f"{verb} {path}", "--allowedTools", TOOL[moment], "--settings", pinned]
        return Start(argv, env, root)

    def named(self, body: Mapping[str, Any]) -> list[str]:
        out: list[str] = []
        for text in texts(body.get("messages") or []):
            out.extend(m.group(1) for m in CONTENTS.finditer(text))
        return out

