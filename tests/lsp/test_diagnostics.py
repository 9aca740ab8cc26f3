"""The rules diagnostic on source files: content, range, related information, severity."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import diagnostics_after, open_doc, published
from tests.lsp.project import Project


async def test_source_file_gets_one_quiet_diagnostic(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri("app/Models/Invoice.php")
    diags = await open_doc(client, uri, proj.read("app/Models/Invoice.php"))
    assert len(diags) == 1
    d = diags[0]
    assert d.source == "rulelens"
    assert d.code == "rules-apply"
    assert d.severity == types.DiagnosticSeverity.Information
    zero = types.Position(line=0, character=0)
    assert d.range == types.Range(start=zero, end=zero)
    assert ".ai/rules/models.md (app/Models/**)" in d.message
    assert "Money is integer cents; Dates are immutable" in d.message
    assert "controllers.md" not in d.message


async def test_related_information_points_at_rule_file_and_entries(
    client: LanguageClient, proj: Project,
) -> None:
    uri = proj.uri("app/Models/Invoice.php")
    (d,) = await open_doc(client, uri, "<?php\n")
    related = d.related_information or []
    models = proj.uri(".ai/rules/models.md")
    assert [r.location.uri for r in related] == [models] * 3
    lines = proj.read(".ai/rules/models.md").splitlines()
    heading, first, second = (r.location.range for r in related)
    assert lines[heading.start.line] == "# Models"
    assert lines[first.start.line] == "## Money is integer cents"
    assert lines[second.start.line] == "## Dates are immutable"
    assert first.end.character == len("## Money is integer cents")
    assert "app/Models/**" in related[0].message
    assert related[1].message == "Models: Money is integer cents"


async def test_file_without_rules_gets_nothing(client: LanguageClient, proj: Project) -> None:
    assert await open_doc(client, proj.uri("routes/web.php"), "<?php\n") == []


async def test_rule_file_and_index_do_not_get_the_rules_diagnostic(
    client: LanguageClient, proj: Project,
) -> None:
    proj.write(".ai/rules/everything.md", "---\npaths:\n  - '**'\n---\n\n# All\n\n## A\nB\n")
    from rulelens.rules.repository import RuleRepository

    RuleRepository(proj.root).write_index()
    for rel in (".ai/rules/models.md", ".ai/rules/index.md"):
        diags = await open_doc(client, proj.uri(rel), proj.read(rel))
        assert all(d.code != "rules-apply" for d in diags), diags
    (d,) = await open_doc(client, proj.uri("README.md"), "# Demo\n")
    assert "everything.md" in d.message


async def test_closing_clears_diagnostics(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri("app/Models/Invoice.php")
    assert await open_doc(client, uri, "<?php\n")
    seen = published(client, uri)
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert await diagnostics_after(client, uri, seen) == []
