"""Inside rule files: check's diagnostics from both readings, completion, glob hover, symbols."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import diagnostics_after, open_doc, pos, published, units
from tests.lsp.project import Project

BROKEN = """\
---
paths:
  - **/*.php
---

# PHP

## Strict types
Declare strict types in every PHP file.
"""


async def test_invalid_yaml_is_an_error_and_rules_still_apply(
    client: LanguageClient, proj: Project,
) -> None:
    proj.write(".ai/rules/php.md", BROKEN)
    diags = await open_doc(client, proj.uri(".ai/rules/php.md"), BROKEN)
    (bad,) = [d for d in diags if d.code == "frontmatter-invalid"]
    assert bad.severity == types.DiagnosticSeverity.Error
    assert bad.range.start == pos(2, 4) and bad.range.end == pos(2, 4 + len("**/*.php"))
    assert "Quote the glob: - '**/*.php'" in bad.message
    # The lenient reading keeps serving the file's rules, and every other rule file too.
    (d,) = await open_doc(client, proj.uri("app/Models/Invoice.php"), "<?php\n")
    assert ".ai/rules/php.md (**/*.php): Strict types" in d.message
    assert ".ai/rules/models.md" in d.message


async def test_glob_matching_nothing_and_dialect_hint(client: LanguageClient, proj: Project) -> None:
    text = "---\npaths:\n  - 'app/Nope/**'\n  - '*.php'\n---\n\n# X\n\n## A\nB\n"
    proj.write(".ai/rules/x.md", text)
    diags = await open_doc(client, proj.uri(".ai/rules/x.md"), text)
    by_code = {d.code: d for d in diags}
    nothing = by_code["glob-matches-nothing"]
    # `*.php` matches files: the dead `app/Nope/**` beside it is `info` (issue 44)
    assert nothing.severity == types.DiagnosticSeverity.Information
    assert "1 of 2 globs match no file here" in nothing.message
    assert nothing.range.start.line == 2
    dialect = by_code["glob-dialect"]
    assert dialect.severity == types.DiagnosticSeverity.Information
    assert dialect.range.start.line == 3


async def test_diagnostics_follow_the_buffer(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri(".ai/rules/models.md")
    text = proj.read(".ai/rules/models.md")
    assert await open_doc(client, uri, text) == []
    seen = published(client, uri)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(
            text=text + "\n## Empty one\n")]))
    diags = await diagnostics_after(client, uri, seen)
    assert [d.code for d in diags] == ["entry-empty"]


async def _complete(client: LanguageClient, uri: str, line: int,
                    character: int) -> types.CompletionList:
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=pos(line, character)))
    assert isinstance(result, types.CompletionList)
    return result


async def test_glob_completion_in_paths(client: LanguageClient, proj: Project) -> None:
    text = "---\npaths:\n  - 'app/'\n  - app/Mo\n---\n\n# X\n\n## A\nB\n"
    proj.write(".ai/rules/x.md", text)
    uri = proj.uri(".ai/rules/x.md")
    await open_doc(client, uri, text)
    result = await _complete(client, uri, 2, len("  - 'app/"))
    labels = [(i.label, i.detail) for i in result.items]
    assert labels == [
        ("app/Http/", "1 file"), ("app/Models/", "2 files"), ("app/helpers.php", "1 file"),
        ("app/**", "4 files"), ("app/*.php", "1 file"),
    ]
    edit = result.items[1].text_edit
    assert isinstance(edit, types.TextEdit)
    assert edit.new_text == "app/Models/"
    assert edit.range.start == pos(2, 5) and edit.range.end == pos(2, 9)
    # An unquoted item is rewritten as a quoted scalar when YAML needs quotes.
    result = await _complete(client, uri, 3, len("  - app/Mo"))
    star = next(i for i in result.items if i.label == "app/**")
    assert isinstance(star.text_edit, types.TextEdit)
    assert star.text_edit.new_text == "'app/**'"
    assert star.text_edit.range.start == pos(3, 4) and star.text_edit.range.end == pos(3, 10)


async def test_no_completion_outside_paths(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri(".ai/rules/models.md")
    await open_doc(client, uri, proj.read(".ai/rules/models.md"))
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=pos(7, 3)))
    assert result is None


async def test_hover_on_glob_counts_and_examples(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri(".ai/rules/models.md")
    await open_doc(client, uri, proj.read(".ai/rules/models.md"))
    result = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=pos(2, 8)))
    assert result is not None and isinstance(result.contents, types.MarkupContent)
    text = result.contents.value
    assert "matches **2** files of 11" in text
    assert "`app/Models/Customer.php`" in text and "`app/Models/Invoice.php`" in text
    assert result.range == types.Range(start=pos(2, 4), end=pos(2, 4 + units(client, "'app/Models/**'")))


