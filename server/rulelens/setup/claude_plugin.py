"""`rulelens init --claude`: a Claude Code project plugin that runs `rulelens serve` and `rulelens mcp`.

Where and in what shape, as Claude Code 2.1 reads it (checked with its own CLI: `claude plugin
validate`, `claude plugin list`; see docs/claude-code.md):

- A folder under `.claude/skills/` with a `.claude-plugin/plugin.json` loads as the project-scope
  plugin `<name>@skills-dir`, once the person has trusted the workspace. Nothing to install.
- Language servers go in `.lsp.json` beside it, MCP servers in its `.mcp.json` (what
  `claude plugin init --with lsp mcp` scaffolds); a `plugin.json` that declares them inline
  instead is updated there.
- Claude Code routes a file to a language server by `path.extname(file).toLowerCase()` and
  drops a `.lsp.json` whose keys are not such extensions (`.`) or that has no mapping at all,
  so the extensions are written lower-case, from the project's files, never empty.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rulelens import __version__
from rulelens.rules.check.plugin_map import (
    LSP_JSON,
    MANIFEST,
    PLUGIN_DIR,
    RERUN,
    SERVER_NAME,
    extensions,
)
from rulelens.rules.model import RuleError
from rulelens.setup.json_config import JsonFile, object_at

PLUGIN_NAME = "rulelens"
MCP_JSON = f"{PLUGIN_DIR}/.mcp.json"
LSP_ENTRY: dict[str, Any] = {"command": "rulelens", "args": ["serve"]}
MCP_ENTRY: dict[str, Any] = {"command": "rulelens", "args": ["mcp"]}

MANIFEST_DEFAULTS: dict[str, Any] = {
    "name": PLUGIN_NAME,
    "version": __version__,
    "description": "Project rules from .ai/rules for every file Claude Code opens or edits: the "
                   "rulelens language server reports the rules that apply as a diagnostic, and "
                   "the rulelens MCP server answers rules-for-path, search-rules and record-rule.",
    "author": {"name": "rulelens"},
}

# LSP language identifiers for common extensions (the LSP specification's table of well-known
# ids). Written by hand: no library maps extensions to LSP ids, and only the languageId of
# didOpen depends on it; any other extension gets its own name, which Claude Code accepts.
_LANGUAGE_IDS = {
    ".bat": "bat", ".bib": "bibtex", ".c": "c", ".h": "c", ".clj": "clojure", ".coffee": "coffeescript",
    ".cpp": "cpp", ".cc": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".cs": "csharp", ".css": "css",
    ".dart": "dart", ".diff": "diff", ".patch": "diff", ".dockerfile": "dockerfile", ".ex": "elixir",
    ".exs": "elixir", ".erl": "erlang", ".fs": "fsharp", ".go": "go", ".groovy": "groovy",
    ".hbs": "handlebars", ".hs": "haskell", ".html": "html", ".htm": "html", ".ini": "ini",
    ".java": "java", ".js": "javascript", ".cjs": "javascript", ".mjs": "javascript",
    ".jsx": "javascriptreact", ".json": "json", ".jsonc": "jsonc", ".tex": "latex", ".less": "less",
    ".lua": "lua", ".mk": "makefile", ".md": "markdown", ".markdown": "markdown", ".m": "objective-c",
    ".mm": "objective-cpp", ".pl": "perl", ".pm": "perl", ".php": "php", ".ps1": "powershell",
    ".pug": "jade", ".py": "python", ".pyi": "python", ".r": "r", ".cshtml": "razor", ".rb": "ruby",
    ".rs": "rust", ".scss": "scss", ".sass": "sass", ".scala": "scala", ".sh": "shellscript",
    ".bash": "shellscript", ".zsh": "shellscript", ".sql": "sql", ".swift": "swift", ".ts": "typescript",
    ".mts": "typescript", ".cts": "typescript", ".tsx": "typescriptreact", ".vb": "vb", ".xml": "xml",
    ".xsl": "xsl", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".vue": "vue", ".svelte": "svelte",
    ".kt": "kotlin", ".kts": "kotlin", ".txt": "plaintext", ".csv": "csv", ".twig": "twig",
}


def language_id(ext: str) -> str:
    return _LANGUAGE_IDS.get(ext, ext[1:])


def write_plugin(root: Path, paths: Iterable[str]) -> list[str]:
    """Create or refresh the plugin for the files `paths` names (`ruled_paths`); returns the
    lines to print."""
    exts = extensions(paths, root)
    plugin = make_dirs(root, PLUGIN_DIR)
    make_dirs(root, f"{PLUGIN_DIR}/.claude-plugin")
    manifest = JsonFile.read(root / MANIFEST, MANIFEST, RERUN)
    for key, value in MANIFEST_DEFAULTS.items():
        manifest.data.setdefault(key, value)
    lsp = _servers_file(root, plugin, manifest, "lspServers", LSP_JSON)
    mcp = _servers_file(root, plugin, manifest, "mcpServers", MCP_JSON)
    lsp_servers = lsp.data if lsp is not manifest else object_at(manifest.data, "lspServers", MANIFEST)
    _update_lsp(lsp_servers, exts, lsp.name)
    mcp_root = mcp.data if mcp is not manifest else manifest.data
    _update_mcp(object_at(mcp_root, "mcpServers", mcp.name))

    serve = f"rulelens serve for {len(exts)} file extensions ({_shown(exts)})"
    parts = [(manifest, "the rulelens project plugin for Claude Code"
              + "".join(f", {w}" for f, w in ((lsp, serve), (mcp, "rulelens mcp")) if f is manifest))]
    parts += [(f, w) for f, w in ((lsp, serve), (mcp, "rulelens mcp")) if f is not manifest]
    out: list[str] = []
    for file, what in parts:
        existed = file.original is not None
        if not file.save(root):
            out.append(f"{file.name} is up to date.")
        else:
            out.append(f"{'Updated' if existed else 'Created'} {file.name}: {what}.")
    out.append("Claude Code loads it as rulelens@skills-dir once you trust this folder, and runs one "
               "language server per file extension. Re-run `rulelens init --claude` when rules reach "
               "a new kind of file.")
    return out


def _shown(exts: list[str], most: int = 12) -> str:
    return ", ".join(exts) if len(exts) <= most else ", ".join(exts[:most]) + f", and {len(exts) - most} more"


def _update_lsp(servers: dict[str, Any], exts: list[str], name: str) -> None:
    """The `rulelens` entry: command and args when missing, the extension list always."""
    entry = servers.get(SERVER_NAME)
    if entry is None:
        entry = servers[SERVER_NAME] = dict(LSP_ENTRY)
    if not isinstance(entry, dict):
        raise RuleError(f"`{SERVER_NAME}` in {name} must be a JSON object.")
    for key, value in LSP_ENTRY.items():
        entry.setdefault(key, value)
    old = entry.get("extensionToLanguage")
    old = old if isinstance(old, dict) else {}
    # A person's own language id for an extension that is still there is kept.
    entry["extensionToLanguage"] = {
        ext: old[ext] if isinstance(old.get(ext), str) and old[ext] else language_id(ext) for ext in exts}


def _update_mcp(servers: dict[str, Any]) -> None:
    """The `rulelens` entry when missing; an existing one is the person's and stays as it is."""
    servers.setdefault(SERVER_NAME, dict(MCP_ENTRY))


