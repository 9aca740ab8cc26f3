"""The one atomic writer: every file rulelens writes (the caches, `check`'s kept answer, the rule
files people own) goes through `write`, so a reader, or another writer at the same moment, sees
the old file or the new one, never half of one.

A temporary file beside the target, created with O_EXCL under a random name (another name when
that one is taken, so two writers never share one), written whole, renamed over the target; on
any failure it is removed and the error raised. `durable` adds the fsyncs a file people own
needs to survive a power cut (the file, then its folder's entry). Written with `os` alone,
rather than with tempfile's `mkstemp`, because `check`'s kept answer is written on its fast path,
which loads nothing more (tempfile brings random and shutil: 2.7 ms).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, as mypy reads it
if TYPE_CHECKING:
    from collections.abc import Callable

# What `tempfile.mkstemp` opens a file with (O_NOFOLLOW where there is one, O_BINARY on Windows).
_FLAGS = (os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
          | getattr(os, "O_BINARY", 0))
_ATTEMPTS = 100
PRIVATE = 0o600  # a new temporary file's mode, as mkstemp makes it


def write(path: str | os.PathLike[str], data: bytes, *, mode: int = PRIVATE, durable: bool = False,
          suffix: str = ".tmp", step: Callable[[str], None] | None = None) -> None:
    """`data` as the whole of `path`, whose folder exists, with `mode`; `step` is called with
    "mid-write" and "before-rename" (the crash tests' hook)."""
    target = os.fspath(path)
    folder = os.path.dirname(target) or os.curdir
    fd, tmp = temporary(target, suffix)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if step is not None:
                step("mid-write")
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        if mode != PRIVATE:
            os.chmod(tmp, mode)
        if step is not None:
            step("before-rename")
        os.replace(tmp, target)
    except BaseException:
        try:  # noqa: SIM105  (contextlib is not loaded on the kept answer's path: 1 ms)
            os.unlink(tmp)
        except OSError:
            pass
        raise
    if durable:
        sync_folder(folder)


def temporary(target: str, suffix: str = ".tmp") -> tuple[int, str]:
    """A new file beside `target` (`.<name>.<random><suffix>`, mode 0600), open for writing.
    A folder that refuses it is named in the error (the temporary name means nothing to a
    person)."""
    folder, name = os.path.split(target)
    for _ in range(_ATTEMPTS):
        tmp = os.path.join(folder, f".{name}.{os.urandom(6).hex()}{suffix}")
        try:
            return os.open(tmp, _FLAGS, PRIVATE), tmp
        except FileExistsError:
            continue
        except PermissionError as exc:
            raise PermissionError(exc.errno, exc.strerror, folder or os.curdir) from None
    raise FileExistsError(f"no free temporary name beside {target}")


def sync_folder(folder: str | os.PathLike[str]) -> None:
    """The folder's entries to disk (a rename is durable once its folder is synced); quiet where
    a folder cannot be opened (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
