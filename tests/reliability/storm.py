"""A git repository with two branches 5,000 files apart, rules folder included, and the
expected (fresh-core) view of it: shared by the storm test and `bench/fs_storm.py`."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from rulelens.rules.check.lint import check_file
from rulelens.rules.repository import RuleRepository
from rulelens.workspace.filelist import FileList

N_SRC = 3500          # src files on branch one
DELETED = 1500        # src files gone on branch two
MODIFIED = 2000       # src files edited on branch two
ADDED = 1500          # generated/ files new on branch two  (1500 + 2000 + 1500 = 5,000)

RULES_ONE = {
    "models.md": "---\npaths:\n  - 'app/Models/**'\n---\n\n# Models\n\n## Storm one models rule\nOne.\n",
    "gone.md": "---\npaths:\n  - 'src/**'\n---\n\n# Source\n\n## Only on branch one\nGone on two.\n",
    "generated.md": "---\npaths:\n  - 'generated/**'\n---\n\n# Generated\n\n## Do not edit\nGenerated.\n",
}
RULES_TWO = {
    "models.md": "---\npaths:\n  - 'app/Models/**'\n  - 'src/pkg1/**'\n---\n\n# Models\n\n"
                 "## Storm two models rule\nTwo.\n\n## Another two rule\nTwo again.\n",
    "generated.md": RULES_ONE["generated.md"],
    "fresh.md": "---\npaths:\n  - 'generated/*.php'\n---\n\n# Fresh\n\n## Fresh on branch two\nNew.\n",
}
# Documents an editor keeps open through the storm.
OPEN = ["app/Models/User.php", "src/pkg1/f101.php", "generated/g7.php", ".ai/rules/generated.md"]


def git(root: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                          text=True, env=env).stdout


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _index(root: Path) -> None:
    (root / ".ai/rules/index.md").write_text(RuleRepository(root).index_text())


def build(root: Path) -> None:
    """Branches `one` and `two`, with `one` checked out."""
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "one")
    git(root, "config", "core.autocrlf", "false")
    for name, text in RULES_ONE.items():
        _write(root, f".ai/rules/{name}", text)
    _index(root)
    _write(root, "app/Models/User.php", "<?php\n")
    for i in range(N_SRC):
        _write(root, f"src/pkg{i // 100}/f{i}.php", f"<?php // one {i}\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "one")
    git(root, "checkout", "-q", "-b", "two")
    for name in RULES_ONE:
        (root / ".ai/rules" / name).unlink()
    for name, text in RULES_TWO.items():
        _write(root, f".ai/rules/{name}", text)
    _index(root)
    for i in range(DELETED):
        (root / f"src/pkg{i // 100}/f{i}.php").unlink()
    for i in range(DELETED, DELETED + MODIFIED):
        _write(root, f"src/pkg{i // 100}/f{i}.php", f"<?php // two {i}\n")
    for i in range(ADDED):
        _write(root, f"generated/g{i}.php", f"<?php // generated {i}\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "two")
    git(root, "checkout", "-q", "one")


def changes(root: Path, old: str, new: str) -> list[dict[str, object]]:
    """The file events an editor's watcher reports for a checkout (1 created, 2 changed, 3 deleted)."""
    kinds = {"A": 1, "M": 2, "D": 3}
    out = []
    for line in git(root, "diff", "--name-status", "--no-renames", old, new).splitlines():
        status, rel = line.split("\t", 1)
        out.append({"uri": (root / rel).as_uri(), "type": kinds[status[0]]})
    return out


def expected(root: Path, rel: str) -> tuple[str, ...]:
    """What a fresh core says about an open document: rule files + titles, or check codes."""
    repo = RuleRepository(root)
    if repo.is_rule_file(rel):
        rule = repo.file(rel)
        if rule is None:
            return ("<no such rule file>",)
        return tuple(sorted({p.code for p in check_file(rule, FileList.for_root(root))}))
    return tuple(sorted(f"{m.rule.rel}: {e.title}" for m in repo.rules_for(rel)
                        for e in m.rule.entries))


def seen(rel: str, diagnostics: list[dict[str, object]]) -> tuple[str, ...]:
    """The same view, read back from the published diagnostics."""
    if rel.startswith(".ai/rules/"):
        return tuple(sorted({str(d.get("code")) for d in diagnostics}))
    out = []
    for d in diagnostics:
        for info in d.get("relatedInformation") or []:  # type: ignore[attr-defined]
            message = str(info["message"])
            uri = str(info["location"]["uri"])
            if ": " in message and " applies through " not in message:
                rule_rel = uri.split("/.ai/rules/", 1)[1]
                out.append(f".ai/rules/{rule_rel}: {message.split(': ', 1)[1]}")
    return tuple(sorted(out))


def cpu_ticks(pid: int) -> int:
    """CPU of a process and its reaped children (git ls-files), in clock ticks: /proc/<pid>/stat
    fields 14-17 (utime, stime, cutime, cstime)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return sum(int(f) for f in fields[11:15])


def io_calls(pid: int) -> int:
    """Read and write system calls a process has made (/proc/<pid>/io `syscr` + `syscw`, all its
    threads): a count of work done, which machine load cannot change, where CPU ticks in a window
    depend on what else runs."""
    fields = dict(line.split(": ") for line in Path(f"/proc/{pid}/io").read_text().splitlines())
    return int(fields["syscr"]) + int(fields["syscw"])
