from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import open_doc
from tests.lsp.project import Project


async def test_source_file_gets_its_rules(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri("app/Models/Invoice.php")
    diags = await open_doc(client, uri, proj.read("app/Models/Invoice.php"))
    assert len(diags) == 1
    d = diags[0]
    assert d.source == "rulelens"
    assert d.severity == types.DiagnosticSeverity.Information
    assert "models.md" in d.message
