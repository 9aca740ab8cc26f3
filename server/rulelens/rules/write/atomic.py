"""Atomic, locked writes (docs/format.md §5): the rule files people own, written by the one
atomic writer (workspace/atomic_write.py) with fsyncs, under the rules folder's lock.

The lock is `flock` on the rules folder itself: it needs no lock file (so nothing stray is
left in the repository) and the kernel drops it when a holder dies, so a dead writer never
blocks the next one. filelock/portalocker would need a lock file beside the rules.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from rulelens.rules.model import RuleError
from rulelens.workspace import atomic_write

TEMP_SUFFIX = ".rulelens-tmp"
_CRASH_ENV = "RULELENS_TEST_CRASH_AT"


def crash_point(step: str) -> None:
    """Test hook: die by SIGKILL at a named step, so crash tests need no sleep races."""
    wanted = os.environ.get(_CRASH_ENV)
    if wanted and wanted == step:
        import signal  # here: its enums cost every command 0.6 ms to import

        os.kill(os.getpid(), signal.SIGKILL)


@contextlib.contextmanager
def exclusive_lock(folder: Path) -> Iterator[None]:
    """Hold the folder's exclusive lock from reading to index rebuild."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: a lock file outside the repository
        with _temp_lock(folder):
            yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


@contextlib.contextmanager
def _temp_lock(folder: Path) -> Iterator[None]:  # pragma: no cover - Windows only
    import hashlib
    import msvcrt
    import tempfile

    name = hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:16]
    path = Path(tempfile.gettempdir()) / f"rulelens-{name}.lock"
    with path.open("a+b") as handle:
        msvcrt.locking(handle.fileno(), msvcrt.LK_LOCK, 1)  # type: ignore[attr-defined]
        try:
            yield
        finally:
            msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]


def ensure_inside(path: Path, root: Path) -> None:
    """Refuse a write that would land outside the root or through a symlink."""
    if path.is_symlink():
        raise RuleError(f"{path.name} is a symbolic link; rulelens does not write through links.")
    real_root = root.resolve()
    real = path.parent.resolve() / path.name
    if real != real_root and real_root not in real.parents:
        raise RuleError(f"Refusing to write {path}: it is outside the project root {root}.")


def write_atomic(path: Path, data: bytes, root: Path) -> None:
    """The file inside root, written atomically and durably (workspace/atomic_write.py, with
    its fsyncs), keeping its mode (a new file: 0644)."""
    ensure_inside(path, root)
    if path.is_dir():
        raise RuleError(f"{path} is a folder, not a file; rulelens cannot write it.")
    mode = 0o644
    with contextlib.suppress(FileNotFoundError):
        mode = path.stat().st_mode & 0o777
    atomic_write.write(path, data, mode=mode, durable=True, suffix=TEMP_SUFFIX, step=crash_point)


def remove_stale_temps(folder: Path) -> None:
    """Temp files left by a writer that died mid-write; safe to drop while we hold the lock."""
    with contextlib.suppress(OSError):
        for entry in folder.iterdir():
            if entry.name.startswith(".") and entry.name.endswith(TEMP_SUFFIX):
                with contextlib.suppress(OSError):
                    entry.unlink()
