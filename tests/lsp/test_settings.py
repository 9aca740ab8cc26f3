"""Settings under `rulelens`: initializationOptions, didChangeConfiguration, pulled config."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import diagnostics_after, open_doc, published
from tests.lsp.project import Project

URI_REL = "app/Models/Invoice.php"


@pytest.mark.init({"rulelens": {"severity": "warning"}})
async def test_severity_from_initialization_options(client: LanguageClient, proj: Project) -> None:
    (d,) = await open_doc(client, proj.uri(URI_REL), "<?php\n")
    assert d.severity == types.DiagnosticSeverity.Warning


@pytest.mark.init({"rulelens": {"severity": "error"}})
async def test_error_is_never_accepted(client: LanguageClient, proj: Project) -> None:
    (d,) = await open_doc(client, proj.uri(URI_REL), "<?php\n")
    assert d.severity == types.DiagnosticSeverity.Information


@pytest.mark.init({"severity": "hint"})
async def test_unwrapped_options_are_accepted(client: LanguageClient, proj: Project) -> None:
    (d,) = await open_doc(client, proj.uri(URI_REL), "<?php\n")
    assert d.severity == types.DiagnosticSeverity.Hint


async def test_did_change_configuration_republishes(client: LanguageClient, proj: Project) -> None:
    uri = proj.uri(URI_REL)
    assert len(await open_doc(client, uri, "<?php\n")) == 1
    seen = published(client, uri)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"rulelens": {"severity": "off"}}))
    assert await diagnostics_after(client, uri, seen) == []
    seen = published(client, uri)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"rulelens": {"severity": "hint"}}))
    (d,) = await diagnostics_after(client, uri, seen)
    assert d.severity == types.DiagnosticSeverity.Hint


async def test_pulled_configuration(client: LanguageClient, proj: Project) -> None:
    """A client that sends `settings: null` is asked through workspace/configuration."""
    uri = proj.uri(URI_REL)
    assert len(await open_doc(client, uri, "<?php\n")) == 1
    client.set_configuration({"severity": "warning"}, section="rulelens")
    seen = published(client, uri)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    (d,) = await diagnostics_after(client, uri, seen)
    assert d.severity == types.DiagnosticSeverity.Warning


@pytest.mark.init({"rulelens": {"rulesFolder": "docs/rules"}})
async def test_custom_rules_folder(client: LanguageClient, proj: Project) -> None:
    proj.write("docs/rules/routes.md", "---\npaths:\n  - 'routes/*.php'\n---\n\n# Routes\n\n## Named\nName every route.\n")
    (d,) = await open_doc(client, proj.uri("routes/web.php"), "<?php\n")
    assert "docs/rules/routes.md" in d.message
    assert await open_doc(client, proj.uri(URI_REL), "<?php\n") == []
