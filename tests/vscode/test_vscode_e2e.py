"""rulelens in real VS Code: code-server with the VSIX installed, driven in headless Chromium.

The test opens a copy of examples/ and a model, checks what a person sees (status bar count,
Problems panel, hover), records a rule through the palette command's quick pick and input
boxes, then checks the rule file, the index and the updated diagnostic. Screenshots go to
test-output/vscode/.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.vscode.conftest import HERE, OUTPUT, REPO, Tools

SOURCE = "app/Models/Invoice.php"
RULE_FILE = ".ai/rules/models.md"
ENTRY = "Money is stored as integer cents"
GLOB = "app/Models/Invoice.php"
TITLE = "Invoices are numbered per year"
NOTE = "Use InvoiceNumber::next() so that numbers restart every January."
WAIT_S = 120.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _settings() -> dict[str, object]:
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
    }


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    shutil.copytree(REPO / "examples", folder)
    return folder


@pytest.fixture
def code_server(tools: Tools, tmp_path: Path, workspace: Path) -> Iterator[dict[str, object]]:
    """code-server on a free loopback port with only our extension; stopped as a process group."""
    user_data = tmp_path / "user-data"
    extensions = tmp_path / "extensions"
    (user_data / "User").mkdir(parents=True)
    (user_data / "User" / "settings.json").write_text(json.dumps(_settings(), indent=2))
    state_file = tmp_path / "state.json"
    env = {
        **os.environ,
        # The server is found on PATH (discovery step 2): this interpreter's `rulelens` first.
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), str(tools.node.parent),
                                 os.environ.get("PATH", "")]),
        "RULELENS_E2E_STATE": str(state_file),
    }
    common = ["--user-data-dir", str(user_data), "--extensions-dir", str(extensions)]
    subprocess.run([str(tools.code_server), *common, "--install-extension", str(tools.vsix),
                    "--force"], env=env, check=True, timeout=180, capture_output=True)
    installed = [p.name for p in extensions.iterdir() if p.is_dir()]
    assert any(name.startswith("rulelens.rulelens-") for name in installed), installed
    port = _free_port()
    log = (tmp_path / "code-server.log").open("w")
    proc = subprocess.Popen(
        [str(tools.code_server), "--auth", "none", "--bind-addr", f"127.0.0.1:{port}",
         "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust", *common,
         str(workspace)],
        env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + WAIT_S
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    log.flush()
                    pytest.fail("code-server did not start:\n"
                                + (tmp_path / "code-server.log").read_text())
                time.sleep(0.2)
        yield {"url": f"http://127.0.0.1:{port}", "state": state_file, "user_data": user_data}
    finally:
        _stop_group(proc)
        log.close()
        _copy_logs(user_data, tmp_path / "code-server.log")


def _stop_group(proc: subprocess.Popen[bytes]) -> None:
    """code-server forks an extension host, file watcher and agent host: end them all."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=20)
            if sig == signal.SIGTERM:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)  # stragglers of the group
            return


def _copy_logs(user_data: Path, server_log: Path) -> None:
    """Keep code-server's and the extension's logs next to the screenshots, for diagnosis."""
    target = OUTPUT / "logs"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True, exist_ok=True)
    if server_log.exists():
        shutil.copy(server_log, target / "code-server.log")
    for found in (user_data / "logs").rglob("*rulelens*.log") if (user_data / "logs").exists() else []:
        shutil.copy(found, target / found.name)


def test_rules_show_and_record_in_vscode(tools: Tools, code_server: dict[str, object],
                                         workspace: Path, tmp_path: Path) -> None:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    for old in OUTPUT.glob("*.png"):
        old.unlink()
    state_file = Path(str(code_server["state"]))
    config = {
        "url": code_server["url"],
        "folder": str(workspace),
        "chromium": str(tools.chromium),
        "screenshotDir": str(OUTPUT),
        "sourceFile": SOURCE,
        "countBefore": 2,
        "entryBefore": ENTRY,
        "countAfter": 3,
        "lensBefore": "Rules: Models",
        "stateFile": str(state_file),
        "waitMs": int(WAIT_S * 1000),
        "record": {"glob": GLOB, "title": TITLE, "note": NOTE, "ruleFile": RULE_FILE},
    }
    config_file = tmp_path / "e2e.json"
    config_file.write_text(json.dumps(config))
    run = subprocess.run([str(tools.node), str(HERE / "e2e.mjs"), str(config_file)],
                         cwd=HERE, capture_output=True, text=True, timeout=900)
    lines = [line for line in run.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"the browser script printed no result:\n{run.stdout}\n{run.stderr}"
    result = json.loads(lines[-1][len("RESULT "):])
    assert result["ok"], f"{result.get('error')}\nsteps: {result['steps']}\n{run.stderr}"

    # Before recording: what the rendered workbench showed.
    assert result["statusBefore"] == "2 rules"
    assert "2 project rules from 1 rule file apply to this file" in result["problemsBefore"]
    assert result["lensBefore"] == "Rules: Models (2 entries)"
    assert ENTRY in result["hoverBefore"]
    assert "Dates are immutable" in result["hoverBefore"]
    assert any(GLOB in choice for choice in result["globChoices"])
    assert any("app/Models/**" in choice for choice in result["globChoices"])

    # The record wrote the entry and the glob (Boost's bytes) and rebuilt the index.
    rule_text = (workspace / RULE_FILE).read_text(encoding="utf-8")
    assert rule_text.endswith(f"\n\n## {TITLE}\n{NOTE}\n")
    assert f"  - {GLOB}\n" in rule_text
    index = (workspace / ".ai/rules/index.md").read_text(encoding="utf-8")
    assert f"| app/Models/**, {GLOB} | {RULE_FILE} |" in index

    # After recording: the diagnostic, the hover and the status bar follow.
    assert result["statusAfter"] == "3 rules"
    assert "3 project rules from 1 rule file apply to this file" in result["problemsAfter"]
    assert TITLE in result["hoverAfter"]

    # The extension's own view of it, through the test-only command.
    state = json.loads(state_file.read_text())
    assert state["activeFile"] == str(workspace / SOURCE)
    assert state["statusBar"]["text"] == "$(book) 3 rules"
    rules = [d for d in state["diagnostics"] if d["code"] == "rules-apply"]
    assert len(rules) == 1 and rules[0]["source"] == "rulelens"
    assert rules[0]["severity"] == "Information"
    assert [e["title"] for r in state["rules"] for e in r["entries"]] == [
        ENTRY, "Dates are immutable", TITLE]
    assert Path(result["screenshot"]).is_file()
