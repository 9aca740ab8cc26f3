"""End-to-end harness: the real `rulelens serve` over stdio, driven by pytest-lsp.

Every client fixture is parametrised over the VS Code and Neovim capabilities that pytest-lsp
ships (VS Code negotiates UTF-16, Neovim 0.11 UTF-8), so each test runs against both.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Union

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from tests.lsp.project import Project, make_project

CLIENTS = ["visual-studio-code", "neovim"]


def record_diagnostics(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
    """Keep every publication per URI (the default keeps only the last), and wake waiters."""
    client.diagnostics[params.uri] = params.diagnostics
    client.published.setdefault(params.uri, []).append(list(params.diagnostics))  # type: ignore[attr-defined]
    client.published_event.set()  # type: ignore[attr-defined]


def fix_code_action_union(client: LanguageClient) -> None:
    """lsprotocol 2025.0.0 reads any CodeAction that has a `command` as a Command (its
    `command` field then holds a dict's repr). Real editors read the JSON; our Python client
    needs the union decided by the type of `command`."""
    converter = client.protocol._converter

    def structure(obj: Any, _: type) -> types.Command | types.CodeAction:
        if isinstance(obj.get("command"), str):
            return converter.structure(obj, types.Command)
        return converter.structure(obj, types.CodeAction)

    converter.register_structure_hook(Union[types.Command, types.CodeAction], structure)  # noqa: UP007


def make_client() -> LanguageClient:
    """pytest-lsp's client plus the server→client requests our server sends."""
    client = LanguageClient(converter_factory=default_converter)
    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record_diagnostics
    register_lsp_features(client, features)
    fix_code_action_union(client)
    client.published = {}  # type: ignore[attr-defined]
    client.published_event = asyncio.Event()  # type: ignore[attr-defined]
    client.registrations = []  # type: ignore[attr-defined]
    client.applied_edits = []  # type: ignore[attr-defined]
    client.lens_refreshes = 0  # type: ignore[attr-defined]

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(ls: LanguageClient, params: types.RegistrationParams) -> None:
        ls.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    @client.feature(types.CLIENT_UNREGISTER_CAPABILITY)
    def unregister(ls: LanguageClient, params: types.UnregistrationParams) -> None:
        gone = {u.id for u in params.unregisterations}
        ls.registrations[:] = [r for r in ls.registrations  # type: ignore[attr-defined]
                               if r.id not in gone]

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(ls: LanguageClient,
                   params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        ls.applied_edits.append(params.edit)  # type: ignore[attr-defined]
        return types.ApplyWorkspaceEditResult(applied=True)

    @client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def lens_refresh(ls: LanguageClient, params: None) -> None:
        ls.lens_refreshes += 1  # type: ignore[attr-defined]

    return client


SERVER = ClientServerConfig(
    server_command=[sys.executable, "-m", "rulelens", "serve"],
    server_env={**os.environ, "RULELENS_LSP_RAISE": "1", "PYTHONUNBUFFERED": "1"},
    client_factory=make_client,
)


@pytest.fixture
def proj(tmp_path: Path) -> Project:
    return make_project(tmp_path / "proj")


@pytest.fixture
def folders(proj: Project) -> list[Path]:
    """Workspace folders; override in a test module for multi-root workspaces."""
    return [proj.root]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "init(options): initializationOptions for the client")
    config.addinivalue_line("markers", "caps(fn): a function that edits the client capabilities")


@pytest_lsp.fixture(config=SERVER, params=CLIENTS)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest,
                 folders: list[Path]) -> AsyncIterator[None]:
    caps = client_capabilities(request.param)
    patch = request.node.get_closest_marker("caps")
    if patch is not None:
        patch.args[0](caps)
    init = request.node.get_closest_marker("init")
    result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=caps,
        root_uri=folders[0].as_uri() if folders else None,
        workspace_folders=[types.WorkspaceFolder(uri=f.as_uri(), name=f.name) for f in folders],
        initialization_options=init.args[0] if init is not None else None,
    ))
    lsp_client.init_result = result  # type: ignore[attr-defined]
    lsp_client.client_name = request.param  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()
