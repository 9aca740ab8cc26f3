"""The pre-commit hooks (.pre-commit-hooks.yaml), run by the real `pre-commit` from PyPI.

`pre-commit try-repo` installs this repository's package into a fresh environment of its own
(from a local snapshot of this checkout, never from a remote), then runs the hook in a
temporary git project: it fails on a stale index and passes once `rulelens index` ran.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, require_tool

MODELS = "---\npaths:\n  - 'app/Models/**'\n---\n\n# Models\n\n## Cents\nInteger cents.\n"
STALE = "---\npaths:\n  - 'app/Models/**'\n  - 'app/Casts/**'\n---\n\n# Models\n\n## Cents\nInteger cents.\n"
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}


def pre_commit() -> str:
    return os.environ.get("RULELENS_PRE_COMMIT") or require_tool("pre-commit")


def sh(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, check=False,
                          timeout=900, env={**os.environ, **GIT_ENV, **(env or {})})


def git(cwd: Path, *args: str) -> None:
    done = sh("git", *args, cwd=cwd)
    assert done.returncode == 0, done.stderr


def snapshot(dest: Path) -> Path:
    """This checkout as it is on disk (tracked and new files, not ignored ones), as one commit:
    try-repo would otherwise take only committed and tracked changes."""
    listed = sh("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=REPO)
    assert listed.returncode == 0, listed.stderr
    for rel in filter(None, listed.stdout.split("\0")):
        src = REPO / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-qm", "snapshot")
    return dest


def rulelens(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return sh(sys.executable, "-m", "rulelens", *args, cwd=cwd)


def test_the_manifest_is_valid_for_pre_commit() -> None:
    done = sh(pre_commit(), "validate-manifest", str(REPO / ".pre-commit-hooks.yaml"), cwd=REPO)
    assert done.returncode == 0, done.stdout + done.stderr


def test_try_repo_fails_on_a_stale_index_and_passes_after_rulelens_index(tmp_path: Path) -> None:
    tool = pre_commit()
    repo = snapshot(tmp_path / "rulelens")
    project = tmp_path / "project"
    (project / ".ai/rules").mkdir(parents=True)
    (project / "app/Models").mkdir(parents=True)
    (project / ".ai/rules/models.md").write_text(MODELS)
    (project / "app/Models/User.php").write_text("<?php\n")
    git(project, "init", "-q")
    assert rulelens(project, "index").returncode == 0
    git(project, "add", "-A")
    git(project, "commit", "-qm", "rules")
    # A rule file gains a glob; the committed index no longer says so.
    (project / ".ai/rules/models.md").write_text(STALE)
    (project / "app/Casts").mkdir()
    (project / "app/Casts/Money.php").write_text("<?php\n")
    git(project, "add", "-A")
    stale = (project / ".ai/rules/index.md").read_text()
    env = {"PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}

    failed = sh(tool, "try-repo", str(repo), "--all-files", cwd=project, env=env)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    out = failed.stdout
    assert "[index-stale]" in out
    check, index = out.split("- hook id: rulelens-check", 1)[1].split("- hook id: rulelens-index", 1)
    assert "exit code: 1" in check
    assert "files were modified by this hook" in index
    regenerated = (project / ".ai/rules/index.md").read_text()
    assert regenerated != stale and "app/Casts/**" in regenerated
    assert rulelens(project, "index", "--check").returncode == 0

    # Back to the stale index; `rulelens index` (as a person would run it) makes both hooks pass.
    (project / ".ai/rules/index.md").write_text(stale)
    assert rulelens(project, "index", "--check").returncode == 1
    assert rulelens(project, "index").returncode == 0
    git(project, "add", "-A")
    passed = sh(tool, "try-repo", str(repo), "--all-files", cwd=project, env=env)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    for name in ("rulelens check", "rulelens index"):
        (line,) = [x for x in passed.stdout.splitlines() if x.startswith(name)]
        assert line.endswith("Passed"), passed.stdout


@pytest.fixture(autouse=True)
def _git_present() -> None:
    require_tool("git")
