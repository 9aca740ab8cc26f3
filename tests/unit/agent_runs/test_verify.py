"""`verify`'s choices before anything runs: which agents, which paths, which of the user's files."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelens.agent_runs.verify import (
    AgentChoiceError,
    Installed,
    Verification,
    agent_id,
    find_agents,
    pick_paths,
    user_files,
)
from rulelens.agents.project import AgentProject
from rulelens.rules.repository import RuleRepository

PROJECT = {
    "CLAUDE.md": "# Project\n\nRoot rules.\n",
    ".claude/rules/api.md": '---\npaths: "src/api/**"\n---\n\nAPI rules.\n',
    ".claude/rules/docs.md": '---\npaths: "docs/**/*.md"\n---\n\nDocs rules.\n',
    "src/api/a.ts": "a\n", "src/api/b.ts": "b\n",
    "docs/guide.md": "# Guide\n",
    "pkg/CLAUDE.md": "# Pkg\n\nPackage rules.\n", "pkg/x.py": "x = 1\n",
    "tool.py": "y = 2\n", ".github/workflows/ci.yml": "on: push\n",
}


def project(tmp_path: Path, files: dict[str, str] = PROJECT) -> AgentProject:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return AgentProject(RuleRepository(tmp_path, writable=False))


def test_paths_come_from_the_rules_a_nested_folder_and_an_ordinary_file(tmp_path: Path) -> None:
    picks = pick_paths(project(tmp_path))
    by_why = {p.why: p.path for p in picks}
    assert by_why["named by .claude/rules/api.md's globs"] in ("src/api/a.ts", "src/api/b.ts")
    assert by_why["named by .claude/rules/docs.md's globs"] == "docs/guide.md"
    assert by_why["below pkg/CLAUDE.md"] == "pkg/x.py"
    assert by_why["an ordinary file no rule names"] == "tool.py"
    assert pick_paths(project(tmp_path)) == picks  # the same tree, the same paths


def test_create_asks_for_new_names_beside_them(tmp_path: Path) -> None:
    picks = pick_paths(project(tmp_path), "create")
    assert "pkg/x_new.py" in [p.path for p in picks]
    assert all(not (tmp_path / p.path).exists() for p in picks)


def test_agents_from_path_or_as_given(tmp_path: Path) -> None:
    exe = tmp_path / "my-claude"
    exe.write_text("")
    on_path = {"claude": "/usr/bin/claude", "codex": "/opt/codex"}
    found, failures = find_agents([], on_path.get)
    assert [(i.agent, str(i.binary)) for i in found] == [("claude-code", "/usr/bin/claude"), ("codex", "/opt/codex")]
    assert failures == []
    found, failures = find_agents(["claude-code=" + str(exe), "gemini"], on_path.get)
    assert found == [Installed("claude-code", exe)]
    assert failures == ["gemini-cli: `gemini` is not on PATH (name it with --agent gemini-cli=BINARY)"]
    found, failures = find_agents([], {}.get)
    assert found == [] and failures[0].startswith("no agent installed")
    assert agent_id("qwen") == "qwen-code"
    with pytest.raises(AgentChoiceError):
        agent_id("cursor")


def test_only_the_global_instruction_files_are_taken_from_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for rel in (".claude/CLAUDE.md", ".claude/rules/mine.md", ".claude/settings.json",
                ".claude/.credentials.json", ".codex/AGENTS.md", ".codex/auth.json"):
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_text("x")
    assert user_files("claude-code", home) == {".claude/CLAUDE.md": home / ".claude/CLAUDE.md",
                                               ".claude/rules/mine.md": home / ".claude/rules/mine.md"}
    assert user_files("codex", home) == {"AGENTS.md": home / ".codex/AGENTS.md"}


def test_nothing_verified_is_exit_2(tmp_path: Path) -> None:
    result = Verification(tmp_path, "read", False, False, [], [], failures=["no agent installed"])
    assert result.code == 2
    assert "left out" in result.user_files_note()