def _servers_file(root: Path, plugin: Path, manifest: JsonFile, key: str, default: str) -> JsonFile:
    """Where the plugin declares `key`: inline in plugin.json, a file it names, or the default file."""
    declared = manifest.data.get(key)
    if isinstance(declared, dict):
        return manifest
    if declared is None:
        return JsonFile.read(root / default, default, RERUN)
    if isinstance(declared, str):
        target = (plugin / declared).resolve()
        if target.parent != plugin.resolve() and plugin.resolve() not in target.parents:
            raise RuleError(f"`{key}` in {MANIFEST} points outside the plugin folder; not writing there.")
        rel = target.relative_to(root.resolve()).as_posix()
        make_dirs(root, rel.rsplit("/", 1)[0])
        return JsonFile.read(root / rel, rel, RERUN)
    raise RuleError(f"`{key}` in {MANIFEST} is neither an object nor one file; set it to "
                    f"\"./{default.rsplit('/', 1)[-1]}\" or remove it, then run `{RERUN}` again.")


def make_dirs(root: Path, rel: str) -> Path:
    """Create `rel` below root, refusing any part that is a link or a file leading elsewhere."""
    real_root = root.resolve()
    here = root
    for part in rel.split("/"):
        here = here / part
        if here.is_symlink() or here.exists():
            real = here.resolve()
            if real != real_root and real_root not in real.parents:
                raise RuleError(f"{here.relative_to(root).as_posix()} leads outside the project "
                                f"({real}); not writing through it.")
            if not real.is_dir():
                raise RuleError(f"{here.relative_to(root).as_posix()} is not a folder.")
        else:
            os.mkdir(here)
    return here
