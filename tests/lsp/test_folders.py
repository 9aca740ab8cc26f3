"""Workspace folders added while the server runs; clients that want plain text."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import open_doc, pos
from tests.lsp.project import Project, make_project


async def test_added_folder_becomes_a_root(
    client: LanguageClient, proj: Project, tmp_path: Path,
) -> None:
    later = make_project(tmp_path / "later")
    uri = later.uri("app/Models/Invoice.php")
    assert await open_doc(client, uri, "<?php\n") == []  # not a root yet
    client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
        event=types.WorkspaceFoldersChangeEvent(
            added=[types.WorkspaceFolder(uri=later.root.as_uri(), name="later")], removed=[])))
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="cents"))
    assert found is not None
    assert {s.location.uri for s in found} == {proj.uri(".ai/rules/models.md"),
                                               later.uri(".ai/rules/models.md")}
    (d,) = await open_doc(client, later.uri("app/Models/Customer.php"), "<?php\n")
    assert d.related_information
    assert d.related_information[0].location.uri == later.uri(".ai/rules/models.md")


def _plain_only(caps: types.ClientCapabilities) -> None:
    assert caps.text_document is not None and caps.text_document.hover is not None
    caps.text_document.hover.content_format = [types.MarkupKind.PlainText]


@pytest.mark.caps.with_args(_plain_only)
async def test_plain_text_hover(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri("app/Models/Invoice.php")
    await open_doc(client, uri, "<?php\n")
    result = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=pos(0, 0)))
    assert result is not None and isinstance(result.contents, types.MarkupContent)
    assert result.contents.kind == types.MarkupKind.PlainText
    assert result.contents.value.startswith(".ai/rules/models.md (matched by app/Models/**)")
