"""`rulelens init --claude`: the Claude Code project plugin, checked by Claude Code's own CLI and
driven the way Claude Code's LSP client starts a plugin's language server."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.protocol import default_converter

from rulelens.rules.check.plugin_map import LSP_JSON, MANIFEST, PLUGIN_DIR, extension_of
from rulelens.setup.claude_plugin import MCP_JSON
from tests.conftest import REPO, ProjectFactory
from tests.lsp.conftest import make_client
from tests.lsp.helpers import diagnostics_after, published

MODELS = """---
paths:
  - 'app/Models/**'
---

# Models

## Money is integer cents
Store amounts as integer cents; never floats.

## Dates are immutable
Cast timestamps to immutable dates.
"""

FILES: dict[str, str | bytes] = {
    ".ai/rules/models.md": MODELS,
    ".ai/rules/front.md": "---\npaths:\n  - 'resources/**'\n---\n\n# Front\n\n## Views\nKeep them thin.\n",
    "app/Models/Invoice.php": "<?php\n",
    "resources/js/app.TS": "export {};\n",
    "resources/views/home.blade.php": "<div></div>\n",
    "Makefile": "all:\n",
    ".env": "A=1\n",
    "notes.": "trailing dot\n",
    ".gitignore": "*.log\n",
    "debug.log": "ignored by git\n",
}


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), *args],
                          capture_output=True, text=True, check=False, timeout=120)


def read_json(root: Path, rel: str) -> Any:
    return json.loads((root / rel).read_text(encoding="utf-8"))


def lsp_entry(root: Path) -> dict[str, Any]:
    entry: dict[str, Any] = read_json(root, LSP_JSON)["rulelens"]
    return entry


@pytest.fixture
def root(project: ProjectFactory) -> Path:
    made = project(FILES, git=True)
    assert run(made, "index").returncode == 0
    return made


def test_extension_of_follows_node_extname_lower_cased() -> None:
    assert [extension_of(p) for p in ("a/b.PHP", "x.blade.php", "Makefile", ".env", "a/.bashrc",
                                      "notes.", "..", "a b.c d", "v1.2/readme")] == [
        ".php", ".php", None, None, None, None, None, None, None]


def test_writes_the_plugin_for_the_projects_extensions(root: Path) -> None:
    done = run(root, "init", "--claude")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:3] == [
        f"Created {MANIFEST}: the rulelens project plugin for Claude Code.",
        f"Created {LSP_JSON}: rulelens serve for 3 file extensions (.md, .php, .ts).",
        f"Created {MCP_JSON}: rulelens mcp.",
    ]
    manifest = read_json(root, MANIFEST)
    assert manifest["name"] == "rulelens" and "lspServers" not in manifest
    # Git's list: `debug.log` is ignored, `.env`, `Makefile` and `notes.` have no extension, and
    # `.TS` is routed lower-case, as Claude Code looks extensions up.
    assert lsp_entry(root) == {"command": "rulelens", "args": ["serve"], "extensionToLanguage": {
        ".md": "markdown", ".php": "php", ".ts": "typescript"}}
    assert read_json(root, MCP_JSON) == {"mcpServers": {"rulelens": {"command": "rulelens", "args": ["mcp"]}}}
    assert "rules-for-path" in (root / "AGENTS.md").read_text()  # the plugin brings the MCP tools
    assert list(root.rglob("*rulelens-tmp*")) == []


def test_rerun_updates_the_extensions_and_keeps_the_users_edits(root: Path) -> None:
    assert run(root, "init", "--claude").returncode == 0
    manifest = read_json(root, MANIFEST)
    manifest.update(description="Our rules", keywords=["rules"])
    (root / MANIFEST).write_text(json.dumps(manifest, indent=4) + "\n")
    lsp = read_json(root, LSP_JSON)
    lsp["rulelens"].update(command="/opt/venv/bin/rulelens", startupTimeout=60000, env={"A": "1"})
    lsp["rulelens"]["extensionToLanguage"][".php"] = "blade"
    lsp["other"] = {"command": "x", "extensionToLanguage": {".x": "x"}}
    (root / LSP_JSON).write_text(json.dumps(lsp))
    mcp = {"mcpServers": {"rulelens": {"command": "uvx", "args": ["rulelens", "mcp"]}}}
    (root / MCP_JSON).write_text(json.dumps(mcp))
    (root / "resources/js/app.TS").unlink()
    (root / "resources/js/App.vue").write_text("<template/>\n")  # untracked, not ignored: listed

    done = run(root, "init", "--claude")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:3] == [
        f"{MANIFEST} is up to date.",
        f"Updated {LSP_JSON}: rulelens serve for 3 file extensions (.md, .php, .vue).",
        f"{MCP_JSON} is up to date.",
    ]
    assert read_json(root, MANIFEST) == manifest
    assert read_json(root, LSP_JSON) == {
        "rulelens": {"command": "/opt/venv/bin/rulelens", "args": ["serve"],
                     "extensionToLanguage": {".md": "markdown", ".php": "blade", ".vue": "vue"},
                     "startupTimeout": 60000, "env": {"A": "1"}},
        "other": {"command": "x", "extensionToLanguage": {".x": "x"}},
    }
    assert read_json(root, MCP_JSON) == mcp
    stamps = [(root / rel).stat().st_mtime_ns for rel in (MANIFEST, LSP_JSON, MCP_JSON)]
    assert run(root, "init", "--claude").stdout.splitlines()[:3] == [
        f"{rel} is up to date." for rel in (MANIFEST, LSP_JSON, MCP_JSON)]
    assert [(root / rel).stat().st_mtime_ns for rel in (MANIFEST, LSP_JSON, MCP_JSON)] == stamps


def test_servers_declared_inline_in_plugin_json_are_updated_there(root: Path) -> None:
    manifest = {"name": "ours", "lspServers": {"rulelens": {"command": "rulelens", "args": ["serve"],
                                                            "extensionToLanguage": {".old": "old"}}},
                "mcpServers": {}}
    (root / PLUGIN_DIR / ".claude-plugin").mkdir(parents=True)
    (root / MANIFEST).write_text(json.dumps(manifest))
    done = run(root, "init", "--claude")
    assert done.returncode == 0, done.stderr
    written = read_json(root, MANIFEST)
    assert written["name"] == "ours"
    assert written["lspServers"]["rulelens"]["extensionToLanguage"] == {
        ".md": "markdown", ".php": "php", ".ts": "typescript"}
    assert written["mcpServers"] == {"rulelens": {"command": "rulelens", "args": ["mcp"]}}
    assert not (root / LSP_JSON).exists() and not (root / MCP_JSON).exists()


def test_a_servers_file_named_in_plugin_json_is_updated_and_one_outside_refused(root: Path) -> None:
    (root / PLUGIN_DIR / ".claude-plugin").mkdir(parents=True)
    (root / MANIFEST).write_text(json.dumps({"name": "rulelens", "lspServers": "./servers/lsp.json"}))
    done = run(root, "init", "--claude")
    assert done.returncode == 0, done.stderr
    assert f"Created {PLUGIN_DIR}/servers/lsp.json: rulelens serve for 3 file extensions" in done.stdout
    assert read_json(root, f"{PLUGIN_DIR}/servers/lsp.json")["rulelens"]["args"] == ["serve"]
    assert not (root / LSP_JSON).exists()
    (root / MANIFEST).write_text(json.dumps({"name": "rulelens", "lspServers": "../../../lsp.json"}))
    done = run(root, "init", "--claude")
    assert done.returncode == 2
    assert "points outside the plugin folder" in done.stderr
    assert not (root / "lsp.json").exists()


def test_a_claude_folder_linked_out_of_the_project_is_not_written(root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside, root / ".claude")
    done = run(root, "init", "--claude")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "leads outside the project" in done.stderr
    assert list(outside.iterdir()) == []


def test_broken_plugin_json_is_refused_in_one_line_and_left_alone(root: Path) -> None:
    (root / LSP_JSON).parent.mkdir(parents=True)
    (root / LSP_JSON).write_text('{"rulelens": ')
    done = run(root, "init", "--claude")
    assert done.returncode == 2
    assert done.stderr == (f"rulelens: {LSP_JSON} is not valid JSON (line 1, column 14: Expecting value); "
                           "fix it, then run `rulelens init --claude` again.\n")
    assert (root / LSP_JSON).read_text() == '{"rulelens": '
    assert not (root / MANIFEST).exists()


# --- Claude Code's own CLI -------------------------------------------------------------------

CLAUDE_CACHE = REPO / ".ci" / "cache" / "claude-code" / "node_modules" / ".bin" / "claude"


def claude_cli() -> str:
    """Claude Code's CLI: on PATH, or where CI installs it; skip locally, fail under CI."""
    found = os.environ.get("RULELENS_CLAUDE_CLI") or shutil.which("claude")
    if found:
        return found
    if CLAUDE_CACHE.exists():
        return str(CLAUDE_CACHE)
    if os.environ.get("CI"):
        pytest.fail("Claude Code's CLI (npm @anthropic-ai/claude-code) is required under CI")
    pytest.skip("Claude Code's CLI is not installed (npm @anthropic-ai/claude-code)")


