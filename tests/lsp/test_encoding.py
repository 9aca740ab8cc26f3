"""Positions in the negotiated encoding (UTF-16 for VS Code, UTF-8 for Neovim 0.11)."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import encoding, open_doc, pos, units
from tests.lsp.project import Project

RULE = """\
---
paths:
  - 'app/Café/**'
  - 'app/Ünï/😀/**'
---

# Café ☕

## Entrée ✓ 😀
Prix en centimes.
"""


async def test_encoding_is_negotiated(client: LanguageClient) -> None:
    expected = "utf-16" if client.client_name == "visual-studio-code" else "utf-8"  # type: ignore[attr-defined]
    assert encoding(client) == expected


async def test_ranges_in_non_ascii_text(client: LanguageClient, proj: Project) -> None:
    proj.write("app/Café/Ünïcode.php", "<?php\n")
    proj.write(".ai/rules/cafe.md", RULE)
    diags = await open_doc(client, proj.uri(".ai/rules/cafe.md"), RULE)
    (nothing,) = [d for d in diags if d.code == "glob-matches-nothing"]
    assert nothing.range.start == pos(3, 4)
    assert nothing.range.end == pos(3, 4 + units(client, "'app/Ünï/😀/**'"))

    (d,) = await open_doc(client, proj.uri("app/Café/Ünïcode.php"), "<?php // é😀\n")
    assert "Entrée ✓ 😀" in d.message
    entry = (d.related_information or [])[1]
    assert entry.location.range.end == pos(8, units(client, "## Entrée ✓ 😀"))

    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=proj.uri(".ai/rules/cafe.md")),
        position=pos(3, units(client, "  - 'app/Ünï/😀/"))))
    assert hover is not None and hover.range is not None
    assert hover.range.end.character == 4 + units(client, "'app/Ünï/😀/**'")


async def test_completion_range_after_non_ascii(client: LanguageClient, proj: Project) -> None:
    proj.write("app/Café/Ünïcode.php", "<?php\n")
    text = "---\npaths:\n  - 'app/Café/'\n---\n"
    proj.write(".ai/rules/cafe.md", text)
    uri = proj.uri(".ai/rules/cafe.md")
    await open_doc(client, uri, text)
    cursor = units(client, "  - 'app/Café/")
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=pos(2, cursor)))
    assert isinstance(result, types.CompletionList)
    item = next(i for i in result.items if i.label == "app/Café/Ünïcode.php")
    assert isinstance(item.text_edit, types.TextEdit)
    assert item.text_edit.range == types.Range(start=pos(2, 5), end=pos(2, cursor))


SEPARATORS = ("---\npaths:\n  - 'app/Models/**'\n---\n\n# Seps\n\n## One\n"
              "a line\u2028separator and a form\x0cfeed stay on one editor line\n\n## Two\nx\n")


async def test_lines_are_the_editors_lines(client: LanguageClient, proj: Project) -> None:
    """U+2028 and form feeds break lines for str.splitlines, not for editors (LSP)."""
    proj.write(".ai/rules/seps.md", SEPARATORS)
    two = SEPARATORS.split("\n").index("## Two")  # the editor's line of the second entry
    uri = proj.uri(".ai/rules/seps.md")
    await open_doc(client, uri, SEPARATORS)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert symbols is not None
    assert [s.selection_range.start.line for s in symbols  # type: ignore[union-attr]
            ] == [two - 3, two]
    (d,) = await open_doc(client, proj.uri("app/Models/Invoice.php"), "<?php\n")
    entry_lines = [r.location.range.start.line for r in d.related_information or []
                   if r.location.uri == uri]
    assert entry_lines == [5, two - 3, two]
