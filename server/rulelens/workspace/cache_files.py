"""Where rulelens keeps what it reuses between runs, and how such a file is written.

Every cache (the name search's, the parsed frontmatters', the drift's, `check`'s kept answer,
the kept generated code) is written by workspace/atomic_write.py: a reader, or a second run
writing at once, sees the old file or the new one, never half of one. The caches of a project
live in git's own folder (`cache_file`): they go with the repository (deleting the clone
deletes them), never show in `git status` or the work tree, each worktree gets its own, and no
path needs hashing into a shared folder such as ~/.cache. Outside a git work tree none of these is kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rulelens.workspace import atomic_write
from rulelens.workspace.git import git_text

if TYPE_CHECKING:
    from rulelens.workspace.git import GitSession


def cache_file(root: Path, name: str, git: GitSession | None = None) -> Path | None:
    """Where this work tree's cache `name` (a path in git's folder) lives, or None outside git;
    the folder remembered by `git` when given (one `rev-parse` per root and session: `check`
    keeps three caches there)."""
    folder, _, leaf = name.rpartition("/")
    where = _git_path(root, folder, git) if folder else None
    if where is not None:
        return where / leaf
    path = (git_text(root, "rev-parse", "--path-format=absolute", "--git-path", name) or "").strip()
    return Path(path) if path else None


def _git_path(root: Path, folder: str, git: GitSession | None) -> Path | None:
    """git's folder for `folder`, remembered in `git` (not when git found none: the folder may
    become a git work tree)."""
    key = (root, folder)
    known = git.git_paths if git is not None else {}
    if key not in known:
        path = (git_text(root, "rev-parse", "--path-format=absolute", "--git-path", folder) or "").strip()
        if not path:
            return None
        known[key] = Path(path)
    return known[key]


def write(path: Path, data: bytes) -> None:
    """Atomically (workspace/atomic_write.py), making the folder first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write.write(path, data)
