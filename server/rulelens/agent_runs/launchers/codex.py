"""OpenAI Codex (`codex exec`), against a fake OpenAI Responses API: a custom model provider in
the empty CODEX_HOME's config.toml (plugins and analytics off, the project trusted), as
tests/conformance/codex/probe.mjs runs it. Codex sends the AGENTS.md files from the project
root down to the folder it starts in, at start only, in a "# AGENTS.md instructions for DIR"
message (unnamed per file: found by their text). It is started at the project's root, as a
user starts it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from rulelens.agent_runs.fake_models.base import Family
from rulelens.agent_runs.fake_models.openai_responses import Responses
from rulelens.agent_runs.launchers.base import NEW_TEXT, Launcher, Start, base_env, edit_arguments
from rulelens.agent_runs.model import Moment, ToolCall
from rulelens.agents.formats.codex import CONFIG, NAMES, project_settings
from rulelens.agents.formats.codex import Codex as CodexModel


class Codex(Launcher):
    agent = CodexModel.id
    command = "codex"
    # CODEX_HOME is the home itself
    user_files = ((".codex/AGENTS.md", "AGENTS.md"), (".codex/AGENTS.override.md", "AGENTS.override.md"))

    def family(self) -> Family:
        return Responses()

    def unnamed(self, rel: str) -> bool:
        return self.chain_file(rel, NAMES)

    def unnamed_in(self, root: Path) -> Callable[[str], bool]:
        """The chain's names and the fallback names the project's `.codex/config.toml` gives
        (`project_doc_fallback_filenames`): a `CLAUDE.md` that is a near-copy of `AGENTS.md`
        (QwikDev/qwik's) is not taken for a file Codex sent unless the project names it."""
        try:
            names = NAMES + project_settings((root / CONFIG).read_text(encoding="utf-8"))[0]
        except (OSError, UnicodeDecodeError):
            names = NAMES
        return lambda rel: self.chain_file(rel, names)

    @staticmethod
    def chain_file(rel: str, names: tuple[str, ...]) -> bool:
        # The chain of folders from the root, never a dot-folder (a generator's .ruler/AGENTS.md);
        # no imports.
        return (rel.rpartition("/")[2] in names
                and not any(part.startswith(".") for part in rel.split("/")[:-1]))

    def tool_call(self, root: Path, path: str, moment: Moment) -> ToolCall:
        if moment == "read":
            return ToolCall("exec_command", {"cmd": f"cat {json.dumps(path)}", "workdir": str(root)})
        if moment == "edit":
            old, new = edit_arguments(root, path)
            patch = f"*** Begin Patch\n*** Update File: {path}\n@@\n-{old}\n+{new}\n*** End Patch\n"
        else:
            body = "".join(f"+{line}\n" for line in NEW_TEXT.splitlines())
            patch = f"*** Begin Patch\n*** Add File: {path}\n{body}*** End Patch\n"
        # Codex offers no apply_patch tool to a model it does not know; it runs the command
        # given to exec_command itself (its own patch code, not a shell's).
        command = f"apply_patch <<'PATCH'\n{patch}PATCH\n"
        return ToolCall("exec_command", {"cmd": command, "workdir": str(root)})

    def start(self, binary: Path, root: Path, home: Path, path: str, moment: Moment, url: str) -> Start:
        (home / "config.toml").write_text("\n".join([
            'model = "fake-model"', 'model_provider = "fake"', 'approval_policy = "never"',
            'sandbox_mode = "danger-full-access"',
            "[features]", "plugins = false", "remote_plugin = false", "plugin_sharing = false",
            "[analytics]", "enabled = false",
            "[model_providers.fake]", 'name = "fake"', f'base_url = "{url}/v1"', 'wire_api = "responses"',
            f"[projects.{json.dumps(str(root))}]", 'trust_level = "trusted"', ""]))
        env = {**base_env(home, path), "CODEX_HOME": str(home), "RUST_LOG": "error"}
        verb = {"read": "Read", "edit": "Edit", "create": "Create"}[moment]
        argv = [str(binary), "exec", "--skip-git-repo-check", "--ephemeral", f"{verb} {path}"]
        return Start(argv, env, root)
