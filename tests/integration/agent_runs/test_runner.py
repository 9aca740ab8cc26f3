"""The runner with a stand-in binary: a failure to start is an observation's error, and a run
that times out leaves no process behind (its whole group is ended)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from rulelens.agent_runs.runner import run, version
from tests.agents.released.harness import write_project


def stand_in(tmp_path: Path, body: str) -> Path:
    exe = tmp_path / "agent"
    exe.write_text("#!/bin/sh\nif [ \"$1\" = --version ]; then echo 9.8.7; exit 0; fi\n" + body)
    exe.chmod(0o755)
    version.cache_clear()
    return exe


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(") ")[1].startswith("Z"))


def test_an_agent_that_sends_nothing_is_an_error(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", {"CLAUDE.md": "rules\n", "a.ts": "x\n"})
    observed = run("claude-code", stand_in(tmp_path, "echo no model here >&2; exit 3\n"), root, "a.ts", "read")
    assert observed.version == "9.8.7"
    assert observed.files == ()
    assert observed.error is not None and "sent no request (exit 3)" in observed.error
    assert "no model here" in observed.error


def test_a_timeout_ends_the_agent_and_what_it_started(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", {"a.ts": "x\n"})
    pids = tmp_path / "pids"
    exe = stand_in(tmp_path, f"sleep 300 & echo $! > {pids}\nsleep 300\n")
    observed = run("claude-code", exe, root, "a.ts", "read", timeout=2)
    assert observed.error == "timed out after 2 s"
    child = int(pids.read_text())
    deadline = time.monotonic() + 10
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child)


def test_the_project_is_left_as_it_was(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", {"a.ts": "x\n"})
    exe = stand_in(tmp_path, 'echo changed > "$PWD/a.ts"; echo new > "$PWD/b.ts"\n')
    run("claude-code", exe, root, "a.ts", "edit")
    assert (root / "a.ts").read_text() == "x\n"
    assert not (root / "b.ts").exists()


def test_a_missing_binary_is_an_error(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", {"a.ts": "x\n"})
    observed = run("claude-code", tmp_path / "no-such-agent", root, "a.ts", "read")
    assert observed.error is not None and observed.error.startswith("could not start")
