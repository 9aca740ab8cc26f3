"""The server bundled in the VSIX: complete, pure Python, and serving from the bundle alone.

scripts/bundle_server.py fills vscode-extension/bundled/libs (pip, from PyPI at the pins of
.ci/constraints.txt; a no-op when they have not changed). These tests start the bundled server
with `-I -S`: no site-packages at all, so an import the bundle lacks fails here instead of being
found in the interpreter that runs the tests, and with `-B`: another test worker may be running
the bundle script, which must find no bytecode to remove. The VSIX's contents are checked in
test_vscode_e2e.py, the file whose worker builds the VSIX.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

import pytest

from tests.jsonrpc import read_message, write_message
from tests.lsp.project import make_project
from tests.vscode.conftest import EXTENSION

LIBS = EXTENSION / "bundled" / "libs"
LAUNCHER = EXTENSION / "bundled" / "tool" / "rulelens_server.py"
COMPILED = re.compile(r"\.(so|pyd|dylib|dll)$")


def _bundle_module() -> Any:
    sys.path.insert(0, str(EXTENSION / "scripts"))
    try:
        import bundle_server  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    return bundle_server


@pytest.fixture(scope="module")
def bundle() -> Path:
    run = subprocess.run([sys.executable, str(EXTENSION / "scripts" / "bundle_server.py")],
                         capture_output=True, text=True, check=False, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    return LIBS


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_the_bundle_lists_every_dependency_of_the_server() -> None:
    """rulelens's dependencies (pyproject.toml) but mcp, which only `rulelens mcp` imports, are bundled."""
    requires = [r for r in importlib.metadata.requires("rulelens") or [] if "extra ==" not in r]
    wanted = {_norm(re.split(r"[<>=!~;\[ ]", dep, maxsplit=1)[0]) for dep in requires}
    assert "pygls" in wanted and "mcp" in wanted, requires
    bundled = {_norm(p) for p in _bundle_module().PACKAGES}
    assert wanted - {"mcp"} <= bundled, sorted(wanted - {"mcp"} - bundled)
    assert "mcp" not in bundled


def test_the_bundle_is_pure_python(bundle: Path) -> None:
    compiled = [p for p in bundle.rglob("*") if COMPILED.search(p.name)]
    assert not compiled, compiled
    # PyYAML without its C module: the pure-Python loader is what rulelens uses.
    run = subprocess.run([sys.executable, "-I", "-S", "-B", "-c",
                          f"import sys; sys.path.insert(0, {str(bundle)!r}); import yaml; "
                          "print(yaml.__file__, yaml.__with_libyaml__)"],
                         capture_output=True, text=True, check=True)
    assert run.stdout.split() == [str(bundle / "yaml" / "__init__.py"), "False"]


def _interpreter(minor: int) -> str | None:
    """A Python 3.<minor> that runs: on PATH, or one of pyenv's (whose shims may refuse to)."""
    candidates = [shutil.which(f"python3.{minor}"),
                  *sorted(str(p) for p in (Path.home() / ".pyenv" / "versions").glob(f"3.{minor}.*/bin/python3"))]
    for candidate in filter(None, candidates):
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            if subprocess.run([candidate, "-c", ""], capture_output=True, check=False,
                              timeout=30).returncode == 0:
                return candidate
    return None


def _pythons() -> list[str]:
    """This interpreter, and Python 3.10 (the oldest rulelens supports) when there is one."""
    oldest = _interpreter(10)
    return [sys.executable, *([oldest] if oldest else [])]


def _reader(stdout: IO[bytes]) -> queue.Queue[dict[str, Any]]:
    inbox: queue.Queue[dict[str, Any]] = queue.Queue()

    def pump() -> None:
        with contextlib.suppress(ValueError):
            while (message := read_message(stdout)) is not None:
                inbox.put(message)

    threading.Thread(target=pump, daemon=True).start()
    return inbox


def _answer(inbox: queue.Queue[dict[str, Any]], stdin: IO[bytes], msg_id: int) -> dict[str, Any]:
    """The response to `msg_id`, answering the server's own requests with null on the way."""
    while True:
        message = inbox.get(timeout=30)
        if "method" in message and "id" in message:
            write_message(stdin, {"jsonrpc": "2.0", "id": message["id"], "result": None})
        elif message.get("id") == msg_id:
            return message


@pytest.mark.parametrize("python", _pythons(), ids=lambda p: "this python" if p == sys.executable else "python3.10")
def test_the_bundled_server_serves_from_the_bundle_alone(bundle: Path, tmp_path: Path, python: str) -> None:
    proj = make_project(tmp_path / "proj")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    server = subprocess.Popen([python, "-I", "-S", "-B", str(LAUNCHER), "serve"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path)
    assert server.stdin is not None and server.stdout is not None and server.stderr is not None
    inbox = _reader(server.stdout)
    try:
        write_message(server.stdin, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": proj.root.as_uri(), "capabilities": {}}})
        init = _answer(inbox, server.stdin, 1)
        assert "result" in init, init
        version = subprocess.run([sys.executable, "-m", "rulelens", "--version"], capture_output=True,
                                 text=True, check=True).stdout.split()[-1]
        assert init["result"]["serverInfo"] == {"name": "rulelens", "version": version}
        write_message(server.stdin, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        uri = proj.uri("app/Models/Invoice.php")
        write_message(server.stdin, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "php", "version": 1,
                             "text": (proj.root / "app/Models/Invoice.php").read_text()}}})
        write_message(server.stdin, {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
                                     "params": {"textDocument": {"uri": uri},
                                                "position": {"line": 0, "character": 0}}})
        hover = _answer(inbox, server.stdin, 2)
        assert "Money is integer cents" in hover["result"]["contents"]["value"], hover
        write_message(server.stdin, {"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
        _answer(inbox, server.stdin, 3)
        write_message(server.stdin, {"jsonrpc": "2.0", "method": "exit"})
        assert server.wait(timeout=30) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        err = server.stderr.read().decode(errors="replace")
        assert "Traceback" not in err, err


def test_the_start_script_names_the_python_it_needs(tmp_path: Path) -> None:
    """An interpreter older than 3.10 gets one line that says so, not a SyntaxError from rulelens."""
    old = _interpreter(9)
    if old is None:
        pytest.skip("no Python 3.9 on this machine")
    run = subprocess.run([old, "-I", "-B", str(LAUNCHER), "serve"], capture_output=True, text=True,
                         check=False, timeout=30, stdin=subprocess.DEVNULL)
    assert run.returncode == 3
    assert run.stderr.startswith("rulelens needs Python 3.10 or newer;"), run.stderr
    assert "is Python 3.9." in run.stderr
