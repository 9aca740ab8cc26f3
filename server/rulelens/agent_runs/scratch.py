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
from typing import Any

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
    # add -f: a file the project tracks though its .gitignore names it (force-added) is copied,
    # and stays tracked in the copy, as it is in the project.
    # core.trustctime off: a hard-linked copy (clone_copy) changes every file's ctime, which
    # would make the first git command in it (the agent's own `git status`) hash every file again.
    steps = (["init", "-q"], ["config", "gc.auto", "0"], ["config", "core.trustctime", "false"],
             ["add", "-A", "-f"],
             ["commit", "-q", "--no-verify", "--allow-empty", "-m", "scratch"])
    for argv in steps:
        subprocess.run(["git", "-C", str(root), *argv], check=True, capture_output=True, env=env, timeout=600)


def clone_copy(template: Path, into: Path, own: str | None = None) -> Path:
    """A copy of a prepared scratch project (its `.git` too), for one more run: hard links
    (a big project's copy in a moment), but `own`, the one file the agent is asked to change,
    copied for real so that its edit never reaches the prepared copy. Git replaces what it
    rewrites (the index) by renaming, so the links are not written through."""
    target = into / "project"
    subprocess.run(["cp", "-al", str(template), str(target)], check=True, capture_output=True, timeout=600)
    if own is not None:
        detach(target, own)
    return target


def detach(root: Path, own: str) -> None:
    """`own` (or the project file a link of it leads to) made a file of its own, no longer a
    hard link shared with the prepared copy, so that writing it in place changes this copy alone."""
    full = Path(os.path.realpath(root / own))
    if not full.is_relative_to(Path(os.path.realpath(root))) or not full.is_file():
        return
    if full.stat().st_nlink > 1:
        data = full.read_bytes()
        full.unlink()
        full.write_bytes(data)


def changed(root: Path) -> list[str] | None:
    """What differs in a scratch copy from its commit (root-relative paths: changed, deleted,
    new, ignored ones too), or None when git cannot say."""
    done = subprocess.run(["git", "-C", str(root), "status", "--porcelain=v1", "-z", "--ignored=matching",
                           "--untracked-files=all", "--no-renames"], capture_output=True, timeout=120,
                          env={**os.environ, **GIT_ENV})
    if done.returncode != 0:
        return None
    return [entry[3:] for entry in done.stdout.decode("utf-8", "surrogateescape").split("\0") if entry]


class Reused:
    """A copy of a prepared scratch project lent to one run after another (one agent's runs in
    `rulelens verify`): a copy costs as much as a short agent run on a big project, and a read
    changes nothing. Before each run the file it may change is detached (`detach`); after it,
    when the run changed that file alone, the file is put back (restored from the template, or
    removed when it was created) and the copy is lent again; on any other change, or when git
    cannot tell, the copy is dropped and the next run gets a fresh one."""

    def __init__(self, template: Path) -> None:
        self.template = template
        self.folder: Path | None = None
        self.root: Path | None = None
        self.made = 0  # copies made (the benchmark prints it)
        # What a run worked out from the copy as it is before every run (the runner's
        # fingerprints of its files), kept for the next run; emptied with the copy.
        self.kept: dict[str, Any] = {}

    def lend(self, own: str) -> Path:
        if self.root is None:
            self.folder = Path(tempfile.mkdtemp(prefix="rulelens-copy-")).resolve()
            self.root = clone_copy(self.template, self.folder, own)
            self.made += 1
        else:
            detach(self.root, own)
        return self.root

    def give_back(self, own: str) -> None:
        """The copy as it was before the run, or dropped."""
        if self.root is None:
            return
        left = changed(self.root)
        if left == []:  # a read, or a creation that created nothing
            try:
                self.unmake_folders(own)
            except OSError:
                self.drop()
            return
        if left is None or any(p != own for p in left) or not self.put_back(own):
            self.drop()

    def put_back(self, own: str) -> bool:
        assert self.root is not None
        try:
            original = self.template / own
            if original.is_file() and not original.is_symlink():
                shutil.copyfile(original, self.root / own)
            elif not original.exists() and not original.is_symlink():
                (self.root / own).unlink(missing_ok=True)
                self.unmake_folders(own)
            else:
                return False
        except OSError:
            return False
        return changed(self.root) == []

    def unmake_folders(self, own: str) -> None:
        """The folders made for a new file (the runner makes them before a creation), which
        the template does not have; OSError when one is not empty."""
        assert self.root is not None
        folder = (self.root / own).parent
        while folder != self.root and not (self.template / folder.relative_to(self.root)).exists():
            if folder.is_dir():
                folder.rmdir()
            folder = folder.parent

    def drop(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = self.root = None
        self.kept = {}

    def __enter__(self) -> Reused:
        return self

    def __exit__(self, *exc: object) -> None:
        self.drop()


class Scratch:
    """A temporary folder holding the copy and the agent's empty home; removed on exit. `lent`:
    a copy made before (`Reused.lend`) that the run uses instead, and does not remove."""

    def __init__(self, root: Path, template: Path | None = None, own: str | None = None,
                 lent: Path | None = None) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="rulelens-run-")).resolve()
        try:
            if lent is not None:
                self.root = lent
            elif template is not None:
                self.root = clone_copy(template, self.folder, own)
            else:
                self.root = copy_project(root, self.folder)
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
