"""The language server honours the project's configuration of findings and inline directives,
as `rulelens check` does (docs/configuration.md): in rule files, as typed."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import diagnostics_after, open_doc, published
from tests.lsp.project import Project

RULE = ".ai/rules/models.md"
TEXT = """\
---
paths:
  - 'app/Models/**'
  - 'app/Nowhere/**'
---

# Models

## Money is integer cents
Store amounts as integer cents; never floats.
"""


def codes(diags: list[types.Diagnostic]) -> list[str]:
    return sorted(str(d.code) for d in diags)


async def test_an_inline_directive_silences_its_code_on_the_next_line(client: LanguageClient,
                                                                      proj: Project) -> None:
    diags = await open_doc(client, proj.uri(RULE), TEXT)
    assert codes(diags) == ["glob-matches-nothing"]
    silenced = TEXT.replace("  - 'app/Nowhere/**'",
                            "  # rulelens-disable-next-line glob-matches-nothing\n  - 'app/Nowhere/**'")
    seen = published(client, proj.uri(RULE))
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=proj.uri(RULE), version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=silenced)]))
    # A publication of the text before the change (the staleness worker's) may come first.
    assert await diagnostics_after(client, proj.uri(RULE), seen, until=lambda d: d == []) == []
    other_code = TEXT.replace("# Models", "<!-- rulelens-disable-file entry-empty -->\n# Models")
    seen = published(client, proj.uri(RULE))
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=proj.uri(RULE), version=3),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=other_code)]))
    assert codes(await diagnostics_after(client, proj.uri(RULE), seen,
                                         until=lambda d: d != [])) == ["glob-matches-nothing"]


async def test_the_configured_severity_and_exclusions_apply(client: LanguageClient,
                                                            proj: Project) -> None:
    proj.write("rulelens.toml", '[severity]\nglob-matches-nothing = "error"\n')
    (d,) = await open_doc(client, proj.uri(RULE), TEXT)
    assert (d.code, d.severity) == ("glob-matches-nothing", types.DiagnosticSeverity.Error)
    proj.write("rulelens.toml", 'exclude = [".ai/rules/models.md"]\n')
    seen = published(client, proj.uri(RULE))
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=proj.uri("rulelens.toml"))))
    assert await diagnostics_after(client, proj.uri(RULE), seen, until=lambda d: d == []) == []


async def test_a_broken_configuration_is_shown_once_and_changes_nothing(client: LanguageClient,
                                                                        proj: Project) -> None:
    proj.write("pyproject.toml", '[tool.rulelens.severity]\nglob-matches-nothin = "off"\n')
    (d,) = await open_doc(client, proj.uri(RULE), TEXT)
    # a dead alternative beside the live `app/Models/**`: `info` (issue 44)
    assert (d.code, d.severity) == ("glob-matches-nothing", types.DiagnosticSeverity.Information)
    shown = [m for m in client.messages if "pyproject.toml" in m.message]
    assert len(shown) == 1 and shown[0].type == types.MessageType.Warning
    assert "`glob-matches-nothin`" in shown[0].message and "`glob-matches-nothing`" in shown[0].message
