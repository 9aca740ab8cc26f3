"""What every agent's launcher says: how to start its binary headless against the fake model,
which tool call stands for each moment, and how its requests name the files they carry."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rulelens.agent_runs.fake_models.base import Family
from rulelens.agent_runs.model import Moment, ToolCall
from rulelens.workspace import stat_stamp

NEW_TEXT = "export const created = true;\n"


@dataclass(frozen=True)
class Start:
    """One run's command: argv, the whole environment, the folder it starts in."""

    argv: list[str]
    env: dict[str, str]
    cwd: Path


class Launcher:
    """One agent. `agent` is rulelens's id for it; `family` the API its model speaks."""

    agent: ClassVar[str]
    # The command the agent installs on PATH (`rulelens verify` finds it there).
    command: ClassVar[str]
    # The user's global instruction files the agent reads from its home, each with where the same
    # file goes in the scratch home this launcher gives it (`verify --with-user-files`).
    user_files: ClassVar[tuple[tuple[str, str], ...]] = ()
    # Whether files the requests carry without a name are found by their text
    # (extraction.fingerprints); Claude Code names every file it sends.
    fingerprints: ClassVar[bool] = True

    def family(self) -> Family:
        raise NotImplementedError

    def tool_call(self, root: Path, path: str, moment: Moment) -> ToolCall:
        """The one call the fake model makes: read `path`, edit it, or create it."""
        raise NotImplementedError

    def start(self, binary: Path, root: Path, home: Path, path: str, moment: Moment, url: str) -> Start:
        raise NotImplementedError

    def prepare_home(self, binary: Path, home: Path) -> None:
        """Anything the empty home needs before the run (a shared unpack cache)."""

    def version_argv(self, binary: Path) -> list[str]:
        return [str(binary), "--version"]

    def quick_start(self, binary: Path) -> dict[str, str]:
        """Variables that spare a start work the run does not need (a relaunch, a compile),
        for the runs and for `--version` alike."""
        return {}

    def unnamed(self, rel: str) -> bool:
        """Whether the agent may send `rel` without naming it: fingerprints test these files
        alone, so a copy of a root file elsewhere (a generator's source, another agent's copy)
        is not taken for it. Files the agent names are never limited."""
        return True

    def unnamed_in(self, root: Path) -> Callable[[str], bool]:
        """`unnamed` for the project at `root`, for an agent whose project settings say which
        files it reads (Codex's fallback names)."""
        return self.unnamed

    def without_named(self, text: str) -> str:
        """The request's text without the blocks that name their file, so that a file holding
        the same text as a named one is not found by its text too."""
        return text

    def named(self, body: Mapping[str, Any]) -> list[str]:
        """The files a request names in the agent's own wrapper text (absolute or root-relative,
        as the agent writes them), in order."""
        return []


def edit_arguments(root: Path, path: str) -> tuple[str, str]:
    """An exact text of the file's to replace, and its replacement: its first non-blank line
    (a whole line, so it is unique more often), or the whole file when it has none."""
    try:
        text = (root / path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "", NEW_TEXT
    lines = [line for line in text.splitlines() if line.strip()]
    for line in lines:
        if text.count(line) == 1:
            return line, line + " // edited"
    return text, text + "\n// edited\n"


VERSION = re.compile(r"\d+\.\d+\.\d+(?:[-.][0-9A-Za-z.]+)?")


def version_in(text: str) -> str:
    found = VERSION.search(text)
    return found.group(0) if found else text.strip()[:40] or "unknown"


def base_env(home: Path, path: str) -> dict[str, str]:
    """An environment with nothing of the user's: PATH alone, an empty HOME, no colour."""
    import os

    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"), "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_DATA_HOME": str(home / ".local/share"), "XDG_STATE_HOME": str(home / ".local/state"),
            "NO_COLOR": "1", "TERM": "dumb", "LANG": "C.UTF-8"}


def texts(value: object) -> list[str]:
    """Every string inside a JSON value, in order."""
    out: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return out


def shared_cache(binary: Path, name: str) -> Path:
    """A folder outside any home kept across runs for what a binary unpacks of itself (never
    settings or credentials), one per binary file (its path, size and time)."""
    import hashlib
    import tempfile

    seed = f"{binary.resolve()}:{stat_stamp.stamp(binary)}".encode()
    key = hashlib.blake2b(seed, digest_size=8).hexdigest()
    folder = Path(tempfile.gettempdir()) / "rulelens-agent-cache" / f"{name}-{key}"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def node_env(binary: Path) -> dict[str, str]:
    """For a binary that is a Node script: Node's compile cache in a folder kept across runs
    (`NODE_COMPILE_CACHE`, V8's code for the script's files, keyed by their text), so that each
    run does not parse and compile megabytes of bundle again (a third of a start)."""
    if binary.suffix not in (".js", ".mjs", ".cjs"):
        return {}
    return {"NODE_COMPILE_CACHE": str(shared_cache(binary, "node-compile"))}


def node_command(binary: Path) -> list[str]:
    """How to start a binary that is a Node script (`cli.js`): with the `node` on PATH."""
    import shutil

    if binary.suffix in (".js", ".mjs", ".cjs"):
        return [shutil.which("node") or "node", str(binary)]
    return [str(binary)]