def claude(home: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI with a HOME of its own: no model, no login, nothing of the person's config."""
    env = {**os.environ, "HOME": str(home), "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
           "DISABLE_AUTOUPDATER": "1"}
    env.pop("CLAUDE_CONFIG_DIR", None)
    return subprocess.run([claude_cli(), *args], cwd=cwd, env=env, capture_output=True, text=True,
                          check=False, timeout=120)


def test_claude_codes_validator_accepts_the_plugin_and_lists_both_servers(root: Path,
                                                                          tmp_path: Path) -> None:
    claude_cli()
    assert run(root, "init", "--claude").returncode == 0
    home = tmp_path / "home"
    home.mkdir()
    done = claude(home, root, "plugin", "validate", "--json", PLUGIN_DIR)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["success"] is True
    assert report["manifest"]["errors"] == []
    assert report["manifest"]["warnings"] == []
    # A .lsp.json that Claude Code cannot use leaves `provides` null, with success still true.
    provides = report["provides"]
    assert provides is not None, report
    assert provides["lspServers"] == [{"name": "rulelens", "command": "rulelens", "args": ["serve"]}]
    assert provides["mcpServers"] == [{"name": "rulelens", "type": "stdio", "target": "rulelens",
                                       "args": ["mcp"]}]


def test_claude_code_loads_it_as_a_project_plugin_once_the_folder_is_trusted(root: Path,
                                                                             tmp_path: Path) -> None:
    claude_cli()
    assert run(root, "init", "--claude").returncode == 0
    home = tmp_path / "home"
    home.mkdir()
    untrusted = json.loads(claude(home, root, "plugin", "list", "--json").stdout)
    assert not any(p["id"] == "rulelens@skills-dir" for p in untrusted)
    assert any(n.get("type") == "project-scope-suppressed-untrusted"
               for p in untrusted for n in p.get("noteDetails", []))
    config = home / ".claude.json"
    state = json.loads(config.read_text()) if config.exists() else {}
    state.setdefault("projects", {})[str(root.resolve())] = {"hasTrustDialogAccepted": True}
    config.write_text(json.dumps(state))
    trusted = json.loads(claude(home, root, "plugin", "list", "--json").stdout)
    (ours,) = [p for p in trusted if p["id"] == "rulelens@skills-dir"]
    assert (ours["scope"], ours["enabled"], ours["installPath"]) == (
        "project", True, str((root / PLUGIN_DIR).resolve()))
    details = claude(home, root, "plugin", "details", "rulelens@skills-dir")
    assert details.returncode == 0, details.stderr
    lines = [" ".join(line.split()) for line in details.stdout.splitlines()]
    assert any(line.startswith("LSP servers (1) rulelens") for line in lines), details.stdout
    assert any(line.startswith("MCP servers (1) rulelens") for line in lines), details.stdout


# --- the language server, started as Claude Code starts it ----------------------------------

# Claude Code 2.1's initialize request for a plugin's server (its LSP client, read from the CLI):
# the workspace is the session's folder, no configuration, no dynamic registration, UTF-16.
CLAUDE_CODE_CAPABILITIES = {
    "workspace": {"configuration": False, "workspaceFolders": False,
                  "didChangeWatchedFiles": {"dynamicRegistration": False}},
    "textDocument": {
        "synchronization": {"dynamicRegistration": False, "willSave": False,
                            "willSaveWaitUntil": False, "didSave": True},
        "publishDiagnostics": {"relatedInformation": True, "tagSupport": {"valueSet": [1, 2]},
                               "versionSupport": False, "codeDescriptionSupport": True,
                               "dataSupport": False},
        "hover": {"dynamicRegistration": False, "contentFormat": ["markdown", "plaintext"]},
        "definition": {"dynamicRegistration": False, "linkSupport": True},
        "references": {"dynamicRegistration": False},
        "documentSymbol": {"dynamicRegistration": False, "hierarchicalDocumentSymbolSupport": True},
        "callHierarchy": {"dynamicRegistration": False},
    },
    "general": {"positionEncodings": ["utf-16"]},
}


async def test_the_declared_server_started_as_claude_code_does_reports_the_rules(root: Path) -> None:
    assert run(root, "init", "--claude").returncode == 0
    entry = lsp_entry(root)
    command = shutil.which(entry["command"])
    if command is None:
        if os.environ.get("CI"):
            pytest.fail("the rulelens command is not on PATH")
        pytest.skip("the rulelens command is not on PATH (install the package)")
    client = make_client()
    # As Claude Code spawns it: the plugin's command and args, in the session's folder.
    await client.start_io(command, *entry["args"], cwd=str(root), env=dict(os.environ))
    try:
        caps = default_converter().structure(CLAUDE_CODE_CAPABILITIES, types.ClientCapabilities)
        await client.initialize_session(types.InitializeParams(
            process_id=os.getpid(), client_info=types.ClientInfo(name="Claude Code", version="2.1.332"),
            initialization_options={}, root_path=str(root), root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            capabilities=caps))
        rel = "app/Models/Invoice.php"
        uri = (root / rel).as_uri()
        seen = published(client, uri)
        language = entry["extensionToLanguage"][Path(rel).suffix.lower()]
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=uri, language_id=language, version=0, text=(root / rel).read_text())))
        (diag,) = await diagnostics_after(client, uri, seen)
        await client.shutdown_session()
    finally:
        await client.stop()
    assert diag.source == "rulelens"
    assert diag.severity == types.DiagnosticSeverity.Information
    # Claude Code hands the agent message, severity, range, source and code, and drops
    # relatedInformation: the message alone must name the rule file and its entries.
    assert ".ai/rules/models.md" in diag.message
    assert "Money is integer cents" in diag.message and "Dates are immutable" in diag.message


def test_only_text_formats_that_rules_reach_get_the_server(project: ProjectFactory) -> None:
    """Images and fonts under a ruled folder, a lock file and code no rule reaches: no entry."""
    root = project({**FILES, "resources/img/logo.PNG": b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
                    "resources/favicon.ico": b"\0\0\1\0\1\0", "resources/css/app.scss": "a {}\n",
                    "composer.lock": "{}\n", "tools/gen.go": "package main\n",
                    ".cursor/rules/style.mdc": "---\nglobs: tools/**\n---\nGo style.\n"}, git=True)
    assert run(root, "index").returncode == 0
    done = run(root, "init", "--claude")
    assert done.returncode == 0, done.stderr
    assert set(lsp_entry(root)["extensionToLanguage"]) == {".md", ".mdc", ".php", ".scss", ".ts"}
