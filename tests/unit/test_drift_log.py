"""`rule-drift`'s history is read from git's log as git writes it (drift.py `_parsed_log`), with
a root commit's files listed by `ls-tree` instead of git's whole-tree diff: the commits must be
the ones the whole log, read at once, gives."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from rulelens.rules.check.stale import drift
from rulelens.rules.check.stale.drift import Commit, _parsed_log, _read_commits
from tests.unit.test_staleness import commit, git


def whole_log(root: Path, rules: str, limit: int = drift.MAX_COMMITS) -> list[Commit]:
    """The log read at once, root commit's diff included, as git gives it by default."""
    out = subprocess.run(["git", "-C", str(root), "log", "-z", "--no-merges", "--no-renames", "--relative",
                          "--name-only", "--format=%x01%cs", f"-n{limit}", "--", "."],
                         check=True, capture_output=True).stdout.decode("utf-8", "surrogateescape")
    commits = []
    for chunk in out.split("\x01")[1:]:
        date, _, rest = chunk.partition("\0")
        paths = [p for p in rest.lstrip("\n").split("\0") if p]
        if len(paths) > drift.BULK:
            paths = [p for p in paths if p.startswith(rules)]
        commits.append(Commit(date.strip(), tuple(paths)))
    return commits


def test_any_cut_of_the_log_into_blocks_reads_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drift, "BULK", 5)
    rnd = random.Random(7)
    for _ in range(2000):
        log, expected = b"", []
        for n in range(rnd.randint(0, 4)):
            paths = [rnd.choice([".ai/rules/", "app/", "x"]) + "ab"[rnd.randint(0, 1)] * rnd.randint(1, 3)
                     for _ in range(rnd.randint(0, 9))]
            log += f"\x012026-01-0{n}\x02h{n}\0".encode() + b"\n" * bool(paths)
            log += b"".join(p.encode() + b"\0" for p in paths)
            kept = paths if len(paths) <= 5 else [p for p in paths if p.startswith(".ai/rules/")]
            expected.append(([f"2026-01-0{n}", f"h{n}"], tuple(kept)))
        size = rnd.randint(1, 24)
        blocks = [log[i : i + size] for i in range(0, len(log), size)]
        assert _parsed_log(iter(blocks), ".ai/rules/") == expected


@pytest.mark.parametrize("bulk", [2000, 3])
def test_the_root_commit_is_listed_as_git_s_diff_would(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch, bulk: int) -> None:
    """In a folder of a larger repository, with a root commit small and large (past BULK)."""
    monkeypatch.setattr(drift, "BULK", bulk)
    repo = tmp_path / "repo"
    (repo / "web/.ai/rules").mkdir(parents=True)
    (repo / "web/.ai/rules/a.md").write_text("# A\n")
    for name in ("web/app/x.php", "web/app/y.php", "web/app/z.php", "api/main.go", "README.md"):
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text("x\n")
    git(repo.parent, "init", "-q", str(repo))
    commit(repo, "Start", "2026-01-05T10:00:00Z")
    (repo / "web/app/x.php").write_text("y\n")
    (repo / "api/main.go").write_text("y\n")
    commit(repo, "Next", "2026-01-06T10:00:00Z")
    for root in (repo / "web", repo):
        rules = ".ai/rules/" if root.name == "web" else "web/.ai/rules/"
        found = _read_commits(root, rules.rstrip("/"), 1000)
        assert found is not None
        assert found[0] == whole_log(root, rules)
        assert found[0][-1].paths  # the root commit's files are there
