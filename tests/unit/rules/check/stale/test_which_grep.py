"""`which_grep` answers as `shutil.which("grep")` does on POSIX, which it stands in for."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rulelens.rules.check.stale.text_search import which_grep

pytestmark = pytest.mark.skipif(os.name != "posix", reason="elsewhere shutil answers itself")


def folders(tmp_path: Path) -> dict[str, str]:
    """Folders holding a grep of every kind: runnable, not runnable, a folder, a link."""
    made = {}
    for name in ("runnable", "plain", "folder", "link", "other", "empty"):
        made[name] = str(tmp_path / name)
        os.mkdir(made[name])
    for name, mode in (("runnable", 0o755), ("plain", 0o644), ("other", 0o700)):
        path = Path(made[name]) / "grep"
        path.write_text("#!/bin/sh\n")
        path.chmod(mode)
    os.mkdir(Path(made["folder"]) / "grep")
    os.symlink(Path(made["runnable"]) / "grep", Path(made["link"]) / "grep")
    return made


@pytest.mark.parametrize("order", [
    [], ["empty"], ["runnable"], ["plain", "runnable"], ["folder", "other", "runnable"],
    ["link", "runnable"], ["plain", "folder"], ["empty", "empty", "plain", "other"],
    ["", "runnable"], ["missing", "plain", "link"],
])
def test_as_shutil_which(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, order: list[str]) -> None:
    made = folders(tmp_path)
    monkeypatch.chdir(made["runnable"])  # an empty entry is the current folder
    path = os.pathsep.join(made.get(name, name and str(tmp_path / name)) for name in order)
    monkeypatch.setenv("PATH", path)
    assert which_grep() == shutil.which("grep")


def test_without_path_the_system_s_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PATH", raising=False)
    assert which_grep() == shutil.which("grep")
    monkeypatch.setenv("PATH", "")
    assert which_grep() is None and shutil.which("grep") is None
