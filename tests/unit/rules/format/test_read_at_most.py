"""Reading a rule file's first bytes (rules/format/reading.py `read_at_most`): the bytes
`read(limit)` gives, whatever the file's size, and when it grows after its size was read."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest

from rulelens.rules.format.reading import read_at_most

LIMIT = 64


@pytest.mark.parametrize("size", [0, 1, LIMIT - 1, LIMIT, LIMIT + 1, 5 * LIMIT])
def test_the_same_bytes_as_a_read_of_the_limit(tmp_path: Path, size: int) -> None:
    path = tmp_path / "f.md"
    path.write_bytes(bytes(range(256))[:size % 256] * (size // 256 + 1))
    with path.open("rb") as a, path.open("rb") as b:
        assert read_at_most(a, LIMIT) == b.read(LIMIT)


@pytest.mark.parametrize("grown_to", [10, LIMIT, 3 * LIMIT])
def test_a_file_that_grew_after_its_size_was_read(tmp_path: Path, grown_to: int,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.md"
    path.write_bytes(b"x" * grown_to)
    real = os.fstat

    def stale(fd: int) -> Any:
        st = real(fd)
        return os.stat_result((st.st_mode, st.st_ino, st.st_dev, st.st_nlink, st.st_uid,
                               st.st_gid, 3, st.st_atime, st.st_mtime, st.st_ctime))

    monkeypatch.setattr(os, "fstat", stale)  # the size before the file grew: 3 bytes
    with path.open("rb") as handle:
        assert read_at_most(handle, LIMIT) == b"x" * min(grown_to, LIMIT)


def test_a_stream_without_a_descriptor() -> None:
    assert read_at_most(io.BytesIO(b"abc" * 100), LIMIT) == (b"abc" * 100)[:LIMIT]
