"""Hover on source files: entries, the glob that matched, links; never a `command:` link."""

from __future__ import annotations

import html
import re

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import open_doc, pos
from tests.lsp.project import Project


async def _hover(client: LanguageClient, uri: str, line: int = 0) -> types.Hover | None:
    return await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=pos(line, 0)))


async def test_hover_shows_entries_glob_and_links(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri("app/Models/Invoice.php")
    await open_doc(client, uri, proj.read("app/Models/Invoice.php"))
    result = await _hover(client, uri)
    assert result is not None
    assert isinstance(result.contents, types.MarkupContent)
    assert result.contents.kind == types.MarkupKind.Markdown
    text = result.contents.value
    assert "matched by `app/Models/**`" in text
    assert "Money is integer cents" in text and "Store amounts as integer cents" in text
    assert "Cast timestamps to immutable dates." in text
    models = proj.uri(".ai/rules/models.md")
    assert f"]({models}#L6)" in text  # the `# Models` heading is line 6
    assert f"[Money is integer cents]({models}#L8)" in text


async def test_hover_is_only_on_the_first_line_by_default(
    client: LanguageClient, proj: Project,
) -> None:
    uri = proj.uri("app/Models/Invoice.php")
    await open_doc(client, uri, proj.read("app/Models/Invoice.php"))
    assert await _hover(client, uri, line=2) is None


@pytest.mark.init({"rulelens": {"hover": "anywhere"}})
async def test_hover_anywhere_setting(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri("app/Models/Invoice.php")
    await open_doc(client, uri, proj.read("app/Models/Invoice.php"))
    assert await _hover(client, uri, line=2) is not None


async def test_hover_without_rules_is_empty(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri("routes/web.php")
    await open_doc(client, uri, "<?php\n")
    assert await _hover(client, uri) is None


EVIL = """\
---
paths:
  - 'app/Models/**'
---

# Evil

## Click me
Run [this](command:workbench.action.terminal.new) or [that](COMMAND:evil?%5B%5D)
or <a href="c&#111;mmand&#58;x">html</a> or [tab](comm&#9;and:x) or <command:auto>.
"""


async def test_hover_never_contains_command_links(client: LanguageClient, proj: Project) -> None:
    proj.write(".ai/rules/evil.md", EVIL)
    uri = proj.uri("app/Models/Invoice.php")
    await open_doc(client, uri, "<?php\n")
    result = await _hover(client, uri)
    assert result is not None and isinstance(result.contents, types.MarkupContent)
    text = result.contents.value
    assert "Click me" in text
    decoded = re.sub(r"[\t\n\r ]", "", html.unescape(text))
    assert not re.search(r"(?i)command:", decoded), text
