"""Several processes recording at once lose nothing; a crash mid-write leaves files whole (SPEC §5)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulelens.rules.format.reading import read_rule_file
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory


def cli(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulelens", "--root", str(root), *args],
        capture_output=True, text=True, env={**os.environ, **(env or {})}, check=False,
    )


WRITER = """
import sys
from pathlib import Path
from rulelens.rules.repository import RuleRepository
root, worker, count = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
repo = RuleRepository(root)
for i in range(count):
    area = "shared" if i % 2 else f"w{worker}"
    repo.record(f"app/{area}/**", f"w{worker}-{i}", f"note {worker} {i}")
"""


def test_parallel_processes_lose_no_entry(project: ProjectFactory) -> None:
    root = project()
    workers, each = 6, 15
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(root), str(w), str(each)])
        for w in range(workers)
    ]
    assert [p.wait(timeout=120) for p in procs] == [0] * workers
    repo = RuleRepository(root)
    titles = sorted(e.title for f in repo.files for e in f.entries)
    assert titles == sorted(f"w{w}-{i}" for w in range(workers) for i in range(each))
    assert all(f.strict_ok and f.strict_paths for f in repo.files)
    assert repo.index_is_current()
    assert not [p for p in (root / ".ai/rules").iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("step", ["mid-write", "before-rename", "before-rule-write"])
def test_crash_before_rename_leaves_the_old_file_whole(project: ProjectFactory, step: str) -> None:
    root = project()
    assert cli(root, "record", "--glob", "app/Models/**", "--title", "one", "--note", "first").returncode == 0
    before = (root / ".ai/rules/models.md").read_bytes()
    index_before = (root / ".ai/rules/index.md").read_bytes()
    crashed = cli(root, "record", "--glob", "app/Models/**", "--title", "two", "--note", "second",
                  env={"RULELENS_TEST_CRASH_AT": step})
    assert crashed.returncode == -9
    assert (root / ".ai/rules/models.md").read_bytes() == before
    assert (root / ".ai/rules/index.md").read_bytes() == index_before
    after = cli(root, "record", "--glob", "app/Models/**", "--title", "three", "--note", "third")
    assert after.returncode == 0, after.stderr
    rule = read_rule_file(root / ".ai/rules/models.md", ".ai/rules/models.md", False)
    assert [e.title for e in rule.entries] == ["one", "three"]
    assert sorted(p.name for p in (root / ".ai/rules").iterdir()) == ["index.md", "models.md"]


def test_crash_between_rule_and_index_is_repaired_by_the_next_record(project: ProjectFactory) -> None:
    root = project()
    crashed = cli(root, "record", "--glob", "app/Models/**", "--title", "one", "--note", "first",
                  env={"RULELENS_TEST_CRASH_AT": "before-index-write"})
    assert crashed.returncode == -9
    assert not RuleRepository(root).index_is_current()
    assert cli(root, "record", "--glob", "routes/*.php", "--title", "r", "--note", "n").returncode == 0
    assert RuleRepository(root).index_is_current()
