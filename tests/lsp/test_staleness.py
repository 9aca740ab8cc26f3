"""`stale-path` and `stale-name` in the editor: published after the fast diagnostics (the name
search runs off the request path), with quick fixes that replace a moved path or remove a dead
mention; applying one makes the finding go away."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.git_repo import commit, git
from tests.lsp.edits import apply_text_edits, edits_of
from tests.lsp.helpers import (
    diagnostics_after,
    encoding,
    open_doc,
    published,
    with_document_changes,
    without_document_changes,
)
from tests.lsp.project import Project, make_project

RULE = ".ai/rules/billing.md"
TEXT = """\
---
paths:
  - 'app/**'
---

# Billing

## Invoices
Invoices are built in `app/Billing/Ledger.php` and formatted by `LegacyPriceHelper`.

Old places:
- `app/Legacy/`
"""


MARKER = "\nAlso `app/Nowhere/Marker.php`.\n"


@pytest.fixture
def proj(tmp_path: Path) -> Project:
    """The project, in git, with a history that shows what the rule names was there: the
    mentioned files and the `LegacyPriceHelper` class were committed, then deleted or moved."""
    project = make_project(tmp_path / "proj")
    git(project.root, "init", "-q")
    gone = {"app/Billing/Ledger.php": "<?php\n\nclass Ledger {}\n", "app/Legacy/Old.php": "<?php\n",
            "app/Nowhere/Marker.php": "<?php\n",
            "app/LegacyPriceHelper.php": "<?php\n\nclass LegacyPriceHelper {}\nclass LegacyPriceHelpe {}\n"}
    for rel, text in gone.items():
        project.write(rel, text)
    commit(project.root, "start")
    git(project.root, "rm", "-q", "--", *gone)
    commit(project.root, "move billing, drop the legacy helpers")
    return project


def _marked(diags: list[types.Diagnostic]) -> bool:
    return any(d.code == "stale-path" and "Nowhere" in d.message for d in diags)


def _stale(diags: list[types.Diagnostic]) -> bool:
    return any(d.code in ("stale-path", "stale-name") for d in diags)


async def _open_until_stale(client: LanguageClient, proj: Project, text: str = TEXT,
                            ) -> tuple[str, list[types.Diagnostic], list[types.Diagnostic]]:
    """Open the rule file: its first publication, and the later one with staleness findings."""
    proj.write("app/Payments/Ledger.php", "<?php\n\nclass Ledger {}\n")
    proj.write(RULE, text)
    uri = proj.uri(RULE)
    seen = published(client, uri)
    first = await open_doc(client, uri, text)
    later = first if _stale(first) else await diagnostics_after(client, uri, seen + 1, _stale)
    return uri, first, later


async def _actions(client: LanguageClient, uri: str, d: types.Diagnostic) -> list[types.CodeAction]:
    got = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=d.range,
        context=types.CodeActionContext(diagnostics=[d])))
    # Only this finding's fixes (a new rule file also gets the index fix).
    return [a for a in got or [] if isinstance(a, types.CodeAction)
            and [(x.code, x.range) for x in a.diagnostics or []] == [(d.code, d.range)]]


async def _apply(client: LanguageClient, uri: str, text: str, action: types.CodeAction,
                 version: int = 2) -> tuple[str, list[types.Diagnostic]]:
    """Apply the action's edit as the editor would, and wait for the diagnostics of the result."""
    new = apply_text_edits(text, edits_of(action.edit, uri), encoding(client))
    seen = published(client, uri)
    # A new dead path at the end, which only the worker can report: its publication is the one
    # with the whole truth about this text (the fast one keeps earlier findings in place, and
    # the worker publishes only what differs from that).
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=new + MARKER)]))
    return new, await diagnostics_after(client, uri, seen, _marked)


async def test_staleness_findings_come_after_the_fast_diagnostics(client: LanguageClient,
                                                                   proj: Project) -> None:
    _, first, later = await _open_until_stale(client, proj)
    assert not _stale(first), "the name search must not hold up the first publication"
    assert {d.code for d in later} >= {"stale-path", "stale-name"}
    [moved] = [d for d in later if d.code == "stale-path" and "Billing" in d.message]
    line = TEXT.splitlines()[8]
    assert moved.range.start == types.Position(line=8, character=line.index("app/Billing"))
    assert moved.data == {"mention": "app/Billing/Ledger.php", "replacements": ["app/Payments/Ledger.php"]}


