"""Malformed requests are answered (InvalidParams), never dropped; the server keeps serving."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

from tests.jsonrpc import read_message, write_message
from tests.lsp.project import make_project


def _send(stdin: IO[bytes], message: dict[str, Any]) -> None:
    write_message(stdin, message)


def _read(stdout: IO[bytes]) -> dict[str, Any]:
    message = read_message(stdout)
    assert message is not None, "the server closed its output"
    return message


def _reader(stdout: IO[bytes]) -> queue.Queue[dict[str, Any]]:
    """Messages from the server, read on a thread so that a missing answer fails, not hangs."""
    inbox: queue.Queue[dict[str, Any]] = queue.Queue()

    def pump() -> None:
        with contextlib.suppress(AssertionError, ValueError):
            while True:
                inbox.put(_read(stdout))

    threading.Thread(target=pump, daemon=True).start()
    return inbox


def _response(inbox: queue.Queue[dict[str, Any]], stdin: IO[bytes],
              msg_id: int) -> dict[str, Any]:
    """The response to `msg_id` (others are kept), answering the server's requests with null."""
    while msg_id not in _STASH:
        message = inbox.get(timeout=30)
        if "method" in message and "id" in message:
            _send(stdin, {"jsonrpc": "2.0", "id": message["id"], "result": None})
        elif "id" in message:
            _STASH[message["id"]] = message
    return _STASH.pop(msg_id)


_STASH: dict[Any, dict[str, Any]] = {}


def _until(inbox: queue.Queue[dict[str, Any]], msg_id: int) -> list[dict[str, Any]]:
    """Every message up to and including the response to `msg_id`."""
    seen = []
    while not seen or seen[-1].get("id") != msg_id:
        seen.append(inbox.get(timeout=30))
    return seen


def test_invalid_params_get_an_error_response(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj")
    server = subprocess.Popen([sys.executable, "-m", "rulelens", "serve"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              env={**os.environ, "RULELENS_LSP_RAISE": "1"})
    assert server.stdin is not None and server.stdout is not None
    inbox = _reader(server.stdout)
    try:
        _send(server.stdin, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": proj.root.as_uri(), "capabilities": {}}})
        assert "capabilities" in _response(inbox, server.stdin, 1)["result"]
        _send(server.stdin, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        _send(server.stdin, {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover"})
        _send(server.stdin, {"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover",
                             "params": {"textDocument": {"uri": "file:///x"},
                                        "position": {"line": "zero", "character": 0}}})
        _send(server.stdin, {"jsonrpc": "2.0", "method": "textDocument/didOpen",
                             "params": {"textDocument": 7}})
        _send(server.stdin, {"jsonrpc": "2.0", "id": 6, "method": "textDocument/didClose",
                             "params": {"textDocument": {"uri": "file:///x"}}})
        assert _response(inbox, server.stdin, 6)["error"]["code"] == -32600
        for msg_id in (2, 3):
            error = _response(inbox, server.stdin, msg_id)["error"]
            assert error["code"] == -32602 and "textDocument/hover" in error["message"]
        uri = proj.uri("app/Models/Invoice.php")
        _send(server.stdin, {"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover",
                             "params": {"textDocument": {"uri": uri},
                                        "position": {"line": 0, "character": 0}}})
        result = _response(inbox, server.stdin, 4)["result"]
        assert "Money is integer cents" in result["contents"]["value"]
        _send(server.stdin, {"jsonrpc": "2.0", "id": 5, "method": "shutdown"})
        _response(inbox, server.stdin, 5)
        _send(server.stdin, {"jsonrpc": "2.0", "method": "exit"})
        assert server.wait(timeout=30) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_a_malformed_frame_is_a_parse_error_not_a_message_to_the_person(tmp_path: Path) -> None:
    """Issue 44: a frame that is not JSON popped "Error in server: …" at the person."""
    proj = make_project(tmp_path / "proj")
    server = subprocess.Popen([sys.executable, "-m", "rulelens", "serve"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert server.stdin is not None and server.stdout is not None
    inbox = _reader(server.stdout)
    try:
        _send(server.stdin, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": proj.root.as_uri(), "capabilities": {}}})
        _response(inbox, server.stdin, 1)
        server.stdin.write(b"Content-Length: 5\r\n\r\n{bad}")
        server.stdin.flush()
        _send(server.stdin, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        seen = _until(inbox, 2)
        assert not [m for m in seen if m.get("method") == "window/showMessage"]
        (parse,) = [m for m in seen if "error" in m and m.get("id") is None]
        assert parse["error"]["code"] == -32700
        _send(server.stdin, {"jsonrpc": "2.0", "method": "exit"})
        assert server.wait(timeout=30) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_notifications_go_to_their_handlers_until_shutdown(tmp_path: Path) -> None:
    """Notifications skip pygls' Protocol checks (wire/protocol.py) and still follow its rules:
    handled while serving, dropped after `shutdown` (all but `exit`)."""
    from rulelens.lsp.wire import protocol

    assert protocol._NOTIFY  # pygls still has the step the short path calls
    proj = make_project(tmp_path / "proj")
    server = subprocess.Popen([sys.executable, "-m", "rulelens", "serve"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert server.stdin is not None and server.stdout is not None
    inbox = _reader(server.stdout)
    opened = {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": proj.uri("app/Models/Invoice.php"), "languageId": "php", "version": 1,
        "text": "<?php\n"}}}
    try:
        _send(server.stdin, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": proj.root.as_uri(), "capabilities": {}}})
        _response(inbox, server.stdin, 1)
        _send(server.stdin, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        _send(server.stdin, opened)
        _send(server.stdin, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        seen = _until(inbox, 2)
        published = [m for m in seen if m.get("method") == "textDocument/publishDiagnostics"]
        assert "Money is integer cents" in json.dumps(published)
        _send(server.stdin, opened)
        _send(server.stdin, {"jsonrpc": "2.0", "method": "exit"})
        assert server.wait(timeout=30) == 0
        late = []
        with contextlib.suppress(queue.Empty):
            while True:  # what the reader still had, up to the end of the server's output
                late.append(inbox.get(timeout=2))
        assert not [m for m in late if m.get("method") == "textDocument/publishDiagnostics"]
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
