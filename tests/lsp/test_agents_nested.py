"""Rule folders below the root in the editor: a nested Cursor folder, a nested Windsurf folder
and a Continue `rules.md` reach the hover, the code lens and `rulesForPath` for their own files,
and only for them."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import open_doc
from tests.lsp.test_agents_editor import _hover, _section

FILES = {
    "backend/.cursor/rules/api.mdc": "---\nglobs: api/*.py\n---\n# Backend API\n",
    "web/.windsurf/rules/tsx.md": '---\ntrigger: glob\nglobs: ["*.tsx"]\n---\n# Web\n',
    "lib/rules.md": '---\nglobs: "*.py"\n---\n# Lib\n',
    "backend/api/views.py": "x = 1\n", "api/views.py": "x = 1\n", "web/App.tsx": "x\n",
    "lib/core/x.py": "x = 1\n",
}


@pytest.fixture
def nest(tmp_path: Path) -> Path:
    root = tmp_path / "nest"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@pytest.fixture
def folders(nest: Path) -> list[Path]:
    return [nest]


async def _section_for(client: LanguageClient, nest: Path, rel: str) -> str:
    """The hover's section on other agents; empty when the hover has none (nothing loads)."""
    await open_doc(client, (nest / rel).as_uri(), (nest / rel).read_text())
    text = await _hover(client, nest, rel)
    return _section(text) if text is not None and "In other agents" in text else ""


async def test_hover_shows_nested_rules_for_their_folder_only(client: LanguageClient, nest: Path) -> None:
    assert "backend/.cursor/rules/api.mdc" in await _section_for(client, nest, "backend/api/views.py")
    assert "backend/.cursor/rules/api.mdc" not in await _section_for(client, nest, "api/views.py")
    assert "web/.windsurf/rules/tsx.md" in await _section_for(client, nest, "web/App.tsx")
    assert "lib/rules.md" in await _section_for(client, nest, "lib/core/x.py")


async def test_code_lens_counts_nested_rules(client: LanguageClient, nest: Path) -> None:
    rel = "backend/api/views.py"
    await open_doc(client, (nest / rel).as_uri(), (nest / rel).read_text())
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=(nest / rel).as_uri())))
    titles = [lens.command.title for lens in lenses or [] if lens.command is not None]
    assert any(t.startswith("Also loaded by: ") and "Cursor (1)" in t for t in titles), titles
