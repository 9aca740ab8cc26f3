"""`rulelens observe` (the hook's command) and `rulelens init --observe` (its registration)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ProjectFactory

ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "server")}


def rulelens(root: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulelens", *args], cwd=root, input=stdin,
                          capture_output=True, text=True, env=ENV, check=False)


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True,
                          env={**ENV, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}).stdout


def event(root: Path, rel: str, **more: object) -> str:
    return json.dumps({"session_id": "s1", "transcript_path": "/home/x/t.jsonl", "cwd": str(root),
                       "hook_event_name": "InstructionsLoaded", "file_path": str(root / rel),
                       "memory_type": "Project", "load_reason": "session_start", **more})


def test_observe_appends_one_line_per_load(project: ProjectFactory) -> None:
    root = project({"CLAUDE.md": "# P\n"}, git=True)
    done = rulelens(root, "observe", "--agent", "claude-code", stdin=event(root, "CLAUDE.md", globs=["app"]))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    (line,) = (root / ".git/rulelens/observed.jsonl").read_text().splitlines()
    data = json.loads(line)
    assert data["agent"] == "claude-code" and data["file_path"] == str(root / "CLAUDE.md")
    assert data["load_reason"] == "session_start" and data["globs"] == ["app"]
    assert "transcript_path" not in data and data["at"].endswith("Z")
    assert git(root, "status", "--porcelain", "--ignored") .count("rulelens") == 0


def test_observe_never_fails_the_agent(project: ProjectFactory, tmp_path: Path) -> None:
    """Bad input, or no repository: exit 0 and one line on stderr, nothing written."""
    root = project({}, git=True)
    for stdin in ("", "not json", "[1]", '{"file_path": 3}'):
        done = rulelens(root, "observe", "--agent", "claude-code", stdin=stdin)
        assert done.returncode == 0 and done.stderr.startswith("rulelens observe: "), (stdin, done.stderr)
        assert len(done.stderr.splitlines()) == 1
    assert not (root / ".git/rulelens/observed.jsonl").exists()
    outside = tmp_path / "no-git"
    outside.mkdir()
    done = rulelens(outside, "observe", stdin=event(outside, "CLAUDE.md"))
    assert done.returncode == 0 and "no git repository" in done.stderr


def test_concurrent_hooks_write_whole_lines(project: ProjectFactory) -> None:
    """Claude Code starts one hook per file at once: every line arrives whole."""
    root = project({}, git=True)
    cmd = [sys.executable, "-m", "rulelens", "observe", "--agent", "claude-code"]
    procs = [subprocess.Popen(cmd, cwd=root, stdin=subprocess.PIPE, env=ENV, text=True) for _ in range(12)]
    for n, proc in enumerate(procs):
        assert proc.stdin is not None
        proc.stdin.write(event(root, f".claude/rules/r{n}.md", globs=["x" * 3000]))
        proc.stdin.close()
    assert [proc.wait() for proc in procs] == [0] * 12
    lines = (root / ".git/rulelens/observed.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["file_path"] for line in lines) == sorted(
        str(root / f".claude/rules/r{n}.md") for n in range(12))


def test_past_its_size_cap_the_file_is_rotated_once_and_read_whole(project: ProjectFactory) -> None:
    """The hook's file never grows past CAP: its lines move to observed.1.jsonl (replacing
    the one before) and a new file starts; the reader takes both, oldest first."""
    from rulelens.agents.observed import read_observations
    from rulelens.cli.observe_hook import CAP

    root = project({"CLAUDE.md": "# P\n", "AGENTS.md": "# A\n"}, git=True)
    folder = root / ".git/rulelens"
    folder.mkdir()
    old = (json.dumps({"agent": "claude-code", "session_id": "old", "file_path": str(root / "AGENTS.md")})
           + "\n").encode()
    (folder / "observed.1.jsonl").write_bytes(b"older\n")
    (folder / "observed.jsonl").write_bytes(old * (CAP // len(old)))
    done = rulelens(root, "observe", "--agent", "claude-code", stdin=event(root, "CLAUDE.md"))
    assert (done.returncode, done.stderr) == (0, "")
    assert (folder / "observed.1.jsonl").read_bytes() == old * (CAP // len(old))
    (line,) = (folder / "observed.jsonl").read_text().splitlines()
    assert json.loads(line)["session_id"] == "s1"
    seen = read_observations(folder / "observed.jsonl", root)
    assert len(seen) == CAP // len(old) + 1
    assert {o.session for o in seen[:-1]} == {"old"} and seen[-1].file == "CLAUDE.md"


def test_a_worktree_records_in_its_own_git_folder(project: ProjectFactory, tmp_path: Path) -> None:
    """Where `git rev-parse --git-path` puts rulelens's files, which match and the hover read."""
    root = project({"CLAUDE.md": "# P\n"}, git=True)
    git(root, "add", ".")
    git(root, "commit", "-qm", "one")
    tree = tmp_path / "tree"
    git(root, "worktree", "add", "-q", str(tree))
    (tree / "app").mkdir()
    assert rulelens(tree / "app", "observe", "--agent", "a", stdin=event(tree, "CLAUDE.md")).returncode == 0
    where = git(tree, "rev-parse", "--path-format=absolute", "--git-path", "rulelens/observed.jsonl").strip()
    assert json.loads(Path(where).read_text())["file_path"] == str(tree / "CLAUDE.md")
    assert not (root / ".git/rulelens/observed.jsonl").exists()


