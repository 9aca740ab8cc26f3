"""Recording from the editor: the prompting form, the fallback forms, and errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.edits import apply_workspace_edit
from tests.lsp.helpers import diagnostics_after, open_doc, published
from tests.lsp.project import Project, make_project

SOURCE = "app/Models/Invoice.php"
NEW_SOURCE = "resources/js/money.ts"


async def _actions(client: LanguageClient, uri: str) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=0, character=0),
                          end=types.Position(line=0, character=0)),
        context=types.CodeActionContext(diagnostics=[])))
    return [a for a in result or [] if isinstance(a, types.CodeAction)]


def _cli_record(root: Path, glob: str, title: str, note: str) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "rulelens", "--root", str(root), "record", "--glob", glob,
         "--title", title, "--note", note], capture_output=True, text=True, check=True)
    return out.stdout.strip()


async def test_actions_offer_file_folder_and_kind(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri(SOURCE)
    await open_doc(client, uri, "<?php\n")
    titles = [a.title for a in await _actions(client, uri)]
    assert titles == [
        "Record a project rule for app/Models/Invoice.php",
        "Record a project rule for app/Models/**",
        "Record a project rule for app/Models/*.php",
    ]


async def test_prompting_record_writes_what_the_cli_writes(
    client: LanguageClient, proj: Project, tmp_path: Path,
) -> None:
    uri = proj.uri(NEW_SOURCE)
    assert await open_doc(client, uri, "export const cents = 1;\n") == []
    action = (await _actions(client, uri))[2]
    assert action.command is not None and action.edit is None
    assert action.command.command == "rulelens.recordRule"
    (args,) = action.command.arguments or []
    assert args["glob"] == "resources/js/*.ts"
    # The client prompts; the person answers; the client sends the command back.
    answered: dict[str, Any] = {**args, "title": "Format money with formatCents",
                                "note": "Never divide by 100 in components.\n## not a heading"}
    seen = published(client, uri)
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=action.command.command, arguments=[answered]))
    assert result["message"] == "Recorded rule in .ai/rules/js.md: Format money with formatCents."
    twin = make_project(tmp_path / "twin")
    assert _cli_record(twin.root, answered["glob"], answered["title"], answered["note"]) == (
        result["message"])
    for rel in (".ai/rules/js.md", ".ai/rules/index.md"):
        assert proj.path(rel).read_bytes() == twin.path(rel).read_bytes()
    shown = client.shown_documents[-1]
    assert shown.uri == proj.uri(".ai/rules/js.md")
    lines = proj.read(".ai/rules/js.md").splitlines()
    assert shown.selection is not None
    assert lines[shown.selection.start.line] == "## Format money with formatCents"
    (d,) = await diagnostics_after(client, uri, seen)
    assert "Format money with formatCents" in d.message


async def test_record_into_existing_file_adds_entry(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri(SOURCE)
    await open_doc(client, uri, "<?php\n")
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="rulelens.recordRule",
        arguments=[{"glob": "app/Models/*.php", "title": "Scopes", "note": "Name scopes well.",
                    "uri": uri}]))
    assert result["file"] == ".ai/rules/models.md" and result["created"] is False
    text = proj.read(".ai/rules/models.md")
    assert text.startswith("---\npaths:\n  - 'app/Models/**'\n  - 'app/Models/*.php'\n---\n")
    assert text.endswith("\n\n## Scopes\nName scopes well.\n")


async def test_record_error_is_reported_not_raised(client: LanguageClient, proj: Project) -> None:
    before = proj.read(".ai/rules/models.md")
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="rulelens.recordRule",
        arguments=[{"glob": "app/Models/**", "title": " ", "note": ""}]))
    message = ("A rule needs a non-empty glob, title, and note. "
               "Missing or empty: title, note.")
    assert result == {"error": message}
    assert client.messages[-1].message == message
    assert client.messages[-1].type == types.MessageType.Error
    assert proj.read(".ai/rules/models.md") == before


def _no_show_document(caps: types.ClientCapabilities) -> None:
    """A client that cannot show documents, nor resolve code actions (edits come eagerly)."""
    assert caps.window is not None and caps.text_document is not None
    caps.window.show_document = None
    assert caps.text_document.code_action is not None
    caps.text_document.code_action.resolve_support = None


async def _fallback_edit(client: LanguageClient, action: types.CodeAction) -> types.WorkspaceEdit:
    if action.edit is None:
        action = await client.code_action_resolve_async(action)
    assert action.edit is not None
    return action.edit


@pytest.mark.init({"rulelens": {"prompt": False}})
async def test_fallback_skeleton_in_existing_file(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri(SOURCE)
    await open_doc(client, uri, "<?php\n")
    action = (await _actions(client, uri))[2]  # app/Models/*.php: same area as models.md
    assert action.title == "Record a project rule for app/Models/*.php"
    edit = await _fallback_edit(client, action)
    apply_workspace_edit(edit, client)
    text = proj.read(".ai/rules/models.md")
    assert text.startswith("---\npaths:\n  - 'app/Models/**'\n  - 'app/Models/*.php'\n---\n")
    assert text.endswith("Cast timestamps to immutable dates.\n\n## New rule title\n"
                         "What an agent must know before editing these files.\n")
    assert "## Money is integer cents\nStore amounts" in text


@pytest.mark.caps.with_args(_no_show_document)
async def test_fallback_creates_new_file_without_show_document(
    client: LanguageClient, proj: Project,
) -> None:
    uri = proj.uri(NEW_SOURCE)
    await open_doc(client, uri, "export const cents = 1;\n")
    action = (await _actions(client, uri))[1]
    assert action.title == "Record a project rule for resources/js/**"
    assert action.command is None  # no showDocument: nothing to run (ALE would run only it)
    assert action.edit is not None  # no resolve support: the edit comes with the action
    edit = action.edit
    assert edit.document_changes is not None
    assert isinstance(edit.document_changes[0], types.CreateFile)
    apply_workspace_edit(edit, client)
    assert proj.read(".ai/rules/js.md") == (
        "---\npaths:\n  - 'resources/js/**'\n---\n\n# Js\n\n## New rule title\n"
        "What an agent must know before editing these files.\n")
    assert not proj.path(".ai/rules/index.md").read_text().count("js.md")  # not recorded yet


async def test_command_without_title_applies_skeleton(client: LanguageClient, proj: Project) -> None:
    """A client that forwards the command without prompting gets the skeleton applied."""
    uri = proj.uri(NEW_SOURCE)
    await open_doc(client, uri, "export const cents = 1;\n")
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="rulelens.recordRule", arguments=[{"glob": "resources/js/*.ts", "uri": uri}]))
    assert result["skeleton"] is True
    (edit,) = client.applied_edits  # type: ignore[attr-defined]
    apply_workspace_edit(edit, client)
    assert "## New rule title" in proj.read(".ai/rules/js.md")
    assert client.shown_documents[-1].uri == proj.uri(".ai/rules/js.md")


@pytest.mark.init({"rulelens": {"prompt": False}})
async def test_fallback_refuses_what_record_refuses(client: LanguageClient, proj: Project) -> None:
    path = proj.path(".ai/rules/models.md")
    path.write_bytes(path.read_bytes().replace(b"# Models", b"# Mod\xe8ls"))
    uri = proj.uri(SOURCE)
    await open_doc(client, uri, "<?php\n")
    action = (await _actions(client, uri))[1]  # app/Models/**: owned by the broken file
    resolved = await client.code_action_resolve_async(action)
    assert resolved.edit is None
    assert client.messages[-1].type == types.MessageType.Error
    assert client.messages[-1].message.startswith("Cannot record into .ai/rules/models.md: ")


@pytest.mark.caps.with_args(_no_show_document)
async def test_eager_fallback_disables_refused_targets(client: LanguageClient, proj: Project) -> None:
    path = proj.path(".ai/rules/models.md")
    path.write_bytes(path.read_bytes().replace(b"# Models", b"# Mod\xe8ls"))
    uri = proj.uri(SOURCE)
    await open_doc(client, uri, "<?php\n")
    actions = {a.title: a for a in await _actions(client, uri)}
    refused = actions.get("Record a project rule for app/Models/**")
    if client.client_name == "visual-studio-code":  # type: ignore[attr-defined]
        assert refused is not None and refused.disabled is not None and refused.edit is None
        assert refused.disabled.reason.startswith("Cannot record into .ai/rules/models.md")
    else:  # no disabledSupport: no edit, a command that says why when it is picked
        assert refused is not None and refused.edit is None and refused.command is not None
        assert refused.command.command == "rulelens.recordRule"


async def test_an_action_that_widens_a_rule_file_says_so_in_its_title(
        client: LanguageClient, proj: Project) -> None:
    """Issue 44 (and Boost #1034): recording `app/Jobs/**` into a file whose `paths` name one job
    makes that file's entries apply to every job; the action's title says so before it is picked."""
    proj.write(".ai/rules/jobs.md", "---\npaths:\n  - 'app/Jobs/SendInvoice.php'\n---\n\n# Jobs\n\n"
                                    "## Retry twice\nSendInvoice retries twice.\n")
    proj.write("app/Jobs/SendInvoice.php", "<?php\n")
    proj.write("app/Jobs/Prune.php", "<?php\n")
    uri = proj.uri("app/Jobs/Prune.php")
    await open_doc(client, uri, "<?php\n")
    titles = [a.title for a in await _actions(client, uri)]
    assert ("Record a project rule for app/Jobs/** (widens .ai/rules/jobs.md: its 1 existing entry then "
            "applies to app/Jobs/** too)") in titles, titles
    # The file's own glob widens it too: SendInvoice's entry would apply to Prune.php.
    assert all("(widens .ai/rules/jobs.md" in t for t in titles), titles
