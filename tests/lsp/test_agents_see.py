"""Issue 10: every surface says, per rule file, whether agents see it (and if not, why)."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from rulelens.rules.repository import RuleRepository
from tests.lsp.helpers import open_doc, pos
from tests.lsp.project import Project
from tests.lsp.test_rules_for_path import rules_for

UNQUOTED = "---\npaths:\n  - **/*.php\n---\n\n# PHP\n\n## Strict types\nDeclare strict types.\n"
REASON = "quote the glob: - '**/*.php'"
SEEN_LINE = "Agents do not see this file"


def _with_unquoted_php(proj: Project) -> str:
    proj.write(".ai/rules/php.md", UNQUOTED)
    RuleRepository(proj.root).write_index()  # Boost's reading: no row for php.md
    return proj.uri("app/Models/Invoice.php")


async def test_diagnostic_marks_the_file_agents_miss(client: LanguageClient, proj: Project) -> None:
    uri = _with_unquoted_php(proj)
    (d,) = await open_doc(client, uri, "<?php\n")
    lines = d.message.splitlines()
    php = next(i for i, line in enumerate(lines) if ".ai/rules/php.md" in line)
    assert SEEN_LINE in lines[php + 1] and REASON in lines[php + 1]
    models = next(i for i, line in enumerate(lines) if ".ai/rules/models.md" in line)
    assert models + 1 == len(lines) or SEEN_LINE not in lines[models + 1]
    assert d.message.count(SEEN_LINE) == 1


async def test_hover_and_code_lens_mark_it_too(client: LanguageClient, proj: Project) -> None:
    uri = _with_unquoted_php(proj)
    await open_doc(client, uri, "<?php\n")
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=pos(0, 0)))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    text = hover.contents.value
    assert text.count(SEEN_LINE) == 1 and REASON in text
    assert text.index("php.md") < text.index(SEEN_LINE)
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    titles = sorted(lens.command.title for lens in lenses or [] if lens.command)
    assert titles == ["Rules: Models (2 entries)", "Rules: PHP (1 entry) · not seen by agents"]


async def test_rules_for_path_says_who_sees_what(client: LanguageClient, proj: Project) -> None:
    uri = _with_unquoted_php(proj)
    await open_doc(client, uri, "<?php\n")
    data = await rules_for(client, uri)
    assert data is not None
    by_file = {r["file"]: r for r in data["rules"]}
    assert by_file[".ai/rules/models.md"]["agentsSee"] is True
    assert by_file[".ai/rules/models.md"]["agentsMissBecause"] is None
    assert by_file[".ai/rules/php.md"]["agentsSee"] is False
    assert REASON in by_file[".ai/rules/php.md"]["agentsMissBecause"]
    assert by_file[".ai/rules/php.md"]["matched"] == ["**/*.php"]
