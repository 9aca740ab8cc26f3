"""The hover and `rulelens/rulesForPath` name files agents import with `@path`: in a Laravel
project with Boost's `CLAUDE.md`, Claude Code imports `.ai/rules/index.md` at session start."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.boost_project import boost_project, import_line
from tests.lsp.helpers import open_doc, pos
from tests.lsp.test_rules_for_path import rules_for

PATH = "app/Models/User.php"


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    return boost_project(tmp_path / "shop")


@pytest.fixture
def folders(shop: Path) -> list[Path]:
    return [shop]


async def _hover(client: LanguageClient, shop: Path) -> str:
    uri = (shop / PATH).as_uri()
    await open_doc(client, uri, (shop / PATH).read_text())
    result = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=pos(0, 0)))
    assert result is not None and isinstance(result.contents, types.MarkupContent)
    return result.contents.value


async def test_hover_shows_the_index_imported_at_start(client: LanguageClient, shop: Path) -> None:
    text = await _hover(client, shop)
    # Claude Code's entry, alone or shared with the agents that load the same files the same way
    blocks = text.split("\n\n")
    assert any("Claude Code" in b for b in blocks), text
    section = next(block for block in blocks
                   if re.match(r"\*\*([^*]*, )?Claude Code( and [^*]*)?\*\* · ", block))
    index_uri = (shop / ".ai/rules/index.md").as_uri()
    assert "Claude Code" in section.split(" · ")[0] and " · 2 files" in section
    assert "confirmed in Claude Code 2.1.337" in section  # each agent of a shared entry keeps its own mark
    assert f"[.ai/rules/index.md]({index_uri}) imported by `CLAUDE.md:{import_line()}`, at start" in section


async def test_rules_for_path_says_imported_by(client: LanguageClient, shop: Path) -> None:
    uri = (shop / PATH).as_uri()
    await open_doc(client, uri, (shop / PATH).read_text())
    data = await rules_for(client, uri)
    assert data is not None
    claude = next(view for view in data["agents"] if view["id"] == "claude-code")
    loads = {load["file"]: load for load in claude["loads"]}
    assert loads[".ai/rules/index.md"]["importedBy"] == f"CLAUDE.md:{import_line()}"
    assert loads[".ai/rules/index.md"]["how"] == "always"
    assert "importedBy" not in loads["CLAUDE.md"]
