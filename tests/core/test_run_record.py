"""`check_project`'s record names every path it read itself: what `check`'s kept answer is keyed
by beyond git's view (cli/result_cache.py). The oracle is Python's own: an audit hook sees every
open and folder listing, and a wrapped `os.stat` every stat, while the check runs; each path
below the root (outside `.git`) that they see must be in the record. The name search's own
reads are left out: the files it searches are keyed by git's view, and the record says what it
found in them (`searches`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulelens.check_project import RunRecord, check_project
from rulelens.rules.repository import RuleRepository
from rulelens.workspace.git import GitSession
from tests.conftest import ProjectFactory

FIXTURE = Path(__file__).resolve().parents[1] / "agents" / "fixtures" / "all_agents"
CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
SEARCH = "rulelens/rules/check/stale/text_search.py"  # the name search: keyed by git's view


class Audit:
    """The paths below `root` (outside .git) that Python opens, lists or stats while on."""

    def __init__(self, root: Path) -> None:
        self.root = str(root)
        self.git = os.path.join(self.root, ".git")
        self.paths: set[str] = set()
        self.on = False
        self._stat = os.stat

    def _note(self, path: object) -> None:
        if isinstance(path, int) or path is None:
            return
        text = os.path.abspath(os.fsdecode(path))  # type: ignore[arg-type]
        below = text == self.root or text.startswith(self.root + os.sep)
        if not below or text == self.git or text.startswith(self.git + os.sep):
            return
        frame = sys._getframe(2)
        while frame is not None:
            if frame.f_code.co_filename.endswith(SEARCH):
                return
            frame = frame.f_back  # type: ignore[assignment]
        self.paths.add(text)

    def _audit(self, event: str, args: tuple[object, ...]) -> None:
        if self.on and event in ("open", "os.scandir", "os.listdir") and args:
            self._note(args[0])

    def _stat_hook(self, path: object, *args: object, **kwargs: object) -> os.stat_result:
        if self.on:
            self._note(path)
        return self._stat(path, *args, **kwargs)  # type: ignore[arg-type]

    def __enter__(self) -> Audit:
        sys.addaudithook(self._audit)  # cannot be removed: it does nothing once off
        os.stat = self._stat_hook  # type: ignore[assignment]
        self.on = True
        return self

    def __exit__(self, *exc: object) -> None:
        self.on = False
        os.stat = self._stat


def audited(root: Path) -> tuple[set[str], RunRecord]:
    repo = RuleRepository(root)
    with Audit(repo.root) as audit:
        record = check_project(repo, git=GitSession(remember_missing=True)).record
    return audit.paths, record


def unrecorded(root: Path) -> list[str]:
    seen, record = audited(root)
    return sorted(seen - record.read)


def committed(root: Path) -> Path:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    for step in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "start"]):
        subprocess.run(["git", "-C", str(root), *step], check=True, env=env, capture_output=True)
    return root


def every_agent(tmp_path: Path) -> Path:
    """The all-agents fixture, with what only a disk read finds: an ignored local file a rule
    names, an ignored agent file, a nested repository, the configuration, Gemini's imports."""
    root = tmp_path / "all"
    shutil.copytree(FIXTURE, root, symlinks=True)
    (root / ".gitignore").write_text("local/\nAGENTS.override.md\n.env\n")
    (root / "local").mkdir()
    (root / "local/notes.md").write_text("# Local\n")
    (root / "AGENTS.override.md").write_text("# Override\n")
    (root / ".env").write_text("KEY=1\n")
    (root / ".ai/rules/env.md").write_text(
        "---\npaths:\n  - 'app/**'\n---\n# Env\n\n## Secrets\nRead `.env` and `local/notes.md`; see `app/Gone.php`.\n")
    (root / "pyproject.toml").write_text("[tool.rulelens]\nexclude = []\n")
    (root / "GEMINI.md").write_text("# Gemini\n\n@./docs/guide.md\n@./missing.md\n")
    (root / "vendor/lib").mkdir(parents=True)
    (root / "vendor/lib/AGENTS.md").write_text("# Vendored\n")
    return root


def test_the_record_names_every_path_the_check_read_in_git(tmp_path: Path) -> None:
    root = committed(every_agent(tmp_path))
    nested = root / "vendor/lib"
    subprocess.run(["git", "init", "-q", str(nested)], check=True)
    seen, record = audited(root)
    assert sorted(seen - record.read) == []
    # The oracle did see what only a disk read finds: the test can fail.
    for rel in ("local/notes.md", "AGENTS.override.md", "pyproject.toml", ".ai/rules/env.md"):
        assert str(root / rel) in seen, rel


def test_the_record_names_every_path_the_check_read_outside_git(tmp_path: Path) -> None:
    assert unrecorded(every_agent(tmp_path)) == []


def test_a_read_left_out_of_the_record_is_caught(project: ProjectFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The oracle fails when a reader skips its note: the check of a rule naming an ignored
    local file, with `Reads.exists` reading without noting."""
    from rulelens.workspace.reads import Reads

    root = project({".ai/rules/env.md": "---\npaths:\n  - 'app/**'\n---\n# Env\n\n## S\nRead `local/notes.md`.\n",
                    "app/a.php": "<?php\n", ".gitignore": "local/\n", "local/notes.md": "# Local\n"})
    assert unrecorded(committed(root)) == []
    monkeypatch.setattr(Reads, "exists", lambda self, path: os.path.exists(path))
    assert str(root / "local/notes.md") in unrecorded(root)


def corpus_projects() -> Iterator[Path]:
    if CORPUS.is_dir():
        yield from sorted(p for p in CORPUS.iterdir() if (p / "rules").is_dir())[:8]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpus (CI has it)")
@pytest.mark.parametrize("repo", list(corpus_projects()), ids=lambda p: p.name)
def test_the_record_names_every_path_read_on_real_rules(repo: Path, tmp_path: Path) -> None:
    root = tmp_path / repo.name
    shutil.copytree(repo / "rules", root / ".ai/rules")
    for line in (repo / "files.txt").read_text(encoding="utf-8", errors="replace").splitlines()[:3000]:
        rel = line.strip()
        if rel and not rel.startswith((".ai/rules/", "/")) and ".." not in rel.split("/"):
            target = root / rel
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                if not target.parent.is_dir():
                    continue
                target.write_text("")
    for name in ("AGENTS.md", "CLAUDE.md"):
        if (repo / name).is_file():
            shutil.copy(repo / name, root / name)
    assert unrecorded(committed(root)) == []
