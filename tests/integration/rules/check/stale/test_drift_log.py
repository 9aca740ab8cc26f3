"""`rule-drift`'s history read from a real repository, with a root commit's files listed by
`ls-tree` instead of git's whole-tree diff: the commits must be the ones the whole log, read at
once, gives."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from rulelens.rules.check.stale import drift
from rulelens.rules.check.stale.drift import Commit, _read_commits
from tests.git_repo import commit, git


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
