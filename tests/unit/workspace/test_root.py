"""Root discovery: --root, else the nearest .ai/rules, else the nearest .git, else the folder itself."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulelens.workspace.root import find_root, is_project, root_text


def test_explicit_root_wins(tmp_path: Path) -> None:
    (tmp_path / "a/.ai/rules").mkdir(parents=True)
    assert find_root(tmp_path / "a", tmp_path) == tmp_path.resolve()


def test_rules_folder_beats_a_nearer_git(tmp_path: Path) -> None:
    (tmp_path / ".ai/rules").mkdir(parents=True)
    (tmp_path / "pkg/.git").mkdir(parents=True)
    (tmp_path / "pkg/src").mkdir()
    assert find_root(tmp_path / "pkg/src") == tmp_path.resolve()


def test_git_when_there_is_no_rules_folder(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "src").mkdir()
    assert find_root(tmp_path / "src") == tmp_path.resolve()


def test_a_custom_rules_folder(tmp_path: Path) -> None:
    (tmp_path / "docs/rules").mkdir(parents=True)
    (tmp_path / "x").mkdir()
    assert find_root(tmp_path / "x", rules_dir="docs/rules") == tmp_path.resolve()


def test_a_file_starts_from_its_folder_and_nothing_found_is_the_start(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("x")
    assert find_root(tmp_path / "f.txt") == tmp_path.resolve()
    assert not is_project(tmp_path)
    (tmp_path / ".git").mkdir()
    assert is_project(tmp_path)


def test_a_linked_folder_is_resolved_before_looking_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """From a link into a project, the project that holds the link's target; text in, text out
    for `check`'s kept answer (root_text), a Path for the rest (find_root)."""
    (tmp_path / "a/.git").mkdir(parents=True)
    (tmp_path / "a/b/.ai/rules").mkdir(parents=True)
    (tmp_path / "a/b/c/d").mkdir(parents=True)
    (tmp_path / "f").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "a/b/c")
    real = tmp_path.resolve()
    for here, root in [("a", "a"), ("a/b/c/d", "a/b"), ("f", "f"), ("link", "a/b"), ("link/d", "a/b")]:
        monkeypatch.chdir(tmp_path / here)
        assert root_text(os.getcwd()) == str(real / root), here
        assert find_root(Path.cwd()) == real / root, here
    monkeypatch.chdir(tmp_path / "link/d")
    assert root_text(os.getcwd(), "../d") == str(real / "a/b/c/d")  # from the real folder
    assert find_root(Path.cwd(), Path("~/x")) == Path.home().resolve() / "x"


def test_a_project_is_a_folder_with_either_marker_given_as_text_or_path(tmp_path: Path) -> None:
    assert not is_project(str(tmp_path))
    (tmp_path / ".ai/rules").mkdir(parents=True)
    assert is_project(str(tmp_path)) and is_project(tmp_path)