async def test_document_symbols_one_per_entry(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri(".ai/rules/models.md")
    await open_doc(client, uri, proj.read(".ai/rules/models.md"))
    result = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert result is not None
    names = [s.name for s in result]
    assert names == ["Money is integer cents", "Dates are immutable"]
    first = result[0]
    assert isinstance(first, types.DocumentSymbol)
    assert first.selection_range.start.line == 7
    assert first.range.start.line == 7 and first.range.end.line == 9


async def test_workspace_symbols_search_titles_and_notes(
    client: LanguageClient, proj: Project,
) -> None:
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="invoice"))
    assert found is not None
    assert [(s.name, s.location.uri) for s in found] == [
        ("Customer", proj.uri(".ai/rules/glossary.md"))]
    every = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=""))
    assert every is not None and len(every) == 4


async def test_open_rule_file_keeps_disk_level_problems(
    client: LanguageClient, proj: Project, tmp_path: Path,
) -> None:
    latin = proj.path(".ai/rules/latin.md")
    latin.write_bytes(b"---\npaths:\n  - 'app/**'\n---\n\n# Caf\xe9\n\n## A\nB\n")
    decoded = latin.read_bytes().decode("utf-8", errors="replace")
    diags = await open_doc(client, proj.uri(".ai/rules/latin.md"), decoded)
    assert "encoding-invalid" in {d.code for d in diags}
    outside = tmp_path / "outside.md"
    outside.write_text("---\npaths:\n  - 'app/**'\n---\n\n# Outside\n\n## Secret\nNot ours.\n")
    proj.path(".ai/rules/linked.md").symlink_to(outside)
    diags = await open_doc(client, proj.uri(".ai/rules/linked.md"), outside.read_text())
    assert "rule-symlink" in {d.code for d in diags}


async def test_another_agents_key_gets_a_rename_quick_fix(client: LanguageClient, proj: Project) -> None:
    from tests.lsp.edits import apply_text_edits, edits_of

    rel = ".ai/rules/cursorish.md"
    text = "---\nglobs: 'app/**'\n---\n# Cursorish\n\n## A\nB\n"
    proj.write(rel, text)
    uri = proj.uri(rel)
    found = await open_doc(client, uri, text)
    [d] = [d for d in found if d.code == "paths-key-other"]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=pos(1, 0), end=pos(1, 0)),
        context=types.CodeActionContext(diagnostics=[d])))
    [fix] = [a for a in actions or [] if isinstance(a, types.CodeAction) and a.title.startswith("Rename")]
    assert apply_text_edits(text, edits_of(fix.edit, uri), "utf-16") == text.replace("globs:", "paths:")


async def test_globs_yaml_cannot_read_get_a_quote_quick_fix(client: LanguageClient, proj: Project) -> None:
    """`- **/*.php` (an alias to YAML) and `- 0o17` are quoted; a quoted item stays as it is."""
    from tests.lsp.edits import apply_text_edits, edits_of

    rel = ".ai/rules/php.md"
    text = BROKEN.replace("  - **/*.php\n", "  - **/*.php\n  - 'app/**'\n  - it's/*.md\n")
    proj.write(rel, text)
    uri = proj.uri(rel)
    found = await open_doc(client, uri, text)
    bad = [d for d in found if d.code == "frontmatter-invalid"]
    assert bad
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=pos(0, 0), end=pos(len(text.splitlines()), 0)),
        context=types.CodeActionContext(diagnostics=bad)))
    [fix] = [a for a in actions or [] if isinstance(a, types.CodeAction) and a.title.startswith("Quote the globs")]
    fixed = apply_text_edits(text, edits_of(fix.edit, uri), "utf-16")
    assert "paths:\n  - '**/*.php'\n  - 'app/**'\n  - 'it''s/*.md'\n---\n" in fixed
    # Asked without the diagnostics (a client that has not received them yet): the same fix.
    again = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=pos(0, 0), end=pos(1, 0)), context=types.CodeActionContext(diagnostics=[])))
    assert [a.title for a in again or [] if a.title.startswith("Quote the globs")] == [fix.title]
    proj.write(rel, fixed)
    clean = await open_doc(client, proj.uri(".ai/rules/other.md"), fixed)
    assert not [d for d in clean if d.code in ("frontmatter-invalid", "paths-invalid")]
    # Nothing to offer on a file without those findings.
    none = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=proj.uri(".ai/rules/models.md")),
        range=types.Range(start=pos(0, 0), end=pos(5, 0)), context=types.CodeActionContext(diagnostics=[])))
    assert not [a for a in none or [] if a.title.startswith("Quote the globs")]
