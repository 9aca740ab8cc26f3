"""Where git finds a repository (workspace/git.py), asked of git itself."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from rulelens.workspace.git import no_repository, run_git


def test_no_repository_is_said_only_where_git_finds_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def git_finds(folder: Path) -> bool:
        return subprocess.run(["git", "-C", str(folder), "rev-parse", "--git-dir"],
                              capture_output=True, check=False).returncode == 0

    plain = tmp_path / "plain" / "deep"
    plain.mkdir(parents=True)
    if git_finds(plain):
        pytest.skip("the temporary folder lies inside a git repository")
    assert no_repository(plain) and run_git(plain, "rev-parse", "--git-dir") is None
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "sub").mkdir()
    (tmp_path / "link").symlink_to(repo / "sub", target_is_directory=True)
    worktree = tmp_path / "wt"
    worktree.mkdir()
    (worktree / ".git").write_text(f"gitdir: {repo / '.git'}\n")  # a `.git` file, as a worktree has
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    for folder in (repo, repo / "sub", tmp_path / "link", worktree, bare):
        assert not no_repository(folder), folder
        assert git_finds(folder), folder
    monkeypatch.setenv("GIT_DIR", str(repo / ".git"))
    assert not no_repository(plain) and run_git(plain, "rev-parse", "--git-dir") is not None
