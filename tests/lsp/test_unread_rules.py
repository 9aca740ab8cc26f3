"""A rule file the server cannot read is named in a source file's diagnostic and hover, where
its rules would have been (bytes that are not text: unreadable as root too)."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import open_doc, pos
from tests.lsp.project import Project

SAID = ".ai/rules/models.md could not be read (it looks binary); any rules it holds for this path are not shown."


async def test_diagnostic_and_hover_say_the_file_could_not_be_read(
        client: LanguageClient, proj: Project) -> None:
    path = proj.path(".ai/rules/models.md")
    path.write_bytes(path.read_bytes() + b"\x00")
    uri = proj.uri("app/Models/Invoice.php")
    [diag] = await open_doc(client, uri, proj.read("app/Models/Invoice.php"))
    assert diag.message == SAID
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=pos(0, 0)))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "models.md could not be read (it looks binary)" in hover.contents.value
    assert "Money is integer cents" not in hover.contents.value


async def test_a_rule_that_applies_is_shown_beside_the_unread_file(
        client: LanguageClient, proj: Project) -> None:
    path = proj.path(".ai/rules/models.md")
    path.write_bytes(path.read_bytes() + b"\x00")
    uri = proj.uri("app/Http/Controllers/InvoiceController.php")
    [diag] = await open_doc(client, uri, "<?php\n")
    assert ".ai/rules/controllers.md" in diag.message and diag.message.endswith(SAID)
