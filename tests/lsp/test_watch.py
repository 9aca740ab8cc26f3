"""Changes on disk reach open documents without a restart: watchers (VS Code) or polling (Neovim)."""

from __future__ import annotations

import subprocess
import sys

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import diagnostics_after, open_doc, published
from tests.lsp.project import Project

SOURCE = "routes/web.php"


def _watcher_globs(client: LanguageClient) -> list[str]:
    out = []
    for reg in client.registrations:  # type: ignore[attr-defined]
        if reg.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES:
            for w in reg.register_options["watchers"]:
                pattern = w["globPattern"]
                out.append(pattern if isinstance(pattern, str) else pattern["pattern"])
    return out


async def _nudge(client: LanguageClient, proj: Project, changed: list[str]) -> None:
    """What the editor does after files change: report them if it watches, else just ask."""
    if _watcher_globs(client):
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=proj.uri(rel), type=types.FileChangeType.Changed)
            for rel in changed]))
    else:
        await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=proj.uri(SOURCE)),
            position=types.Position(line=0, character=0)))


async def test_watchers_registered_only_where_offered(client: LanguageClient) -> None:
    await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="x"))
    globs = _watcher_globs(client)
    if client.client_name == "visual-studio-code":  # type: ignore[attr-defined]
        assert "**/.ai/rules/**" in globs and "**/*" in globs
    else:  # Neovim 0.11's capabilities: no dynamic registration; polling instead
        assert globs == []


async def test_rule_recorded_by_cli_reaches_open_document(
    client: LanguageClient, proj: Project,
) -> None:
    uri = proj.uri(SOURCE)
    assert await open_doc(client, uri, "<?php\n") == []
    subprocess.run([sys.executable, "-m", "rulelens", "--root", str(proj.root), "record",
                    "--glob", "routes/*.php", "--title", "Name every route",
                    "--note", "Use ->name()."], check=True, capture_output=True)
    seen = published(client, uri)
    await _nudge(client, proj, [".ai/rules/routes.md", ".ai/rules/index.md"])
    (d,) = await diagnostics_after(client, uri, seen)
    assert ".ai/rules/routes.md (routes/*.php): Name every route" in d.message


async def test_in_place_edit_and_deletion_are_picked_up(
    client: LanguageClient, proj: Project,
) -> None:
    uri = proj.uri("app/Models/Invoice.php")
    (d,) = await open_doc(client, uri, "<?php\n")
    assert "Dates are immutable" in d.message
    path = proj.path(".ai/rules/models.md")
    with path.open("a", encoding="utf-8") as handle:  # in place: the folder's mtime stays
        handle.write("\n## Soft deletes\nModels use soft deletes.\n")
    seen = published(client, uri)
    import asyncio

    await asyncio.sleep(1.1)  # the poll re-stats files in place at most once a second
    await _nudge(client, proj, [".ai/rules/models.md"])
    (d,) = await diagnostics_after(client, uri, seen)
    assert "Soft deletes" in d.message
    path.unlink()
    seen = published(client, uri)
    await _nudge(client, proj, [".ai/rules/models.md"])
    assert await diagnostics_after(client, uri, seen) == []


async def test_polling_sees_files_a_checkout_adds(client: LanguageClient, proj: Project) -> None:
    """Files added by git (not the rules) clear a rule file's `glob-matches-nothing`."""
    subprocess.run(["git", "init", "-q", str(proj.root)], check=True)
    text = "---\npaths:\n  - 'generated/**'\n---\n\n# Gen\n\n## G\nGenerated code.\n"
    proj.write(".ai/rules/gen.md", text)
    git = ["git", "-C", str(proj.root), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    uri = proj.uri(".ai/rules/gen.md")
    assert "glob-matches-nothing" in {d.code for d in await open_doc(client, uri, text)}
    proj.write("generated/a.php", "<?php\n")
    subprocess.run([*git, "add", "-A"], check=True)  # rewrites .git/index
    seen = published(client, uri)
    if _watcher_globs(client):
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=proj.uri("generated/a.php"), type=types.FileChangeType.Created)]))
    else:
        await _nudge(client, proj, [])
    diags = await diagnostics_after(client, uri, seen)
    assert "glob-matches-nothing" not in {d.code for d in diags}
