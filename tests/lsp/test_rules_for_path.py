"""`rulelens/rulesForPath` and `rulelens/suggestGlobs` (the data behind clients' own views), read-only mode."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import open_doc
from tests.lsp.project import Project


def plain(value: object) -> object:
    """pygls hands custom results back as namedtuple-like Objects; compare them as JSON."""
    if hasattr(value, "_asdict"):
        value = value._asdict()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


async def rules_for(client: LanguageClient, uri: str) -> dict | None:  # type: ignore[type-arg]
    result = await client.protocol.send_request_async("rulelens/rulesForPath", {"uri": uri})
    return plain(result)  # type: ignore[return-value]


async def test_rules_for_path_gives_match_json_shape(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri("app/Models/Invoice.php")
    await open_doc(client, uri, "<?php\n")
    data = await rules_for(client, uri)
    assert data is not None
    [rule] = data["rules"]
    assert data["path"] == "app/Models/Invoice.php"
    assert rule["file"] == ".ai/rules/models.md"
    assert rule["uri"] == proj.uri(".ai/rules/models.md")
    assert rule["globs"] == ["app/Models/**"]
    assert [(e["title"], e["line"]) for e in rule["entries"]] == [
        ("Money is integer cents", 8), ("Dates are immutable", 11)]
    assert rule["title"] == "Models" and rule["line"] == 6
    assert rule["matched"] == ["app/Models/**"]
    assert rule["agentsSee"] is True and rule["agentsMissBecause"] is None
    assert {k: data[k] for k in ("uri", "root", "rootUri", "rulesFolder", "kind")} == {
        "uri": uri, "root": str(proj.root), "rootUri": proj.root.as_uri(),
        "rulesFolder": ".ai/rules", "kind": "source"}


async def test_rule_files_and_the_index_have_a_kind_and_no_rules(
    client: LanguageClient, proj: Project,
) -> None:
    for rel, kind in ((".ai/rules/models.md", "rule"), (".ai/rules/index.md", "index")):
        data = await rules_for(client, proj.uri(rel))
        assert data is not None and (data["kind"], data["rules"], data["path"]) == (kind, [], rel)


async def test_suggest_globs_in_order_with_counts(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri("app/Models/Invoice.php")
    result = plain(await client.protocol.send_request_async("rulelens/suggestGlobs", {"uri": uri}))
    assert result == {"globs": [{"glob": "app/Models/Invoice.php", "count": 1},
                                {"glob": "app/Models/**", "count": 2},
                                {"glob": "app/Models/*.php", "count": 2}]}
    outside = await client.protocol.send_request_async("rulelens/suggestGlobs",
                                                      {"uri": "untitled:Untitled-1"})
    assert outside is None


@pytest.mark.init({"rulelens": {"severity": "off"}})
async def test_rules_for_path_works_with_the_diagnostic_off(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri("app/Http/Controllers/InvoiceController.php")
    assert await open_doc(client, uri, "<?php\n") == []
    data = await rules_for(client, uri)
    assert data is not None and len(data["rules"]) == 1


async def test_rules_for_path_outside_every_root_is_null(client: LanguageClient, proj: Project) -> None:
    assert await rules_for(client, "untitled:Untitled-1") is None


@pytest.mark.init({"rulelens": {"readOnly": True}})
async def test_read_only_offers_no_writes_and_refuses_commands(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri("app/Models/Invoice.php")
    assert len(await open_doc(client, uri, "<?php\n")) == 1
    before = {p: p.read_bytes() for p in (proj.root / ".ai/rules").iterdir()}
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
        context=types.CodeActionContext(diagnostics=[])))
    assert not [a for a in actions or [] if "Record a project rule" in a.title]
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="rulelens.recordRule", arguments=[{"glob": "app/Models/**", "title": "t", "note": "n"}]))
    assert "read-only" in result["error"]
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="rulelens.writeIndex", arguments=[{}]))
    assert "read-only" in result["error"]
    assert {p: p.read_bytes() for p in (proj.root / ".ai/rules").iterdir()} == before


async def test_an_unindexed_rule_names_its_fix_and_a_record_says_rules_changed(
    client: LanguageClient, proj: Project,
) -> None:
    """A rule file missing from the index carries `writeIndex`; a record notifies the client."""
    changed: list[object] = []
    client.feature("rulelens/rulesChanged")(lambda params: changed.append(plain(params)))
    proj.write(".ai/rules/extra.md", "---\npaths:\n  - 'app/Models/**'\n---\n\n# Extra\n\n## One\nx\n")
    uri = proj.uri("app/Models/Invoice.php")
    await open_doc(client, uri, "<?php\n")
    data = await rules_for(client, uri)
    assert data is not None
    rules = {r["file"]: r for r in data["rules"]}
    extra = rules[".ai/rules/extra.md"]
    assert (extra["agentsSee"], extra["agentsMissFix"]) == (False, "writeIndex")
    assert extra["bytes"] == len(proj.read(".ai/rules/extra.md").encode())
    assert rules[".ai/rules/models.md"]["agentsMissFix"] is None
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="rulelens.writeIndex", arguments=[{"root": proj.root.as_uri()}]))
    assert result["written"] is True
    for _ in range(100):
        if changed:
            break
        await asyncio.sleep(0.05)
    assert {"roots": [proj.root.as_uri()]} in changed
    data = await rules_for(client, uri)
    assert data is not None and all(r["agentsSee"] for r in data["rules"])
