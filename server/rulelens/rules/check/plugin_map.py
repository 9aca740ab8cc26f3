"""What the Claude Code plugin `rulelens init --claude` writes maps (setup/claude_plugin.py writes
it): the file extensions of the files the rules reach, and `claude-plugin-extensions`, the check
that the plugin still maps every one of them (a later rule reaching `.ts` gets no language server
in Claude Code until `init --claude` runs again)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from rulelens.rules.model import RuleFile
from rulelens.workspace.filelist import FileList
from rulelens.workspace.reads import Reads

PLUGIN_DIR = ".claude/skills/rulelens"
MANIFEST = f"{PLUGIN_DIR}/.claude-plugin/plugin.json"
LSP_JSON = f"{PLUGIN_DIR}/.lsp.json"
SERVER_NAME = "rulelens"
RERUN = "rulelens init --claude"
# Rule files are Markdown: the server checks them too, even where no other .md is tracked.
ALWAYS = ".md"


def extension_of(path: str) -> str | None:
    """The extension as Node's `path.extname` gives it, lower-cased as Claude Code routes it."""
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    if dot <= 0 or dot == len(name) - 1 or name[:dot].strip(".") == "":
        return None  # no extension, a dotfile (`.env`), or a trailing dot
    ext = name[dot:].lower()
    if any(ch.isspace() or not ch.isprintable() for ch in ext):
        return None  # a name no one opens as code; keep the plugin file readable
    return ext


def extensions(paths: Iterable[str], root: Path | None = None) -> list[str]:
    """Every extension among the paths (the plugin's own files aside), plus `.md`, sorted; with
    `root`, only those whose first file there is text (a server started for `.png` would never
    have a rule to say)."""
    mine = PLUGIN_DIR + "/"
    first: dict[str, str] = {}
    for p in paths:
        ext = extension_of(p)
        if ext is not None and not p.startswith(mine):
            first.setdefault(ext, p)
    return sorted({ext for ext, p in first.items() if root is None or is_text(root / p)} | {ALWAYS})


def is_text(path: Path) -> bool:
    """Git's test for a binary file (xdiff's `buffer_is_binary`): a NUL in its first 8,000 bytes.
    By content rather than by a list of names, so `.lock` (text) and `.ico` (not) need no entry."""
    try:
        with open(path, "rb") as handle:
            return b"\0" not in handle.read(8000)
    except OSError:
        return False


def ruled_paths(root: Path, files: FileList, agent_files: Iterable[str] = (),
                rules: Iterable[RuleFile] | None = None) -> list[str]:
    """The files some `.ai/rules` glob selects, and `agent_files` (every agent's rule files, which
    the caller reads: setup sits below agents/): what the language server has something to say
    about (the rules that apply; the findings)."""
    from rulelens.rules.repository import RuleRepository

    found: set[str] = set(agent_files)
    for rule in rules if rules is not None else RuleRepository(root).files:
        found.add(rule.rel)
        for item in rule.glob_items:
            if item.text.strip():
                found.update(files.matching(item.text.strip()))
    return sorted(found)


def unmapped_extensions(root: Path, paths: Iterable[str], reads: Reads) -> tuple[str, list[str]] | None:
    """The plugin's language-server file (as `init --claude` wrote it) and the extensions of the
    files the rules reach now (`ruled_paths`) that it does not map: Claude Code starts no language
    server for them, so the rules for those files never show. None without such a plugin, or
    when nothing is missing."""
    manifest = root / MANIFEST
    if not reads.is_file(manifest):
        return None
    try:
        declared = json.loads(reads.read_text(manifest)).get("lspServers")
        where, servers = (MANIFEST, declared) if isinstance(declared, dict) else (LSP_JSON, None)
        if servers is None:
            if isinstance(declared, str):
                where = (Path(PLUGIN_DIR) / declared).as_posix().replace("/./", "/")
            if not reads.is_file(root / where):
                return None
            servers = json.loads(reads.read_text(root / where))
        entry = servers.get(SERVER_NAME) if isinstance(servers, dict) else None
        mapped = entry.get("extensionToLanguage") if isinstance(entry, dict) else None
    except (OSError, ValueError, AttributeError):
        return None
    if not isinstance(mapped, dict):
        return None
    missing = [ext for ext in extensions(paths, root) if ext not in mapped]
    return (where, missing) if missing else None
