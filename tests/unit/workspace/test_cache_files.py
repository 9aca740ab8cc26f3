"""The caches' writer (workspace/cache_files.py): atomic, private, and past another writer's
temporary file."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from rulelens.workspace import cache_files
from rulelens.workspace.cache_files import write, write_file


def test_the_file_is_private_as_mkstemp_makes_it(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "cache.json"
    write(path, b"{}")
    assert path.read_bytes() == b"{}"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_temporary_name_taken_is_not_written_through(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Another writer's temporary file (the same random name, by chance) is left alone: the
    next name is tried, as mkstemp does."""
    path = tmp_path / "cache.json"
    draws = iter([b"\x01" * 6, b"\x02" * 6, b"\x01" * 6, b"\x03" * 6])
    monkeypatch.setattr(cache_files.os, "urandom", lambda n: next(draws))
    theirs = tmp_path / f".cache.json.{'01' * 6}.tmp"
    theirs.write_bytes(b"another writer's")
    write_file(path, b"mine")
    assert path.read_bytes() == b"mine"
    assert theirs.read_bytes() == b"another writer's"
    write_file(path, b"again")  # taken again: the fourth name
    assert path.read_bytes() == b"again"
    assert sorted(p.name for p in tmp_path.iterdir()) == [theirs.name, "cache.json"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "cache.json"
    write(path, b"old")
    with pytest.raises(TypeError):
        write_file(path, "not bytes")  # type: ignore[arg-type]
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["cache.json"]
