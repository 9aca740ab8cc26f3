"""The scratch copy an agent runs in: the project's files (git's tracked and untracked, not
ignored ones; every file outside git) copied to a temporary folder that is made a git
repository of its own with one commit, so the agents find the project's root as they would in
the user's tree, and edits and creations never touch it."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

GIT_ENV = {"GIT_AUTHOR_NAME": "rulelens", "GIT_AUTHOR_EMAIL": "rulelens@localhost",
           "GIT_COMMITTER_NAME": "rulelens", "GIT_COMMITTER_EMAIL": "rulelens@localhost",
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


def project_files(root: Path) -> list[str]:
    """The project's files, root-relative: git's list (tracked, and untracked but not ignored)
    where `root` is in a work tree, else every file below it but `.git`."""
    done = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
                           "--exclude-standard"], capture_output=True, timeout=120)
    if done.returncode == 0:
        return sorted({p for p in done.stdout.decode("utf-8", "surrogateescape").split("\0") if p})
    out: list[str] = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        out.extend(os.path.relpath(os.path.join(folder, n), root) for n in names)
    return sorted(out)


def copy_project(root: Path, into: Path) -> Path:
    """`root`'s files copied into `into/project`, committed there; the copy's root."""
    target = into / "project"
    target.mkdir(parents=True)
    for rel in project_files(root):
        source = root / rel
        if source.is_symlink():
            dest = target / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(os.readlink(source), dest)
        elif source.is_file():
            dest = target / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, dest)
    commit(target)
    return target


def commit(root: Path) -> None:
    env = {**os.environ, **GIT_ENV}
    # gc.auto off: a big project's thousands of loose objects would start a repack on commit,
    # and again on each git command the agent runs in a copy.
    steps = (["init", "-q"], ["config", "gc.auto", "0"], ["add", "-A"],
             ["commit", "-q", "--no-verify", "--allow-empty", "-m", "scratch"])
    for argv in steps:
        subprocess.run(["git", "-C", str(root), *argv], check=True, capture_output=True, env=env, timeout=600)


def clone_copy(template: Path, into: Path) -> Path:
    """A copy of a prepared scratch project (its `.git` too), for one more run."""
    target = into / "project"
    subprocess.run(["cp", "-a", str(template), str(target)], check=True, capture_output=True, timeout=600)
    return target


class Scratch:
    """A temporary folder holding the copy and the agent's empty home; removed on exit."""

    def __init__(self, root: Path, template: Path | None = None) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="rulelens-run-")).resolve()
        try:
            self.root = clone_copy(template, self.folder) if template else copy_project(root, self.folder)
            self.home = self.folder / "home"
            self.home.mkdir()
        except BaseException:
            self.remove()
            raise

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Scratch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()
