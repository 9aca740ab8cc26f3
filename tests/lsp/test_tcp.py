"""`rulelens serve --tcp`: the same server over a socket."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from tests.lsp.project import make_project


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _connect(client: LanguageClient, port: int, server: subprocess.Popen[bytes]) -> None:
    """Retry until the server listens (or exits); no fixed delay."""
    while True:
        try:
            await client.start_tcp("127.0.0.1", port)
            return
        except OSError:
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
            await asyncio.sleep(0.05)


async def test_tcp_session(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj")
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "rulelens", "serve", "--tcp", "--host", "127.0.0.1",
         "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "RULELENS_LSP_RAISE": "1"})
    client = LanguageClient("tcp-test", "1")
    got: asyncio.Future[types.PublishDiagnosticsParams] = (
        asyncio.get_running_loop().create_future())

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(ls: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        if not got.done():
            got.set_result(params)

    try:
        await asyncio.wait_for(_connect(client, port, server), 30)
        await client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=proj.root.as_uri()))
        client.initialized(types.InitializedParams())
        uri = proj.uri("app/Models/Invoice.php")
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="php", version=1,
                                                 text="<?php\n")))
        params = await asyncio.wait_for(got, 30)
        assert params.uri == uri
        (d,) = params.diagnostics
        assert "models.md" in d.message
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=30)
    assert out == b""  # TCP mode writes nothing to stdout
