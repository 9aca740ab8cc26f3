"""The runner with a stand-in binary: a failure to start is an observation's error, and a run
that times out leaves no process behind (its whole group is ended)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from rulelens.agent_runs.runner import run, version
from tests.conformance.harness import write_project


def stand_in(tmp_path: Path, body: str, name: str = "agent") -> Path:
    exe = tmp_path / name
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


def test_a_prepared_copy_is_not_changed_by_a_run_from_it(tmp_path: Path) -> None:
    from rulelens.agent_runs.scratch import Scratch

    root = write_project(tmp_path / "p", {"a.ts": "x\n", "b.ts": "y\n"})
    with Scratch(root) as template:
        exe = stand_in(tmp_path, 'printf changed > "$PWD/a.ts"; echo new > "$PWD/c.ts"\n')
        run("claude-code", exe, root, "a.ts", "edit", template=template.root)
        assert (template.root / "a.ts").read_text() == "x\n"
        assert not (template.root / "c.ts").exists()


def test_a_tracked_file_its_gitignore_names_stays_tracked_in_the_copy(tmp_path: Path) -> None:
    import subprocess

    from rulelens.agent_runs.scratch import Scratch, project_files

    root = write_project(tmp_path / "p", {".gitignore": "*.md\n", "a.ts": "x\n", "CLAUDE.md": "rules\n"})
    subprocess.run(["git", "-C", str(root), "add", "-f", "CLAUDE.md"], check=True)
    with Scratch(root) as scratch:
        assert "CLAUDE.md" in project_files(scratch.root)


def test_a_reused_copy_is_lent_again_after_a_read_and_put_back_after_an_edit_or_a_creation(
        tmp_path: Path) -> None:
    from rulelens.agent_runs.scratch import Reused, Scratch

    root = write_project(tmp_path / "p", {"a.ts": "x\n", "src/b.ts": "y\n"})
    seen = tmp_path / "seen"
    with Scratch(root) as template, Reused(template.root) as copy:
        reader = stand_in(tmp_path, f'cat "$PWD/a.ts" >> {seen}\n')
        run("claude-code", reader, root, "a.ts", "read", template=template.root, reused=copy)
        first = copy.root
        editor = stand_in(tmp_path, 'printf edited > "$PWD/a.ts"\n', "editor")
        run("claude-code", editor, root, "a.ts", "edit", template=template.root, reused=copy)
        creator = stand_in(tmp_path, 'printf new > "$PWD/src/new/c.ts"\n', "creator")
        run("claude-code", creator, root, "src/new/c.ts", "create", template=template.root, reused=copy)
        idle = stand_in(tmp_path, "exit 0\n", "idle")  # asked to create, creates nothing
        run("claude-code", idle, root, "src/other/d.ts", "create", template=template.root, reused=copy)
        run("claude-code", reader, root, "a.ts", "read", template=template.root, reused=copy)
        assert copy.made == 1 and copy.root == first
        assert (first / "a.ts").read_text() == "x\n" and not (first / "src/new").exists()
        assert not (first / "src/other").exists()
        assert (template.root / "a.ts").read_text() == "x\n"
    assert seen.read_text() == "x\nx\n"
    assert (root / "a.ts").read_text() == "x\n" and not (root / "src/new").exists()


def test_a_reused_copy_a_run_changed_elsewhere_is_dropped_and_the_next_run_gets_a_fresh_one(
        tmp_path: Path) -> None:
    from rulelens.agent_runs.scratch import Reused, Scratch

    root = write_project(tmp_path / "p", {"a.ts": "x\n", "b.ts": "y\n"})
    seen = tmp_path / "seen"
    with Scratch(root) as template, Reused(template.root) as copy:
        messy = stand_in(tmp_path, 'echo stray > "$PWD/.agent-state"; rm "$PWD/b.ts"\n', "messy")
        run("claude-code", messy, root, "a.ts", "read", template=template.root, reused=copy)
        assert copy.root is None  # dropped
        reader = stand_in(tmp_path, f'ls -a "$PWD" >> {seen}\n')
        run("claude-code", reader, root, "a.ts", "read", template=template.root, reused=copy)
        assert copy.made == 2
        assert (template.root / "b.ts").read_text() == "y\n"
    listing = seen.read_text().split()
    assert "b.ts" in listing and ".agent-state" not in listing
    assert sorted(p.name for p in root.iterdir() if p.name != ".git") == ["a.ts", "b.ts"]
