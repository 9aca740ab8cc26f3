"""index.md: links to the rule files, the stale-index diagnostic, and its quick fix."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import diagnostics_after, open_doc, pos, published
from tests.lsp.project import Project

INDEX = ".ai/rules/index.md"


async def test_index_links_to_rule_files(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri(INDEX)
    text = proj.read(INDEX)
    assert await open_doc(client, uri, text) == []
    found = await client.text_document_document_link_async(types.DocumentLinkParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert found is not None
    assert [link.target for link in found] == [
        proj.uri(".ai/rules/controllers.md"), proj.uri(".ai/rules/models.md")]
    lines = text.splitlines()
    link = found[1]
    line = lines[link.range.start.line]
    assert line[link.range.start.character:link.range.end.character] == ".ai/rules/models.md"


async def test_stale_index_diagnostic_and_fix(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri(INDEX)
    proj.write(".ai/rules/routes.md", "---\npaths:\n  - 'routes/*.php'\n---\n\n# Routes\n\n## A\nB\n")
    (d,) = await open_doc(client, uri, proj.read(INDEX))
    assert d.code == "index-stale" and d.severity == types.DiagnosticSeverity.Warning
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=pos(0, 0), end=pos(0, 0)),
        context=types.CodeActionContext(diagnostics=[d])))
    assert actions is not None
    (fix,) = [a for a in actions if isinstance(a, types.CodeAction)]
    assert fix.title == "Regenerate the rules index"
    assert fix.kind == types.CodeActionKind.QuickFix and fix.command is not None
    seen = published(client, uri)
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=fix.command.command, arguments=fix.command.arguments))
    assert result == {"written": True}
    assert "| routes/*.php | .ai/rules/routes.md |" in proj.read(INDEX)
    # The buffer still holds the old text until the editor reloads it; then it is clean.
    await diagnostics_after(client, uri, seen)
    seen = published(client, uri)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=proj.read(INDEX))]))
    assert await diagnostics_after(client, uri, seen) == []


async def test_no_fix_when_index_is_current(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri(INDEX)
    await open_doc(client, uri, proj.read(INDEX))
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=pos(0, 0), end=pos(0, 0)),
        context=types.CodeActionContext(diagnostics=[])))
    assert not actions
