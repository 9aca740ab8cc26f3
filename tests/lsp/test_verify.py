"""`rulelens.verify` through `workspace/executeCommand`: the same object as `rulelens verify
--json`, for a file or for a root (the chosen paths); a failure as `exit` 2 with its line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.conformance.e2e.support import binary
from tests.lsp.project import Project
from tests.lsp.test_rules_for_path import plain


async def verify(client: LanguageClient, args: dict[str, object]) -> dict:  # type: ignore[type-arg]
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="rulelens.verify", arguments=[args]))
    return plain(result)  # type: ignore[return-value]


def without_seconds(data: dict) -> dict:  # type: ignore[type-arg]
    for case in data["cases"]:
        case.pop("seconds")
    return data


async def test_an_agent_that_cannot_run_is_exit_2_with_its_line(client: LanguageClient, proj: Project,
                                                                tmp_path: Path) -> None:
    exe = tmp_path / "agent"
    exe.write_text("#!/bin/sh\nif [ \"$1\" = --version ]; then echo 1.0.0; exit 0; fi\nexit 3\n")
    exe.chmod(0o755)
    data = await verify(client, {"uri": proj.uri("app/Models/Invoice.php"), "agents": [f"claude-code={exe}"]})
    assert data["exit"] == 2
    assert data["failures"] == ["claude-code on app/Models/Invoice.php: sent no request (exit 3)"]
    assert data["moment"] == "read" and data["moment_default"] is True
    assert (await verify(client, {"uri": proj.uri("README.md"), "agents": ["cursor"]}))["error"].startswith(
        "--agent cursor: rulelens runs")


async def test_the_answer_is_verify_json(client: LanguageClient, proj: Project) -> None:
    claude = binary("claude-code")
    proj.write("CLAUDE.md", "# Demo\n\nRead the rules in .ai/rules.\n")
    data = await verify(client, {"uri": proj.root.as_uri(), "agents": [f"claude-code={claude}"], "on": "edit"})
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "server")}
    cli = subprocess.run([sys.executable, "-m", "rulelens", "verify", "--json", "--on", "edit",
                          "--agent", f"claude-code={claude}"], cwd=proj.root, env=env,
                         capture_output=True, text=True, timeout=300)
    assert without_seconds(data) == without_seconds(json.loads(cli.stdout))
    assert data["paths"] and all(("CLAUDE.md", "start") in {(s["file"], s["arrived"]) for s in c["sent"]}
                                 for c in data["cases"])


async def test_verify_cancel_ends_the_running_agent_and_verify_answers(client: LanguageClient, proj: Project,
                                                                        tmp_path: Path) -> None:
    """VS Code's cancel button: `rulelens.verifyCancel` ends the agent's whole group (a helper it
    started too), and `rulelens.verify` answers with the run stopped, exit 2."""
    import asyncio

    pids = tmp_path / "pids"
    exe = tmp_path / "agent"
    exe.write_text("#!/bin/sh\nif [ \"$1\" = --version ]; then echo 1.0.0; exit 0; fi\n"
                   f"sleep 300 & echo $! > {pids}\nsleep 300\n")
    exe.chmod(0o755)
    running = asyncio.ensure_future(verify(client, {"uri": proj.uri("app/Models/Invoice.php"),
                                                    "agents": [f"claude-code={exe}"]}))
    while not pids.exists() or not pids.read_text().strip():
        await asyncio.sleep(0.05)
    told = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="rulelens.verifyCancel", arguments=[{}]))
    assert plain(told) == {"cancelled": 1}
    data = await asyncio.wait_for(running, 60)
    assert data["exit"] == 2
    assert [c["error"] for c in data["cases"]] == ["stopped before it finished (cancelled)"]
    helper = int(pids.read_text())
    for _ in range(100):
        if not Path(f"/proc/{helper}").exists() or Path(f"/proc/{helper}/stat").read_text().split(") ")[1][0] == "Z":
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(f"the agent's helper {helper} is still running")
