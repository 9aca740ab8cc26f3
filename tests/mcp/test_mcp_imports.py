"""MCP's `rules-for-path` names the files agents load for the path through `@` imports: in a
Laravel project with Boost's `CLAUDE.md`, the rules index Claude Code imports at start."""

from __future__ import annotations

from pathlib import Path

from tests.boost_project import boost_project, import_line
from tests.mcp.mcp_support import rulelens_client, text_of


async def test_rules_for_path_names_the_index_claude_code_imports(tmp_path: Path) -> None:
    project = boost_project(tmp_path / "shop")
    async with rulelens_client(project) as client:
        result = await client.call_tool("rules-for-path", {"path": "app/Models/User.php"})
    assert not result.is_error
    text = text_of(result)
    assert text.startswith("# .ai/rules/models.md\n")  # Boost's rule first, as before
    tail = text[text.index("Files agents also load for app/Models/User.php through `@` imports:"):]
    [line] = [x for x in tail.splitlines() if x.startswith("- `.ai/rules/index.md`: ")]
    assert f"Claude Code at start, imported by `CLAUDE.md:{import_line()}`" in line


async def test_no_import_section_without_imports(tmp_path: Path) -> None:
    project = boost_project(tmp_path / "shop")
    claude = project / "CLAUDE.md"
    claude.write_text(claude.read_text().replace("open @.ai/rules/index.md", "open `.ai/rules/index.md`"))
    async with rulelens_client(project) as client:
        result = await client.call_tool("rules-for-path", {"path": "app/Models/User.php"})
    assert "through `@` imports" not in text_of(result)
