"""Document symbols for clients without hierarchical support: flat SymbolInformation."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import open_doc
from tests.lsp.project import Project


def _flat_symbols(caps: types.ClientCapabilities) -> None:
    """As vim-lsp and older clients: `hierarchicalDocumentSymbolSupport: false`."""
    assert caps.text_document is not None
    caps.text_document.document_symbol = types.DocumentSymbolClientCapabilities(
        hierarchical_document_symbol_support=False)


@pytest.mark.caps.with_args(_flat_symbols)
async def test_flat_symbols_for_clients_without_hierarchy(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri(".ai/rules/models.md")
    await open_doc(client, uri, proj.read(".ai/rules/models.md"))
    result = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert result is not None and len(result) == 2
    assert all(isinstance(s, types.SymbolInformation) for s in result)
    first, second = result
    assert isinstance(first, types.SymbolInformation) and isinstance(second, types.SymbolInformation)
    assert [first.name, second.name] == ["Money is integer cents", "Dates are immutable"]
    assert {first.container_name, second.container_name} == {"Models"}
    assert first.location.uri == uri and first.kind == types.SymbolKind.String
    assert (first.location.range.start.line, first.location.range.end.line) == (7, 9)
    assert (second.location.range.start.line, second.location.range.end.line) == (10, 11)
