"""Gemini CLI (`gemini -p`), against a fake Gemini API (GOOGLE_GEMINI_BASE_URL, API-key auth,
the folder trusted, an empty home with usage statistics and updates off), as
tests/conformance/gemini_cli/binary.mjs runs it. Its binary is `bundle/gemini.js` (a Node
script: Node must be on PATH). Files reach the model as "--- Context from: PATH ---" blocks,
at start in the first request and just in time inside a tool's response."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rulelens.agent_runs.fake_models.base import Family
from rulelens.agent_runs.fake_models.gemini import Gemini
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
from rulelens.agent_runs.model import Moment, ToolCall
from rulelens.agents.formats.gemini_cli import GeminiCli as GeminiCliModel

# "--- Context from: ABS ---" opens a file; "<!-- Imported from: REL -->" inside it is a file
# it imports, relative to the importing file's folder.
BLOCKS = re.compile(r"--- (End of )?Context from: ([^\n]+?) ---|<!-- Imported from: ([^\n]+?) -->")
# A named block whole, from its opening line to its closing one (what it imports is inside it).
WHOLE = re.compile(r"--- (Context|Rule) from: ([^\n]+?) ---.*?--- End of \1 from: \2 ---", re.S)


def without_blocks(text: str) -> str:
    """`text` without its named blocks: a copy of a named file elsewhere in the project (a
    rulesync or ruler output of the same `AGENTS.md`) is not found by its text too."""
    return WHOLE.sub(" ", text)


class GeminiCli(Launcher):
    agent = GeminiCliModel.id
    command = "gemini"
    user_files = ((".gemini/GEMINI.md", ".gemini/GEMINI.md"),)  # GEMINI_CLI_HOME is the home

    def family(self) -> Family:
        return Gemini()

    def tool_call(self, root: Path, path: str, moment: Moment) -> ToolCall:
        target = str(root / path)
        if moment == "read":
            return ToolCall("read_file", {"file_path": target})
        if moment == "edit":
            old, new = edit_arguments(root, path)
            return ToolCall("replace", {"file_path": target, "old_string": old, "new_string": new,
                                        "instruction": "Edit the file."})
        return ToolCall("write_file", {"file_path": target, "content": NEW_TEXT})

    def prepare_home(self, binary: Path, home: Path) -> None:
        (home / ".gemini").mkdir(parents=True, exist_ok=True)
        (home / ".gemini/settings.json").write_text(json.dumps({
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
            "privacy": {"usageStatisticsEnabled": False}}))

    def start(self, binary: Path, root: Path, home: Path, path: str, moment: Moment, url: str) -> Start:
        env = {**base_env(home, path), "GEMINI_CLI_HOME": str(home), "GEMINI_CLI_TRUST_WORKSPACE": "true",
               "GEMINI_API_KEY": "fake", "GOOGLE_GEMINI_BASE_URL": url,
               "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(home / "system-settings.json"),
               "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(home / "system-defaults.json"),
               **self.quick_start(binary)}
        verb = {"read": "Read", "edit": "Edit", "create": "Create"}[moment]
        return Start([*node_command(binary), "-p", f"{verb} {path}", "--yolo"], env, root)

    def quick_start(self, binary: Path) -> dict[str, str]:
        # bundle/gemini.js loads its 16 MB bundle, then starts itself again with this variable
        # set, only to raise Node's heap limit (getSpawnConfig): the run is that second process.
        return {"GEMINI_CLI_NO_RELAUNCH": "true", **node_env(binary)}

    def version_argv(self, binary: Path) -> list[str]:
        return [*node_command(binary), "--version"]

    def named(self, body: Mapping[str, Any]) -> list[str]:
        return [name for text in texts([body.get("contents"), body.get("systemInstruction")])
                for name in blocks(text)]

    def without_named(self, text: str) -> str:
        return without_blocks(text)


def blocks(text: str, pattern: re.Pattern[str] = BLOCKS) -> list[str]:
    """The files a text's context blocks name, and the files each imports (resolved against
    the importing file's folder), in order."""
    out: list[str] = []
    current = ""
    for m in pattern.finditer(text):
        if m.group(2) is not None:
            current = "" if m.group(1) else m.group(2)
            if not m.group(1):
                out.append(current)
        elif current:
            out.append(os.path.normpath(os.path.join(os.path.dirname(current), m.group(3))))
    return out
