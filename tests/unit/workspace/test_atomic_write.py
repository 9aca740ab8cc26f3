"""The one atomic writer (workspace/atomic_write.py), as the caches (cache_files.write) and the
rule files (rules/write/atomic.py) use it: a temporary file of its own, renamed over the target,
and nothing left behind when a write fails or stops."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from rulelens.workspace import atomic_write
from rulelens.workspace.atomic_write import write as write_file
from rulelens.workspace.cache_files import write


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
    monkeypatch.setattr(atomic_write.os, "urandom", lambda n: next(draws))
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


def test_a_rule_file_keeps_its_mode_and_a_new_one_is_readable_by_all(tmp_path: Path) -> None:
    """The rule files' writer (rules/write/atomic.py) through the same writer: a file people
    own keeps its mode, a new one gets 0644 (not the temporary file's 0600)."""
    from rulelens.rules.write.atomic import write_atomic

    script = tmp_path / "run.sh"
    script.write_bytes(b"old")
    script.chmod(0o751)
    write_atomic(script, b"new", tmp_path)
    write_atomic(tmp_path / "rule.md", b"# Rule\n", tmp_path)
    assert script.read_bytes() == b"new" and stat.S_IMODE(script.stat().st_mode) == 0o751
    assert stat.S_IMODE((tmp_path / "rule.md").stat().st_mode) == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rule.md", "run.sh"]


@pytest.mark.parametrize("step", ["mid-write", "before-rename"])
def test_a_write_stopped_at_a_step_leaves_the_old_file(tmp_path: Path, step: str) -> None:
    """The steps the crash tests kill the process at come in order, before the rename: stopped
    at either, the old file is whole and the temporary file gone."""
    path = tmp_path / "rule.md"
    path.write_bytes(b"old")
    seen: list[str] = []

    def stop(at: str) -> None:
        seen.append(at)
        if at == step:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        atomic_write.write(path, b"new", durable=True, step=stop)
    assert seen == {"mid-write": ["mid-write"], "before-rename": ["mid-write", "before-rename"]}[step]
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["rule.md"]