async def test_replace_a_moved_path(client: LanguageClient, proj: Project) -> None:
    uri, _, later = await _open_until_stale(client, proj)
    [d] = [d for d in later if d.code == "stale-path" and "Billing" in d.message]
    [replace] = [a for a in await _actions(client, uri, d) if a.title.startswith("Replace")]
    assert replace.title == "Replace with `app/Payments/Ledger.php`" and replace.is_preferred
    new, after = await _apply(client, uri, TEXT, replace)
    assert "built in `app/Payments/Ledger.php` and" in new
    assert not [x for x in after if x.code == "stale-path" and "Ledger" in x.message]
    assert [x for x in after if x.code == "stale-path" and "Legacy" in x.message]


async def test_remove_a_dead_list_item_takes_the_line(client: LanguageClient, proj: Project) -> None:
    uri, _, later = await _open_until_stale(client, proj)
    [d] = [d for d in later if d.code == "stale-path" and "Legacy" in d.message]
    actions = await _actions(client, uri, d)
    assert [a.title for a in actions] == ["Remove the line naming `app/Legacy/`"]
    new, after = await _apply(client, uri, TEXT, actions[0])
    assert new == TEXT.replace("- `app/Legacy/`\n", "")
    assert not [x for x in after if x.code == "stale-path" and "Legacy" in x.message]


async def test_remove_a_dead_name_inside_a_sentence(client: LanguageClient, proj: Project) -> None:
    uri, _, later = await _open_until_stale(client, proj)
    [d] = [d for d in later if d.code == "stale-name"]
    [remove] = await _actions(client, uri, d)
    assert remove.title == "Remove `LegacyPriceHelper`"
    new, after = await _apply(client, uri, TEXT, remove)
    assert "and formatted by.\n" in new
    assert not [x for x in after if x.code == "stale-name"]


async def test_no_fix_when_the_text_moved_on(client: LanguageClient, proj: Project) -> None:
    """A diagnostic of an older version whose range no longer holds the mention gets no edit."""
    uri, _, later = await _open_until_stale(client, proj)
    [d] = [d for d in later if d.code == "stale-path" and "Billing" in d.message]
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(
            text=TEXT.replace("are built in", "are made in"))]))
    assert await _actions(client, uri, d) == []


@pytest.mark.caps.with_args(with_document_changes)
async def test_versioned_edit_where_the_client_takes_one(client: LanguageClient, proj: Project) -> None:
    uri, _, later = await _open_until_stale(client, proj)
    [d] = [d for d in later if d.code == "stale-path" and "Billing" in d.message]
    [replace] = [a for a in await _actions(client, uri, d) if a.title.startswith("Replace")]
    assert replace.edit is not None and replace.edit.changes is None
    [change] = replace.edit.document_changes or []
    assert isinstance(change, types.TextDocumentEdit) and change.text_document.version == 1


@pytest.mark.caps.with_args(without_document_changes)
async def test_plain_changes_for_clients_without_versioned_edits(client: LanguageClient,
                                                                 proj: Project) -> None:
    uri, _, later = await _open_until_stale(client, proj)
    [d] = [d for d in later if d.code == "stale-path" and "Billing" in d.message]
    [replace] = [a for a in await _actions(client, uri, d) if a.title.startswith("Replace")]
    assert replace.edit is not None and replace.edit.document_changes is None
    new, after = await _apply(client, uri, TEXT, replace)
    assert "`app/Payments/Ledger.php`" in new
    assert not [x for x in after if x.code == "stale-path" and "Ledger" in x.message]


@pytest.mark.init({"readOnly": True})
async def test_read_only_workspace_offers_no_edit(client: LanguageClient, proj: Project) -> None:
    uri, _, later = await _open_until_stale(client, proj)
    [d] = [d for d in later if d.code == "stale-path" and "Billing" in d.message]
    assert await _actions(client, uri, d) == []


async def test_typing_elsewhere_keeps_the_findings_until_the_new_ones_come(client: LanguageClient,
                                                                             proj: Project) -> None:
    """The publication right after an edit keeps earlier findings whose mention did not move
    (no blinking while typing), and drops those whose text changed."""
    uri, _, later = await _open_until_stale(client, proj)
    before = {(d.code, d.range.start.line) for d in later if _stale([d])}
    seen = published(client, uri)
    typed = TEXT.replace("- `app/Legacy/`", "- `app/Legacy/` x") + "More prose.\n"
    typed = typed.replace("`LegacyPriceHelper`", "`LegacyPriceHelpe`")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=typed)]))
    first = await diagnostics_after(client, uri, seen)
    kept = {(d.code, d.range.start.line) for d in first if _stale([d])}
    assert kept == before - {("stale-name", 8)}
    final = await diagnostics_after(client, uri, seen + 1)
    assert ("stale-name", 8) in {(d.code, d.range.start.line) for d in final}  # the new name, searched
