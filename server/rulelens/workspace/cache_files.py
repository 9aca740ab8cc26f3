"""Where rulelens keeps what it reuses between runs, and how such a file is written.

Every cache (the name search's, the parsed frontmatters', the drift's, `check`'s kept answer,
the kept generated code) goes through `write`: a reader, or a second run writing at once, sees
the old file or the new one, never half of one. The caches of a project live in git's own folder
(`cache_file`): they go with the repository (deleting the clone deletes them), never show in
`git status` or the work tree, each worktree gets its own, and no path needs hashing into a
shared folder such as ~/.cache. Outside a git work tree none of these is kept.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

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
    """Atomically: a temp file in the same folder, renamed over the target."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_file(path, data)


def write_file(path: Path, data: bytes) -> None:
    """`write` into a folder known to exist (the name search writes two files at once)."""
    fd, tmp = _temporary(path)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# What `tempfile.mkstemp` opens a file with (O_NOFOLLOW where there is one, O_BINARY on Windows).
_FLAGS = (os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
          | getattr(os, "O_BINARY", 0))
_ATTEMPTS = 100


def _temporary(path: Path) -> tuple[int, str]:
    """A new file beside `path` (`.<name>.<random>.tmp`, mode 0600), open for writing, as
    `tempfile.mkstemp` makes it: created with O_EXCL under a random name, another tried when
    the name is taken, so two writers at once never share one. Written out because tempfile
    loads random, shutil and its compression modules (2.7 ms of a first `check`) for a name."""
    for _ in range(_ATTEMPTS):
        tmp = os.path.join(path.parent, f".{path.name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, _FLAGS, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")