def test_observe_loads_nothing_of_the_cli_or_core(project: ProjectFactory) -> None:
    """It runs once per loaded file inside the agent's session: no parser, no core, no git."""
    root = project({}, git=True)
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "rulelens", "observe", "--agent", "x"],
                         cwd=root, input=event(root, "CLAUDE.md"), capture_output=True, text=True, env=ENV,
                         check=True)
    names = [line.rpartition("|")[2].strip() for line in run.stderr.splitlines() if line.startswith("import time:")]
    modules = set(names[names.index("site") + 1:])
    ours = {m for m in modules if m.startswith("rulelens")}
    assert ours == {"rulelens", "rulelens.cli", "rulelens.cli.observe_hook", "rulelens.workspace",
                    "rulelens.workspace.git_dir"}, ours
    assert not modules & {"argparse", "subprocess", "pathlib", "typing", "dataclasses"}, modules


# -- init --observe ---------------------------------------------------------------------------
SETTINGS = '{\n    "permissions": {"allow": ["Bash(ls)"]},\n    "hooks": {"Stop": []}\n}'


def test_init_observe_registers_claude_code_keeping_every_other_byte(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": "# A\n", ".claude/settings.local.json": SETTINGS}, git=True)
    done = rulelens(root, "init", "--observe")
    assert done.returncode == 0, done.stderr
    assert "Claude Code: registered `rulelens observe --agent claude-code` on InstructionsLoaded" in done.stdout
    text = (root / ".claude/settings.local.json").read_text()
    assert text.startswith('{\n    "permissions": {"allow": ["Bash(ls)"]},\n    "hooks": {"Stop": [], ')
    assert json.loads(text)["hooks"]["InstructionsLoaded"] == [
        {"hooks": [{"type": "command", "command": "rulelens observe --agent claude-code"}]}]
    assert "/.claude/settings.local.json" in (root / ".git/info/exclude").read_text().splitlines()
    assert "settings.local.json" not in git(root, "status", "--porcelain", "-uall")
    assert "Qwen Code" not in done.stdout  # no .qwen folder: Qwen Code is not set up here
    again = rulelens(root, "init", "--observe")
    assert "already runs `rulelens observe --agent claude-code`" in again.stdout
    assert (root / ".claude/settings.local.json").read_text() == text
    assert (root / ".git/info/exclude").read_text().count("settings.local.json") == 1


def test_init_observe_leaves_a_tracked_shared_settings_file_alone(project: ProjectFactory) -> None:
    """Qwen Code reads project hooks only from .qwen/settings.json; tracked, it is not touched."""
    shared = '{"model": {"name": "qwen"}}\n'
    root = project({".ai/rules/a.md": "# A\n", ".qwen/settings.json": shared}, git=True)
    git(root, "add", ".qwen/settings.json")
    done = rulelens(root, "init", "--observe")
    assert done.returncode == 0, done.stderr
    assert "Qwen Code: not registered, since .qwen/settings.json is tracked by git" in done.stdout
    assert (root / ".qwen/settings.json").read_text() == shared


def test_init_observe_registers_qwen_code_where_its_settings_are_untracked(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": "# A\n", ".qwen/QWEN.md": "# Q\n"}, git=True)
    done = rulelens(root, "init", "--observe")
    assert "Qwen Code: registered `rulelens observe --agent qwen-code` on InstructionsLoaded in " \
           ".qwen/settings.json. Added .qwen/settings.json to .git/info/exclude" in done.stdout
    data = json.loads((root / ".qwen/settings.json").read_text())
    assert data["hooks"]["InstructionsLoaded"][0]["hooks"][0]["command"] == "rulelens observe --agent qwen-code"
