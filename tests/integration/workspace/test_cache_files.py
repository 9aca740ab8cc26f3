"""The one atomic writer (workspace/atomic_write.py), as the caches use it (cache_files.write):
safe against another writer of the same file at the same moment, in this process or another."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from rulelens.workspace import atomic_write
from rulelens.workspace.atomic_write import write as write_file
from rulelens.workspace.cache_files import write

SIZE = 256 * 1024  # larger than one write of a pipe or a page: a torn file would show

WRITER = f"""
import sys
from pathlib import Path
from rulelens.workspace.atomic_write import write as write_file
path, mark = Path(sys.argv[1]), sys.argv[2].encode()
for n in range(int(sys.argv[3])):
    write_file(path, mark * {SIZE})
"""


def whole(data: bytes) -> bool:
    """One writer's payload, entire: a single byte repeated SIZE times."""
    return len(data) == SIZE and data == data[:1] * SIZE


def test_writers_at_once_each_leave_a_whole_file(tmp_path: Path) -> None:
    """Two processes and two threads of this one write the same file 60 times each while it is
    read: every reading is one writer's whole file, and no temporary file is left."""
    path = tmp_path / "cache.json"
    write(path, b"0" * SIZE)
    env = {**os.environ, "PYTHONPATH": str(Path(atomic_write.__file__).parents[2])}
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), mark, "60"], env=env)
             for mark in ("a", "b")]
    threads = [threading.Thread(target=lambda m=mark: [write_file(path, m * SIZE) for _ in range(60)])
               for mark in (b"c", b"d")]
    for thread in threads:
        thread.start()
    seen = set()
    while any(p.poll() is None for p in procs) or any(t.is_alive() for t in threads):
        data = path.read_bytes()
        assert whole(data), data[:1]
        seen.add(data[:1])
    for thread in threads:
        thread.join()
    assert [p.wait() for p in procs] == [0, 0]
    assert whole(path.read_bytes())
    assert len(seen) > 1  # the writers did overlap the readings
    assert [p.name for p in tmp_path.iterdir()] == ["cache.json"]
