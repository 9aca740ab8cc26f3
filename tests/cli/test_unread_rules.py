"""A rule file rulelens cannot read is said everywhere, and never dropped from the index.

Each way of breaking the read works as root too (CI runs as root, where `chmod 000` reads fine):
bytes that are not text, a link whose target is gone, a loop of links.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import ProjectFactory

RULES = ".ai/rules"
APP = "---\npaths:\n  - 'app/**'\n---\n# App\n\n## Thin controllers\nKeep them thin.\n"
SRC = "---\npaths:\n  - 'src/**'\n---\n# Src\n\n## Typed\nType everything.\n"


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), *args],
                          capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONWARNINGS": "error"})


def binary(path: Path) -> str:
    path.write_bytes(APP.encode() + b"\x00\x01")
    return "it looks binary"


def dangling(path: Path) -> str:
    path.unlink()
    path.symlink_to("gone/app.md")
    return "No such file or directory"


def looped(path: Path) -> str:
    path.unlink()
    path.symlink_to("app.md")
    return "Too many levels of symbolic links"


BREAKS: list[Callable[[Path], str]] = [binary, dangling, looped]


@pytest.fixture(params=BREAKS, ids=lambda f: f.__name__)
def broken(request: pytest.FixtureRequest, project: ProjectFactory) -> tuple[Path, str]:
    """A project whose committed index has app.md's row, then app.md made unreadable."""
    root = project({f"{RULES}/app.md": APP, f"{RULES}/src.md": SRC, "app/x.php": "", "src/y.ts": ""})
    assert run(root, "index").returncode == 0
    why = request.param(root / RULES / "app.md")
    return root, why


def snapshot(root: Path) -> dict[str, bytes | str]:
    out: dict[str, bytes | str] = {}
    for entry in sorted((root / RULES).iterdir()):
        out[entry.name] = os.readlink(entry) if entry.is_symlink() else entry.read_bytes()
    return out


def test_index_refuses_and_changes_nothing(broken: tuple[Path, str]) -> None:
    root, why = broken
    before = snapshot(root)
    done = run(root, "index")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"rulelens: {RULES}/app.md could not be read ({why}); the index would lose "
                           "its row, so nothing was written. Fix or remove the file first.\n")
    assert snapshot(root) == before
    assert "| app/** | .ai/rules/app.md |" in (root / RULES / "index.md").read_text()


def test_record_refuses_and_changes_nothing(broken: tuple[Path, str]) -> None:
    root, why = broken
    before = snapshot(root)
    done = run(root, "record", "--glob", "app/**", "--title", "T", "--note", "N")
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and f"{RULES}/app.md could not be read ({why})" in done.stderr
    assert snapshot(root) == before


def test_match_says_which_file_it_could_not_read(broken: tuple[Path, str]) -> None:
    root, why = broken
    for args in (["match", "app/x.php"], ["match", "--json", "app/x.php"]):
        done = run(root, *args)
        assert done.returncode == 0
        assert done.stderr == (f"rulelens: warning: {RULES}/app.md could not be read ({why}); any rules "
                               "it holds for this path are not shown.\n")


def test_check_does_not_send_people_to_the_command_that_refuses(broken: tuple[Path, str]) -> None:
    root, why = broken
    done = run(root, "check")
    assert done.returncode == 1
    assert f"{RULES}/app.md:1:1: error" in done.stdout
    [stale] = [line for line in done.stdout.splitlines() if "[index-stale]" in line]
    assert stale.endswith(f"but {RULES}/app.md could not be read ({why}): fix or remove it, then run "
                          "`rulelens index` to regenerate the index.")
    checked = run(root, "index", "--check")
    assert checked.returncode == 1
    assert checked.stdout == (f"{RULES}/index.md is stale; {RULES}/app.md could not be read ({why}): "
                              "fix or remove it, then run `rulelens index`.\n")


def test_a_readable_project_is_unchanged(project: ProjectFactory) -> None:
    root = project({f"{RULES}/app.md": APP, "app/x.php": ""})
    assert run(root, "index").stdout == "Wrote .ai/rules/index.md.\n"
    done = run(root, "match", "app/x.php")
    assert done.stderr == "" and "Thin controllers" in done.stdout
    (root / RULES / "index.md").write_text("# edited\n")
    [stale] = [line for line in run(root, "check").stdout.splitlines() if "[index-stale]" in line]
    assert stale.endswith("The index differs from the rule files. Run `rulelens index` to regenerate it.")
