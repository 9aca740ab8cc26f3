"""Starting code-server with the VSIX for one test, and running the browser script against it."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.vscode.conftest import HERE, OUTPUT, Tools

WAIT_S = 120.0


def quiet_settings() -> dict[str, object]:
    """A quiet workbench: no welcome page, no chat panel, no update checks."""
    return {
        "workbench.startupEditor": "none",
        "workbench.secondarySideBar.defaultVisibility": "hidden",
        "workbench.tips.enabled": False,
        "chat.disableAIFeatures": True,
        "extensions.autoUpdate": False,
        "extensions.autoCheckUpdates": False,
        "telemetry.telemetryLevel": "off",
        "security.workspace.trust.enabled": False,
        "editor.hover.delay": 100,
        "php.validate.enable": False,
    }


def home_dirs(tmp: Path) -> dict[str, str]:
    """XDG folders under `tmp`, so that nothing the editor or the browser runs writes to ~.

    code-server keeps its config and logs there, VS Code its device id (XDG_CACHE_HOME), and
    Chromium its crash reports (XDG_CONFIG_HOME) and dconf cache.
    """
    dirs = {name: tmp / "home" / sub for name, sub in (
        ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"),
        ("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache"))}
    for folder in dirs.values():
        folder.mkdir(parents=True, exist_ok=True)
    return {name: str(folder) for name, folder in dirs.items()}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def code_server(tools: Tools, tmp: Path, workspace: Path, path: str,
                settings: dict[str, object] | None = None,
                trust: bool = False) -> Iterator[dict[str, Any]]:
    """code-server on a free loopback port with only our extension; stopped as a process group.

    `path` is the PATH the editor (and so the extension's server discovery) sees. With `trust`,
    workspace trust is on and the folder opens in Restricted Mode (untrusted).
    """
    user_data = tmp / "user-data"
    extensions = tmp / "extensions"
    (user_data / "User").mkdir(parents=True)
    trust_settings: dict[str, object] = {
        "security.workspace.trust.enabled": True,
        "security.workspace.trust.startupPrompt": "never",
        "security.workspace.trust.banner": "never",
    } if trust else {}
    (user_data / "User" / "settings.json").write_text(
        json.dumps({**quiet_settings(), **trust_settings, **(settings or {})}, indent=2))
    # Machine-scoped settings (server paths) of a remote window come from the server's side.
    (user_data / "Machine").mkdir()
    (user_data / "Machine" / "settings.json").write_text(json.dumps(settings or {}, indent=2))
    state_file = tmp / "state.json"
    # VSCODE_CLI=1: as when VS Code is started from a terminal, the server does not replace
    # PATH with the login shell's (whose rc files would bring their own `rulelens`).
    env = {**os.environ, **home_dirs(tmp), "PATH": path, "VSCODE_CLI": "1",
           "RULELENS_E2E_STATE": str(state_file)}
    config = tmp / "code-server.yaml"  # else it writes one to $XDG_CONFIG_HOME/code-server
    config.write_text("auth: none\ncert: false\n")
    common = ["--config", str(config), "--user-data-dir", str(user_data),
              "--extensions-dir", str(extensions)]
    subprocess.run([str(tools.code_server), *common, "--install-extension", str(tools.vsix),
                    "--force"], env=env, check=True, timeout=180, capture_output=True)
    installed = [p.name for p in extensions.iterdir() if p.is_dir()]
    assert any(name.startswith("rulelens.rulelens-") for name in installed), installed
    port = _free_port()
    log_path = tmp / "code-server.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [str(tools.code_server), "--auth", "none", "--bind-addr", f"127.0.0.1:{port}",
             "--disable-telemetry", "--disable-update-check",
             *([] if trust else ["--disable-workspace-trust"]), *common, str(workspace)],
            env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            _wait_for_port(proc, port, log_path)
            yield {"url": f"http://127.0.0.1:{port}", "state": state_file}
        finally:
            _stop_group(proc)
            _copy_logs(user_data, log_path)


def _wait_for_port(proc: subprocess.Popen[bytes], port: int, log_path: Path) -> None:
    deadline = time.monotonic() + WAIT_S
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"code-server did not start:\n{log_path.read_text()}")
            time.sleep(0.2)


def _stop_group(proc: subprocess.Popen[bytes]) -> None:
    """code-server forks an extension host, file watcher and agent host: end them all."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=20)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)  # whatever of the group is left
    proc.wait()


def _copy_logs(user_data: Path, server_log: Path) -> None:
    """Keep code-server's and the extension's logs next to the screenshots, for diagnosis."""
    target = OUTPUT / "logs"
    target.mkdir(parents=True, exist_ok=True)
    if server_log.exists():
        shutil.copy(server_log, target / "code-server.log")
    logs = user_data / "logs"
    for found in logs.rglob("*rulelens*.log") if logs.exists() else []:
        shutil.copy(found, target / found.name)


def run_browser(tools: Tools, tmp: Path, config: dict[str, Any]) -> dict[str, Any]:
    """Run e2e.mjs with `config`; its result, after asserting that it succeeded."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    config = {"chromium": str(tools.chromium), "screenshotDir": str(OUTPUT),
              "waitMs": int(WAIT_S * 1000), **config}
    config_file = tmp / "e2e.json"
    config_file.write_text(json.dumps(config))
    run = subprocess.run([str(tools.node), str(HERE / "e2e.mjs"), str(config_file)],
                         cwd=HERE, env={**os.environ, **home_dirs(tmp)},
                         capture_output=True, text=True, timeout=900)
    lines = [line for line in run.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"the browser script printed no result:\n{run.stdout}\n{run.stderr}"
    result: dict[str, Any] = json.loads(lines[-1][len("RESULT "):])
    assert result["ok"], f"{result.get('error')}\nsteps: {result['steps']}\n{run.stderr}"
    return result
