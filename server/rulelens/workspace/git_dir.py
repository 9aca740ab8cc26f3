"""git's folder for the work tree holding a path, found on disk without starting git: for the
command an agent's hook runs once per loaded file (`rulelens observe`), which may import `os`
alone (tests/cli/test_observe.py)."""

from __future__ import annotations

import os


def find_git_dir(start: str) -> str | None:
    """git's folder for the work tree holding `start` (a worktree's own, through its `.git`
    file), found on disk without starting git, as `git rev-parse --git-dir` would."""
    folder = os.path.abspath(start)
    while True:
        dot = os.path.join(folder, ".git")
        if os.path.isdir(dot):
            return dot
        if os.path.isfile(dot):
            with open(dot, encoding="utf-8") as f:
                line = f.readline().strip()
            if line.startswith("gitdir:"):
                return os.path.normpath(os.path.join(folder, line[len("gitdir:"):].strip()))
            return None
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
