"""A stdio proxy that corrupts a language server's messages, to prove the editor tests can fail.

    lsp_proxy.py MODES SERVER-COMMAND...

MODES is a comma-separated list of:
- `entry`: rewrite the fixture's entry title in everything the server sends (diagnostics,
  hover), as a server that reads the wrong rule would;
- `encoding`: drop `positionEncoding` from the initialize result, so the editor assumes
  UTF-16 while the server counts UTF-8 (wrong columns on non-ASCII lines);
- `actions`: drop the "Record a project rule" code actions;
- `record`: change the title of every `rulelens.recordRule` on its way to the server, as a
  server that records the wrong text would.

Only the tests' `RULELENS_EDITOR_BREAK` setting puts this between an editor and the server.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

# Run as a script by the editors: make `tests` importable for the one framer.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.jsonrpc import read_message, write_message


def from_server(message: dict[str, Any], modes: set[str]) -> dict[str, Any]:
    if "entry" in modes:
        text = json.dumps(message, ensure_ascii=False)
        message = json.loads(text.replace("Money is stored as integer cents",
                                          "Money is stored as floats"))
    result = message.get("result")
    if "encoding" in modes and isinstance(result, dict):
        capabilities = result.get("capabilities")
        if isinstance(capabilities, dict):
            capabilities.pop("positionEncoding", None)
    if "actions" in modes and isinstance(result, list):
        message["result"] = [a for a in result if not (
            isinstance(a, dict) and str(a.get("title", "")).startswith("Record a project rule"))]
    return message


def from_client(message: dict[str, Any], modes: set[str]) -> dict[str, Any]:
    params = message.get("params")
    if ("record" in modes and message.get("method") == "workspace/executeCommand"
            and isinstance(params, dict) and params.get("command") == "rulelens.recordRule"):
        for arg in params.get("arguments") or []:
            if isinstance(arg, dict) and isinstance(arg.get("title"), str):
                arg["title"] += " (broken)"
    return message


def pump(source: IO[bytes], sink: IO[bytes], change: Any, modes: set[str]) -> None:
    while (message := read_message(source)) is not None:
        if message:  # {} is a frame without Content-Length: nothing to forward
            write_message(sink, change(message, modes))
    sink.close()


def main(argv: list[str]) -> int:
    modes = set(argv[1].split(","))
    server = subprocess.Popen(argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert server.stdin is not None and server.stdout is not None
    up = threading.Thread(target=pump, args=(sys.stdin.buffer, server.stdin, from_client, modes),
                          daemon=True)
    up.start()
    pump(server.stdout, sys.stdout.buffer, from_server, modes)
    return server.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
