"""Where MCP clients read a project's servers, and registering `rulelens mcp` there.

`.mcp.json` (Claude Code) is written by `init --mcp` whether it exists or not; the other clients'
project files are written only where the project has them, since a file created for a client
nobody here uses is clutter. A client whose folder is here without its file is named, so that
the person knows what was not done.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulelens.rules.check.plugin_map import MANIFEST as PLUGIN_MANIFEST
from rulelens.rules.model import RuleError
from rulelens.rules.write.atomic import write_atomic
from rulelens.setup.json_config import JsonFile, object_at

SERVER_NAME = "rulelens"
COMMAND: dict[str, Any] = {"command": "rulelens", "args": ["mcp"]}
# Keys of an old entry that describe another transport; everything else (env, ...) is kept.
_TRANSPORT_KEYS = {"command", "args", "type", "url", "headers"}
RERUN = "rulelens init --mcp"


@dataclass(frozen=True)
class McpConfig:
    """One client's project file: where it is, who reads it, the table of servers, the entry."""

    rel: str
    client: str
    key: str
    entry: dict[str, Any]


CLAUDE = McpConfig(".mcp.json", "Claude Code", "mcpServers", COMMAND)
# Each client's documented project file (docs/mcp.md has the table and the sources).
OTHERS = (
    McpConfig(".cursor/mcp.json", "Cursor", "mcpServers", COMMAND),
    McpConfig(".vscode/mcp.json", "VS Code", "servers", {"type": "stdio", **COMMAND}),
    McpConfig(".gemini/settings.json", "Gemini CLI", "mcpServers", COMMAND),
    McpConfig(".codex/config.toml", "Codex CLI", "mcp_servers", COMMAND),
)


def _toml(text: str) -> dict[str, Any]:
    from rulelens.rules.format.toml_text import TomlError, toml_loads

    try:
        return toml_loads(text)
    except TomlError as exc:
        raise RuleError(f"not valid TOML ({exc})") from None


def _servers(root: Path, config: McpConfig) -> dict[str, Any] | None:
    """The file's table of servers as read; None when the file is missing or unreadable."""
    path = root / config.rel
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    try:
        if config.rel.endswith(".toml"):
            data: Any = _toml(text)
        else:
            import json

            data = json.loads(text) if text.strip() else {}
    except (RuleError, ValueError):
        return None
    servers = data.get(config.key) if isinstance(data, dict) else None
    return servers if isinstance(servers, dict) else None


def registered(root: Path) -> bool:
    """Whether a client here starts `rulelens mcp`: its tools are then worth naming to agents."""
    if (root / PLUGIN_MANIFEST).is_file():  # the Claude Code plugin registers the server
        return True
    return any(SERVER_NAME in (_servers(root, c) or {}) for c in (CLAUDE, *OTHERS))


def register_json(root: Path, config: McpConfig, real: Path) -> str:
    """Add or update the `rulelens` entry, keeping every other entry and key (json_config)."""
    file = JsonFile.read(real, config.rel, RERUN)
    servers = object_at(file.data, config.key, config.rel)
    old = servers.get(SERVER_NAME)
    kept = {k: v for k, v in old.items() if k not in _TRANSPORT_KEYS} if isinstance(old, dict) else {}
    typed = {"type": "stdio"} if isinstance(old, dict) and "type" in old else {}
    entry = {**typed, **config.entry, **kept}
    if old == entry:
        return f"{config.rel} already has the {SERVER_NAME} server."
    servers[SERVER_NAME] = entry
    file.save(root)
    verb = "Updated" if old is not None else "Added"
    return f"{verb} the {SERVER_NAME} server in {config.rel} (command: rulelens mcp)."


def register_toml(root: Path, config: McpConfig, real: Path) -> str:
    """Append a `[mcp_servers.rulelens]` table, every byte before it as it was. An entry already
    there is the person's and stays: rewriting TOML in place needs a style-keeping parser
    (tomlkit), which the server does not carry for one table."""
    raw = real.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RuleError(f"{config.rel} is not valid UTF-8 (byte {exc.start}); not rewriting it.") from exc
    try:
        servers = _toml(text.removeprefix("\ufeff")).get(config.key)
    except RuleError as exc:
        raise RuleError(f"{config.rel} is {exc}; fix it, then run `{RERUN}` again.") from None
    if isinstance(servers, dict) and SERVER_NAME in servers:
        same = servers[SERVER_NAME] == config.entry
        return (f"{config.rel} already has the {SERVER_NAME} server."
                + ("" if same else " Its entry is yours and was left as it is."))
    newline = "\r\n" if "\r\n" in text else "\n"
    args = ", ".join(f'"{a}"' for a in config.entry["args"])
    table = newline.join([f"[{config.key}.{SERVER_NAME}]", f'command = "{config.entry["command"]}"',
                          f"args = [{args}]"]) + newline
    head = text if not text.strip() or text.endswith(("\n", "\r")) else text + newline
    new = head + (newline if head.strip() else "") + table
    try:
        added = _toml(new.removeprefix("\ufeff")).get(config.key, {}).get(SERVER_NAME)
    except (RuleError, AttributeError):
        added = None
    if added != config.entry:  # `mcp_servers` written inline, which a later table cannot extend
        return (f"{config.rel}: {config.client}'s servers are written in a way a new table cannot "
                f"extend; not registered there. Add [{config.key}.{SERVER_NAME}] with command = "
                f'"rulelens" and args = [{args}] by hand.')
    write_atomic(real, new.encode("utf-8"), root)
    return f"Added the {SERVER_NAME} server in {config.rel} (command: rulelens mcp)."


def register_others(root: Path, real_target: Callable[[Path, Path], Path]) -> list[str]:
    """Register in every other client's project file present; name the clients whose folder is
    here without it. `real_target(path, root)` resolves a link that stays in the project."""
    out: list[str] = []
    for config in OTHERS:
        path = root / config.rel
        if path.is_file():
            real = real_target(path, root)
            write = register_toml if config.rel.endswith(".toml") else register_json
            out.append(write(root, config, real))
        elif path.parent.is_dir():
            out.append(f"{config.client} reads MCP servers from {config.rel}, which this project does "
                       "not have; not registered there (docs/mcp.md).")
    return out
