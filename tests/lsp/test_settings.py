"""Settings under `rulelens`: initializationOptions, didChangeConfiguration, pulled config per folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from rulelens.lsp.workspace.settings import Settings
from tests.lsp.helpers import diagnostics_after, open_doc, published
from tests.lsp.project import Project, make_project

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


# -- Settings.merged (pure) ------------------------------------------------------------------
def test_merged_takes_valid_values_and_ignores_the_rest() -> None:
    base = Settings()
    merged = base.merged({"rulelens": {"severity": "Warning", "codeLens": False, "hover": "off",
                                       "prompt": None, "readOnly": True, "rulesFolder": "docs/rules/"}})
    assert merged == Settings(severity="warning", code_lens=False, hover="off", prompt=None,
                              read_only=True, rules_folder="docs/rules")
    assert base.merged({"severity": "none"}).severity == "off"  # the bare section
    bad = base.merged({"severity": "error", "codeLens": "yes", "hover": "always", "prompt": 1,
                       "rulesFolder": "../elsewhere"})
    assert bad == base
    assert base.merged(None) is base and base.merged([1]) is base
    assert base.merged({"rulesFolder": "/abs"}).rules_folder == base.rules_folder


def test_merged_keeps_what_the_section_does_not_name() -> None:
    first = Settings().merged({"severity": "hint", "codeLens": False})
    assert first.merged({"severity": "warning"}) == Settings(severity="warning", code_lens=False)


# -- one Settings per workspace folder ---------------------------------------------------------
@pytest.fixture
def folders(proj: Project, tmp_path: Path) -> list[Path]:
    return [proj.root, make_project(tmp_path / "quiet").root]


async def test_each_folder_gets_its_own_pulled_settings(
    client: LanguageClient, proj: Project, folders: list[Path],
) -> None:
    quiet = Project(folders[1])
    uri = proj.uri(URI_REL)
    assert len(await open_doc(client, uri, "<?php\n")) == 1  # the start-up pull is answered
    client.set_configuration({"severity": "hint"}, section="rulelens")
    client.set_configuration({"severity": "off"}, section="rulelens", scope_uri=quiet.root.as_uri())
    seen = published(client, uri)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    (d,) = await diagnostics_after(client, uri, seen)
    assert d.severity == types.DiagnosticSeverity.Hint
    assert await open_doc(client, quiet.uri(URI_REL), "<?php\n") == []
