"""Glob completion: where the slot is (pure), how a glob is written in it (pure), and the order
of the `dir/*.ext` offers over the wire."""

from __future__ import annotations

import yaml
from lsprotocol import types
from pytest_lsp import LanguageClient

from rulelens.lsp.features.completion import _written, slot_at
from tests.lsp.helpers import open_doc, pos
from tests.lsp.project import Project

LINES = ["---", "paths:", "  - 'app/Mo'", '  - "x', "  - plain # note", "---", "", "# T"]


def test_slot_at_finds_the_value_under_the_cursor() -> None:
    slot = slot_at(LINES, 2, 9)
    assert slot is not None
    assert (slot.start, slot.end, slot.quote, slot.typed) == (5, 11, "'", "app/")
    open_quote = slot_at(LINES, 3, 6)
    assert open_quote is not None and (open_quote.quote, open_quote.typed) == ('"', "x")
    plain = slot_at(LINES, 4, 9)
    assert plain is not None and (plain.start, plain.end, plain.quote) == (4, 9, "")


def test_slot_at_is_none_outside_paths_values() -> None:
    assert slot_at(LINES, 1, 3) is None  # the key
    assert slot_at(LINES, 7, 1) is None  # the body
    assert slot_at(LINES, 2, 2) is None  # before the dash
    assert slot_at(["# no frontmatter"], 0, 1) is None


def test_written_escapes_for_each_quote_style() -> None:
    glob = 'app/it\'s "x"\\y/**'
    for quote, wrap in (("'", "'{}'"), ('"', '"{}"')):
        written = _written(glob, quote)
        assert yaml.safe_load(f"- {wrap.format(written)}") == [glob], quote
    assert _written('a"b', '"') == 'a\\"b'
    assert _written("it's", "'") == "it''s"
    plain = _written("**/x.php", "")
    assert yaml.safe_load(f"- {plain}") == ["**/x.php"]


async def test_kind_offers_come_most_common_extension_first(
    client: LanguageClient, proj: Project,
) -> None:
    for rel in ("lib/a.ts", "lib/b.ts", "lib/c.ts", "lib/d.js", "lib/e.js", "lib/f.css"):
        proj.write(rel, "x\n")
    text = "---\npaths:\n  - 'lib/'\n---\n\n# L\n\n## A\nB\n"
    proj.write(".ai/rules/lib.md", text)
    uri = proj.uri(".ai/rules/lib.md")
    await open_doc(client, uri, text)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=pos(2, len("  - 'lib/"))))
    assert isinstance(result, types.CompletionList)
    kinds = [(i.label, i.detail) for i in result.items if "*" in i.label]
    assert kinds == [("lib/**", "6 files"), ("lib/*.ts", "3 files"), ("lib/*.js", "2 files"),
                     ("lib/*.css", "1 file")]
