"""Code lens at the top of a source file, opening the rule file through window/showDocument."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import open_doc
from tests.lsp.project import Project


async def _lenses(client: LanguageClient, uri: str) -> list[types.CodeLens]:
    return list(await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri))) or [])


async def test_lens_per_rule_file_opens_it(client: LanguageClient, proj: Project) -> None:
    proj.write(".ai/rules/php.md", "---\npaths:\n  - 'app/**/*.php'\n---\n\n# PHP\n\n## Strict\nUse strict types.\n")
    uri = proj.uri("app/Models/Invoice.php")
    await open_doc(client, uri, "<?php\n")
    lenses = await _lenses(client, uri)
    # php.md was written after index.md: agents that read the committed index miss it.
    assert [lens.command.title for lens in lenses if lens.command] == [
        "Rules: Models (2 entries)", "Rules: PHP (1 entry) · not seen by agents"]
    assert all(lens.range.start.line == 0 for lens in lenses)
    command = lenses[0].command
    assert command is not None
    await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=command.command, arguments=command.arguments))
    shown = client.shown_documents[-1]
    assert shown.uri == proj.uri(".ai/rules/models.md")
    assert shown.selection is not None and shown.selection.start.line == 5


@pytest.mark.init({"rulelens": {"codeLens": False}})
async def test_lens_can_be_switched_off(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri("app/Models/Invoice.php")
    await open_doc(client, uri, "<?php\n")
    assert await _lenses(client, uri) == []
