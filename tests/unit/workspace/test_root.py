"""Root discovery: --root, else the nearest .ai/rules, else the nearest .git, else the folder itself."""

from __future__ import annotations

from pathlib import Path

from rulelens.workspace.root import find_root, is_project


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
