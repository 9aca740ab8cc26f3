"""GitHub Copilot CLI (`copilot -p`), against a fake OpenAI chat completions API
(COPILOT_PROVIDER_BASE_URL, offline mode), as tests/conformance/copilot_cli/probe.mjs runs it.

Its files reach the model three ways: the root's instruction files as `<custom_instruction>`
text in the system prompt (unnamed: found by their text), the files those import as
`<imported_custom_instruction source="ABS">`, and files a tool's path attaches as a
"Custom instructions from REL." reminder after the tool's result."""

from __future__ import annotations

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
    shared_cache,
    texts,
)
from rulelens.agent_runs.model import Moment, ToolCall
from rulelens.agents.formats.copilot_cli import CopilotCli as CopilotCliModel

IMPORTED = re.compile(r'<imported_custom_instruction source="([^"]+)">')
# A skipped import is a tag alone (`<imported_custom_instruction source="…" skipped="already-loaded" />`):
# no file's text, and not a block.
NAMED_BLOCKS = re.compile(r'<imported_custom_instruction source="[^"]*">.*?</imported_custom_instruction>'
                          r"|<imported_custom_instruction [^>]*/>"
                          r"|<system_reminder>\s*Custom instructions from .*?</system_reminder>", re.S)
ATTACHED = re.compile(r"Custom instructions from ([^\n]+?)\. Apply these")


class CopilotCli(Launcher):
    agent = CopilotCliModel.id
    command = "copilot"
    user_files = ((".copilot/copilot-instructions.md", ".copilot/copilot-instructions.md"),)

    def family(self) -> Family:
        return ChatCompletions()

    def unnamed(self, rel: str) -> bool:
        # What it pastes into the system prompt unnamed: the root's instruction files and its
        # rules without a pattern. Files below the root arrive named ("Custom instructions
        # from"), as imports do.
        return (rel in ("AGENTS.md", "CLAUDE.md", "GEMINI.md", ".github/copilot-instructions.md")
                or rel.startswith((".github/instructions/", ".claude/rules/")))

    def tool_call(self, root: Path, path: str, moment: Moment) -> ToolCall:
        target = str(root / path)
        if moment == "read":
            return ToolCall("view", {"path": target})
        if moment == "edit":
            old, new = edit_arguments(root, path)
            return ToolCall("edit", {"path": target, "old_str": old, "new_str": new})
        return ToolCall("create", {"path": target, "file_text": NEW_TEXT})

    def prepare_home(self, binary: Path, home: Path) -> None:
        # The binary unpacks its package (about 235 MB) under ~/.cache/copilot/pkg on each
        # start in an empty home (about 5 s); that one folder is shared between runs.
        (home / ".cache/copilot").mkdir(parents=True, exist_ok=True)
        shared = shared_cache(binary, "copilot-pkg")
        (home / ".cache/copilot/pkg").symlink_to(shared, target_is_directory=True)

    def start(self, binary: Path, root: Path, home: Path, path: str, moment: Moment, url: str) -> Start:
        # COPILOT_OFFLINE "true": 1.0.102 reads "1" as not offline (its log then says no "offline
        # mode", and it tries api.github.com through the closed proxy).
        env = {**base_env(home, path), "COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": f"{url}/v1",
               "COPILOT_PROVIDER_API_KEY": "fake", "COPILOT_PROVIDER_MODEL_ID": "fake-model",
               "COPILOT_MODEL": "fake-model"}
        verb = {"read": "view", "edit": "edit", "create": "create"}[moment]
        # --disable-client-telemetry: else its exit waits out a 1.5 s budget for its metrics
        # client (CAFE), which "1" for COPILOT_OFFLINE did not switch off.
        argv = [str(binary), "-p", f"{verb} {path}", "--allow-all-tools", "--no-auto-update",
                "--disable-client-telemetry"]
        return Start(argv, env, root)

    def without_named(self, text: str) -> str:
        return NAMED_BLOCKS.sub("\n", text)

    def named(self, body: Mapping[str, Any]) -> list[str]:
        out: list[str] = []
        for text in texts(body.get("messages") or []):
            out.extend(m.group(1) for m in IMPORTED.finditer(text))
            out.extend(m.group(1) for m in ATTACHED.finditer(text))
        return out
