"""Byte-level clients for the real servers: LSP (Content-Length frames) and MCP (JSON lines).

LSP frames go through the tests' one framer (`tests/jsonrpc.py`). Hand-rolled on purpose: the fuzz tests must send frames no well-behaved client library would
(bad JSON, wrong types, unknown methods), and the writer tests drive many servers from
threads, which a small synchronous client does without event-loop juggling.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from tests import jsonrpc

TIMEOUT = 60.0
Json = dict[str, Any]


def rulelens_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "rulelens", *args]


def server_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("RULELENS_LSP_RAISE", None)  # the guard must behave as in production
    env.pop("RULELENS_TEST_CRASH_AT", None)
    env.update(extra or {})
    return env


class ServerDied(AssertionError):
    pass


class _Wire:
    """A server process, a reader thread, responses by id and notifications in order."""

    def __init__(self, argv: list[str], cwd: Path, stderr: Path, env: dict[str, str] | None) -> None:
        self._stderr = stderr.open("wb")
        self.stderr_path = stderr
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self._stderr, env=server_env(env))
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in: BinaryIO = self.proc.stdin
        self._out: BinaryIO = self.proc.stdout
        self._ids = itertools.count(1)
        self._cond = threading.Condition()
        self.lock = self._cond
        self.responses: dict[Any, Json] = {}
        self.notifications: list[Json] = []
        self.garbage: list[bytes] = []  # anything on stdout that is not a protocol message
        self._write_lock = threading.Lock()
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()

    # -- transport (per protocol) --------------------------------------------------------
    def _read_message(self) -> Json | None:
        raise NotImplementedError

    def _frame(self, body: bytes) -> bytes:
        raise NotImplementedError

    # -- shared --------------------------------------------------------------------------
    def _read_loop(self) -> None:
        while True:
            try:
                msg = self._read_message()
            except (OSError, ValueError):
                msg = None
            if msg is None:
                with self._cond:
                    self._cond.notify_all()
                return
            if "method" in msg and "id" in msg:
                self._answer_server_request(msg)
                continue
            with self._cond:
                if "method" in msg:
                    self.notifications.append(msg)
                else:
                    self.responses[msg.get("id")] = msg
                self._cond.notify_all()

    def _answer_server_request(self, msg: Json) -> None:
        method = msg["method"]
        result: Any = None
        if method == "workspace/configuration":
            result = [None for _ in msg.get("params", {}).get("items", [])]
        elif method == "workspace/applyEdit":
            result = {"applied": True}
        elif method == "window/showDocument":
            result = {"success": True}
        self.send_json({"jsonrpc": "2.0", "id": msg["id"], "result": result})

    def send_raw(self, data: bytes) -> None:
        with self._write_lock:
            try:
                self._in.write(data)
                self._in.flush()
            except (BrokenPipeError, OSError) as exc:
                raise ServerDied(f"server stdin closed: {self.stderr_tail()}") from exc

    def send_json(self, msg: Json) -> None:
        self.send_raw(self._frame(json.dumps(msg).encode("utf-8")))

    def notify(self, method: str, params: Any = None) -> None:
        msg: Json = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send_json(msg)

    def send_request(self, method: str, params: Any = None, raw_id: Any = None) -> Any:
        rid = next(self._ids) if raw_id is None else raw_id
        msg: Json = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send_json(msg)
        return rid

    def wait_response(self, rid: Any, timeout: float = TIMEOUT) -> Json:
        return self.wait_for(lambda: self.responses.pop(rid, None), timeout, f"response {rid}")

    def request(self, method: str, params: Any = None, timeout: float = TIMEOUT) -> Json:
        return self.wait_response(self.send_request(method, params), timeout)

    def wait_for(self, probe: Callable[[], Any], timeout: float, what: str) -> Any:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                found = probe()
                if found is not None:
                    return found
                if self.proc.poll() is not None or not self._reader.is_alive():
                    raise ServerDied(f"server died waiting for {what} (rc={self.proc.poll()}): "
                                     f"{self.stderr_tail()}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no {what} within {timeout}s: {self.stderr_tail()}")
                self._cond.wait(min(left, 0.5))

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stderr_tail(self, n: int = 3000) -> str:
        if not self._stderr.closed:
            self._stderr.flush()
        try:
            return self.stderr_path.read_text(errors="replace")[-n:]
        except OSError:
            return ""

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)
        self._stderr.close()


class Lsp(_Wire):
    """`rulelens serve` on stdio."""

    def __init__(self, cwd: Path, stderr: Path, env: dict[str, str] | None = None) -> None:
        super().__init__(rulelens_cmd("serve"), cwd, stderr, env)

    def _read_message(self) -> Json | None:
        return jsonrpc.read_message(self._out, self.garbage)

    def _frame(self, body: bytes) -> bytes:
        return jsonrpc.frame(body)

    def initialize(self, root: Path, watch: bool = False, encoding: str = "utf-16") -> Json:
        caps: Json = {
            "general": {"positionEncodings": [encoding]},
            "textDocument": {
                "hover": {"contentFormat": ["markdown", "plaintext"]},
                "publishDiagnostics": {"relatedInformation": True},
                "synchronization": {"didSave": True},
            },
            "workspace": {"workspaceFolders": True, "applyEdit": True,
                          "didChangeWatchedFiles": {"dynamicRegistration": watch}},
            "window": {"showDocument": {"support": True}},
        }
        result = self.request("initialize", {
            "processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": caps,
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
        })
        assert "result" in result, result
        self.notify("initialized", {})
        return result

    def open(self, path: Path, text: str | None = None, version: int = 1) -> str:
        uri = path.as_uri()
        body = path.read_text(encoding="utf-8", errors="replace") if text is None else text
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "markdown" if uri.endswith(".md") else "php",
            "version": version, "text": body}})
        return uri

    def diagnostics_count(self, uri: str) -> int:
        with self._cond:
            return sum(1 for n in self.notifications if _diag_uri(n) == uri)

    def wait_diagnostics(self, uri: str, after: int = 0,
                         accept: Callable[[list[Json]], bool] = lambda d: True,
                         timeout: float = TIMEOUT) -> list[Json]:
        """The first publication for `uri`, past the first `after`, that `accept` takes."""

        def probe() -> list[Json] | None:
            seen = [n for n in self.notifications if _diag_uri(n) == uri][after:]
            for n in seen:
                diags: list[Json] = n["params"]["diagnostics"]
                if accept(diags):
                    return diags
            return None

        return self.wait_for(probe, timeout, f"diagnostics for {uri}")  # type: ignore[no-any-return]

    def record(self, glob: str, title: str, note: str, timeout: float = TIMEOUT) -> Json:
        return self.request("workspace/executeCommand", {
            "command": "rulelens.recordRule",
            "arguments": [{"glob": glob, "title": title, "note": note}]}, timeout)

    def shutdown(self) -> None:
        if self.alive():
            try:
                self.request("shutdown", None, timeout=20)
                self.notify("exit")
                self.proc.wait(timeout=20)
            except (ServerDied, TimeoutError, subprocess.TimeoutExpired):
                pass
        self.kill()


def _diag_uri(n: Json) -> str | None:
    if n.get("method") != "textDocument/publishDiagnostics":
        return None
    return n.get("params", {}).get("uri")  # type: ignore[no-any-return]


class Mcp(_Wire):
    """`rulelens mcp` on stdio: newline-delimited JSON-RPC."""

    def __init__(self, root: Path, stderr: Path, env: dict[str, str] | None = None) -> None:
        super().__init__(rulelens_cmd("--root", str(root), "mcp"), root, stderr, env)
        init = self.request("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "rulelens-reliability", "version": "0"}})
        assert "result" in init, init
        self.notify("notifications/initialized")

    def _read_message(self) -> Json | None:
        while True:
            line = self._out.readline()
            if not line:
                return None
            if line.strip():
                try:
                    return json.loads(line)  # type: ignore[no-any-return]
                except ValueError:
                    self.garbage.append(line)

    def _frame(self, body: bytes) -> bytes:
        return body + b"\n"

    def record(self, glob: str, title: str, note: str, timeout: float = TIMEOUT) -> Json:
        return self.request("tools/call", {"name": "record-rule", "arguments": {
            "glob": glob, "title": title, "note": note}}, timeout)

    def close(self) -> None:
        if self.alive():
            try:
                self._in.close()
                self.proc.wait(timeout=20)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()


def tool_text(response: Json) -> tuple[bool, str]:
    """(is_error, text) of a tools/call response."""
    result = response.get("result")
    assert isinstance(result, dict), response
    text = "".join(c.get("text", "") for c in result.get("content", []))
    return bool(result.get("isError")), text
