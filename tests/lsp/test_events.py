"""One `rules_changed` event: every writer refreshes every view (diagnostics and code lenses).

Before, the index fix and a folders change republished diagnostics but left lenses stale.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import TIMEOUT, diagnostics_after, open_doc, published
from tests.lsp.project import Project, make_project


def _lens_refresh(caps: types.ClientCapabilities) -> None:
    assert caps.workspace is not None
    caps.workspace.code_lens = types.CodeLensWorkspaceClientCapabilities(refresh_support=True)


async def _lens_refreshed(client: LanguageClient, before: int) -> None:
    async def wait() -> None:
        while client.lens_refreshes <= before:  # type: ignore[attr-defined]
            await asyncio.sleep(0.05)

    await asyncio.wait_for(wait(), TIMEOUT)


@pytest.mark.caps.with_args(_lens_refresh)
async def test_index_fix_refreshes_diagnostics_and_lenses(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri("app/Models/Invoice.php")
    await open_doc(client, uri, "<?php\n")
    proj.write(".ai/rules/all.md", "---\npaths:\n  - 'app/**'\n---\n\n# All\n\n## Everywhere\nNote.\n")
    seen, lenses = published(client, uri), client.lens_refreshes  # type: ignore[attr-defined]
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="rulelens.writeIndex", arguments=[{"root": proj.root.as_uri()}]))
    assert result == {"written": True}
    (d,) = await diagnostics_after(client, uri, seen)
    assert ".ai/rules/all.md" in d.message
    await _lens_refreshed(client, lenses)


@pytest.mark.caps.with_args(_lens_refresh)
async def test_folders_change_refreshes_diagnostics_and_lenses(
    client: LanguageClient, proj: Project, tmp_path: Path,
) -> None:
    later = make_project(tmp_path / "later")
    uri = later.uri("app/Models/Invoice.php")
    assert await open_doc(client, uri, "<?php\n") == []  # not a root yet
    seen, lenses = published(client, uri), client.lens_refreshes  # type: ignore[attr-defined]
    client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
        event=types.WorkspaceFoldersChangeEvent(
            added=[types.WorkspaceFolder(uri=later.root.as_uri(), name="later")], removed=[])))
    (d,) = await diagnostics_after(client, uri, seen)
    assert ".ai/rules/models.md" in d.message
    await _lens_refreshed(client, lenses)


def test_rules_changed_calls_every_listener_with_the_roots(tmp_path: Path) -> None:
    from rulelens.lsp.workspace.events import RulesChanged
    from rulelens.lsp.workspace.roots import Root

    event = RulesChanged()
    calls: list[tuple[str, list[Path], str | None]] = []
    event.subscribe(lambda roots, skip: calls.append(("a", [r.path for r in roots], skip)))
    event.subscribe(lambda roots, skip: calls.append(("b", [r.path for r in roots], skip)))
    root = Root(make_project(tmp_path / "p").root, ".ai/rules")
    event([])  # nothing changed: nobody is bothered
    event([root], skip="file:///x")
    assert calls == [("a", [root.path], "file:///x"), ("b", [root.path], "file:///x")]
