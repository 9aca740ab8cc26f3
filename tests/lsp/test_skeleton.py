"""The record fallback's edit: minimal (pure), and versioned where the client takes
`documentChanges`, so that an edit computed from a stale buffer is refused, not applied."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec
from pytest_lsp import LanguageClient

from rulelens.lsp.wire.edits import minimal_edit
from tests.lsp.edits import apply_text_edits
from tests.lsp.helpers import open_doc, pos, with_document_changes, without_document_changes
from tests.lsp.project import Project

UTF16 = PositionCodec(types.PositionEncodingKind.Utf16)


@pytest.mark.parametrize(("old", "new"), [
    ("a\nb\nc\n", "a\nb\nX\nc\n"),
    ("a\nb\n", "a\nb\n\n## New\nnote\n"),
    ("a\nb", "a\nb\n\n## New\n"),  # no final line break
    ("", "---\nx\n"),
    ("é\n", "é\nü\n"),
    ("a\r\nb\r\n", "a\r\nz\r\nb\r\n"),
])
def test_minimal_edit_turns_old_into_new(old: str, new: str) -> None:
    edit = minimal_edit(UTF16, old, new)
    assert apply_text_edits(old, [edit], "utf-16") == new


def test_minimal_edit_replaces_only_the_lines_that_differ() -> None:
    edit = minimal_edit(UTF16, "h\na\nb\nc\n", "h\na\nX\nc\n")
    assert edit.range == types.Range(start=pos(2, 0), end=pos(3, 0))
    assert edit.new_text == "X\n"


async def _skeleton_edit(client: LanguageClient, proj: Project) -> types.WorkspaceEdit:
    uri = proj.uri("app/Models/Invoice.php")
    await open_doc(client, uri, "<?php\n")
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="rulelens.recordRule", arguments=[{"glob": "app/Models/**", "uri": uri}]))
    assert result["skeleton"] is True
    return client.applied_edits[-1]  # type: ignore[attr-defined, no-any-return]


@pytest.mark.caps.with_args(with_document_changes)
async def test_edit_carries_the_version_the_server_last_saw(
    client: LanguageClient, proj: Project,
) -> None:
    rule_uri = proj.uri(".ai/rules/models.md")
    text = proj.read(".ai/rules/models.md")
    await open_doc(client, rule_uri, text, version=3)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=rule_uri, version=7),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text + "\n## Mine\nKeep.\n")]))
    edit = await _skeleton_edit(client, proj)
    (change,) = edit.document_changes or []
    assert isinstance(change, types.TextDocumentEdit)
    assert change.text_document.uri == rule_uri and change.text_document.version == 7
    assert edit.changes is None
    # Computed from that buffer, not from the disk: the person's unsaved entry is kept.
    (text_edit,) = change.edits
    assert isinstance(text_edit, types.TextEdit)
    assert "## Mine" not in text_edit.new_text and text_edit.range.start.line > 12


@pytest.mark.caps.with_args(with_document_changes)
async def test_a_document_never_opened_gets_a_null_version(
    client: LanguageClient, proj: Project,
) -> None:
    edit = await _skeleton_edit(client, proj)
    (change,) = edit.document_changes or []
    assert isinstance(change, types.TextDocumentEdit)
    assert change.text_document.uri == proj.uri(".ai/rules/models.md")
    assert change.text_document.version is None


@pytest.mark.caps.with_args(without_document_changes)
async def test_clients_without_document_changes_get_plain_changes(
    client: LanguageClient, proj: Project,
) -> None:
    edit = await _skeleton_edit(client, proj)
    assert edit.document_changes is None
    assert list(edit.changes or {}) == [proj.uri(".ai/rules/models.md")]
