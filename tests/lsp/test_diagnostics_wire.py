"""A source file's diagnostics are sent as JSON text joined from pieces kept per rule file: the
frame must be what pygls would have sent for the same objects (every key, no extra one, the
length in bytes), in UTF-16 positions, with non-ASCII text escaped."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.protocol import default_converter

from tests.jsonrpc import read_message, write_message
from tests.lsp.project import make_project

RULE = """\
---
paths:
  - 'app/Models/**'
  - '**/Models/*.php'
---

# Modèles 𝄞 "quoted" \\ back

## Montants en centimes — 𝄞
Store amounts as integer cents.
"""


def _published(stdout: Any, stdin: Any, uri: str) -> dict[str, Any]:
    while True:
        message = read_message(stdout)
        assert message is not None, "the server closed its output"
        if "method" in message and "id" in message:  # a request to the client: answer null
            write_message(stdin, {"jsonrpc": "2.0", "id": message["id"], "result": None})
        elif message.get("method") == "textDocument/publishDiagnostics" \
                and message["params"]["uri"] == uri:
            return message


def test_the_rules_diagnostic_frame_is_what_pygls_would_send(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj", with_index=False)
    proj.write(".ai/rules/modèles.md", RULE)
    server = subprocess.Popen([sys.executable, "-m", "rulelens", "serve"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              env={**os.environ, "RULELENS_LSP_RAISE": "1"})
    assert server.stdin is not None and server.stdout is not None
    try:
        write_message(server.stdin, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": proj.root.as_uri(), "capabilities": {}}})
        while read_message(server.stdout).get("id") != 1:  # type: ignore[union-attr]
            pass
        write_message(server.stdin, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        uri = proj.uri("app/Models/Invoice.php")
        write_message(server.stdin, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "php", "version": 7, "text": "<?php\n"}}})
        message = _published(server.stdout, server.stdin, uri)
    finally:
        server.kill()
        server.wait()

    params = message["params"]
    converter = default_converter()  # type: ignore[no-untyped-call]
    typed = converter.structure(params, types.PublishDiagnosticsParams)
    assert converter.unstructure(typed) == params  # every key pygls sends, and no other
    assert message["jsonrpc"] == "2.0" and set(message) == {"jsonrpc", "method", "params"}
    assert typed.version == 7 and typed.uri == uri
    [diagnostic] = typed.diagnostics
    assert diagnostic.code == "rules-apply" and diagnostic.source == "rulelens"
    assert "• .ai/rules/modèles.md (app/Models/**, **/Models/*.php): Montants en centimes — 𝄞" \
        in diagnostic.message
    related = diagnostic.related_information or []
    rule_uri = proj.uri(".ai/rules/modèles.md")
    mine = [r for r in related if r.location.uri == rule_uri]
    assert [r.message for r in mine] == [
        ".ai/rules/modèles.md applies through app/Models/**, **/Models/*.php",
        'Modèles 𝄞 "quoted" \\ back: Montants en centimes — 𝄞']
    heading = '# Modèles 𝄞 "quoted" \\ back'
    assert mine[0].location.range == types.Range(  # UTF-16: the clef is two units
        start=types.Position(line=6, character=0),
        end=types.Position(line=6, character=len(heading.encode("utf-16-le")) // 2))
