"""Outside a git repository, `check` starts no git at all where no folder on the root's path holds
one (workspace/git_state.py `no_repository`), and where git must be asked, it is asked once where
the repository is: later commands that need one get git's own answer again
(`GitSession(remember_missing=True)`, the session of one `check`). The output is the same. A `git` ahead on PATH logs each call
and runs the real one."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulelens.workspace import git, processes
from tests.conftest import ProjectFactory

RULE = "---\npaths:\n  - 'app/**'\n---\n# Billing\n\nPrices go through `app/Money.php`.\n"


@pytest.fixture
def logged_git(tmp_path: Path) -> tuple[dict[str, str], Path]:
    real = shutil.which("git")
    assert real is not None
    folder, log = tmp_path / "bin", tmp_path / "git.log"
    folder.mkdir()
    (folder / "git").write_text(f'#!/bin/sh\necho "$*" >> {log}\nexec {real} "$@"\n')
    (folder / "git").chmod(0o755)
    env = {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}", "RULELENS_NO_CACHE": "1"}
    return env, log


def calls(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def test_outside_git_check_starts_no_git(project: ProjectFactory,
                                         logged_git: tuple[dict[str, str], Path]) -> None:
    env, log = logged_git
    root = project({".ai/rules/billing.md": RULE, "app/Money.php": "<?php\n", "CLAUDE.md": "# P\n",
                    ".cursor/rules/a.mdc": "---\nglobs: app/**\n---\n# A\n"})
    run = subprocess.run([sys.executable, "-m", "rulelens", "check"], cwd=root, capture_output=True,
                         text=True, check=False, env=env)
    assert run.returncode in (0, 1), run.stderr
    assert calls(log) == []  # no `.git` on the path (tmp_path): git could only say so
    # The same project in a repository: git is asked as before, and the answer is the same.
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=env)
    again = subprocess.run([sys.executable, "-m", "rulelens", "check"], cwd=root, capture_output=True,
                           text=True, check=False, env=env)
    assert (again.returncode, again.stdout) == (run.returncode, run.stdout)
    assert len(calls(log)) > 2


def test_the_remembered_answer_is_gits_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           logged_git: tuple[dict[str, str], Path]) -> None:
    env, log = logged_git
    monkeypatch.setenv("PATH", env["PATH"])
    asked = git.completed(tmp_path, "rev-parse", "--is-inside-work-tree")
    session = git.GitSession(remember_missing=True)
    first = session.completed(tmp_path, "rev-parse", "HEAD")
    second = session.completed(tmp_path, "ls-files", "-z")
    assert asked is not None and first is not None and second is not None
    assert (first.returncode, first.stdout, first.stderr) == (asked.returncode, asked.stdout, asked.stderr)
    assert (second.returncode, second.stderr) == (128, asked.stderr)
    assert len(calls(log)) == 2  # `asked` and `first`, whose answer is kept; `second` asks nothing
    log.unlink()
    session.completed(tmp_path, "check-ignore", "x")  # not in NEEDS_REPOSITORY: git is asked
    assert len(calls(log)) == 1
    log.unlink()
    git.GitSession().completed(tmp_path, "ls-files", "-z")  # another run's session knows nothing
    assert len(calls(log)) == 1


def test_the_exit_hook_ends_a_git_a_thread_still_waits_for(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A history read started on a guess that proved wrong is not waited for: at exit, its git
    is ended rather than left running after rulelens (workspace/processes.py `_discard`)."""
    import threading
    import time

    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "git").write_text("#!/bin/sh\nexec sleep 60\n")
    (folder / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    answers: list[object] = []
    before = set(processes._RUNNING)  # programs other tests in this process left to the exit hook
    waiting = threading.Thread(target=lambda: answers.append(git.completed(tmp_path, "log")))
    waiting.start()
    while not set(processes._RUNNING) - before:
        time.sleep(0.01)
    [proc] = list(set(processes._RUNNING) - before)
    processes._discard()
    waiting.join(timeout=30)
    assert not waiting.is_alive() and proc.returncode is not None and proc.returncode < 0
    assert answers and getattr(answers[0], "returncode", None) == proc.returncode
