"""`rulelens verify` as a user runs it, with a stand-in agent binary: what it says when nothing
can be verified, and that Ctrl-C mid-run ends every process it started and leaves the project
byte-identical (the pinned agents' runs are in tests/conformance/e2e/test_verify.py)."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.conformance.harness import write_project
from tests.integration.agent_runs.test_runner import alive

SERVER = Path(__file__).resolve().parents[3] / "server"
FILES = {"CLAUDE.md": "# Project\n\nRoot rules.\n", "src/a.ts": "export const a = 1;\n"}


def snapshot(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def rulelens(args: list[str], cwd: Path, tmp: Path, **kw: object) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(SERVER), "TMPDIR": str(tmp)}
    return subprocess.Popen([sys.executable, "-m", "rulelens", "verify", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)  # type: ignore[call-overload]


def stand_in(tmp_path: Path, body: str) -> Path:
    exe = tmp_path / "agent"
    exe.write_text("#!/bin/sh\nif [ \"$1\" = --version ]; then echo 9.8.7; exit 0; fi\n" + body)
    exe.chmod(0o755)
    return exe


def test_nothing_to_verify_is_exit_2_with_one_line_each(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", FILES)
    (tmp_path / "tmp").mkdir()
    exe = stand_in(tmp_path, "echo no model here >&2; exit 3\n")
    done = rulelens(["src/a.ts", "--agent", f"claude-code={exe}", "--agent", "codex=/no/such/codex", "--json"],
                    root, tmp_path / "tmp")
    out, err = done.communicate(timeout=60)
    assert done.returncode == 2, err
    data = json.loads(out)
    assert data["exit"] == 2 and data["user_files"]["included"] is False
    lines = [line for line in err.splitlines() if line.startswith("rulelens: ")]
    assert lines == ["rulelens: codex: /no/such/codex is not a file",
                     "rulelens: claude-code on src/a.ts: sent no request (exit 3): no model here"]
    assert "rulelens verify: claude-code: read src/a.ts" in err  # progress on stderr only
    assert list((tmp_path / "tmp").iterdir()) == []  # scratch copies removed


def test_ctrl_c_mid_run_ends_every_process_and_leaves_the_project_as_it_was(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", FILES)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    before = snapshot(root)
    (tmp_path / "tmp").mkdir()
    pids = tmp_path / "pids"
    exe = stand_in(tmp_path, f'echo changed > "$PWD/src/a.ts"\nsleep 300 & echo $! >> {pids}\n'
                             f'echo $$ >> {pids}\nsleep 300\n')
    proc = rulelens(["src/a.ts", "--agent", f"claude-code={exe}"], root, tmp_path / "tmp")
    deadline = time.monotonic() + 60
    while not (pids.exists() and len(pids.read_text().split()) == 2) and time.monotonic() < deadline:
        time.sleep(0.05)
    started = [int(p) for p in pids.read_text().split()]
    assert all(alive(p) for p in started)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "every agent started was ended, its scratch copy removed" in err
    deadline = time.monotonic() + 10
    while any(alive(p) for p in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(p) for p in started)
    assert snapshot(root) == before
    assert list((tmp_path / "tmp").iterdir()) == []


def test_a_folder_that_is_no_project_is_not_copied(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "a.ts").write_text("x\n")
    (tmp_path / "tmp").mkdir()
    done = rulelens(["--agent", f"claude-code={stand_in(tmp_path, 'exit 0')}"], plain, tmp_path / "tmp")
    _, err = done.communicate(timeout=60)
    assert done.returncode == 2
    assert err.startswith("rulelens: No project here:") and "will not copy it for the agents" in err


def test_a_stop_asked_for_starts_no_further_run(tmp_path: Path) -> None:
    """The language server's shutdown: runs not started yet are not started."""
    from rulelens.agent_runs.verify import Installed, Pick, verify

    root = write_project(tmp_path / "p", FILES)
    exe = stand_in(tmp_path, "exit 3\n")
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 1  # the first run goes, the second is not started

    result = verify(root, [Installed("claude-code", exe)], [Pick("src/a.ts", "given"), Pick("CLAUDE.md", "given")],
                    stop=stop)
    assert [c.observation.path for c in result.cases] == ["src/a.ts"]
    assert result.failures == ["stopped before every run was done (cancelled, or the server is shutting down)"]
    assert result.code == 2
