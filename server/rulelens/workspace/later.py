"""A value another thread works out: what `check` waits for from git and grep. The one home of
every thread rulelens starts (`in_thread`, and `after` for a timer); tests/architecture/
test_one_home.py fails on a thread started anywhere else.

Written by hand: `concurrent.futures` does this with its Future and thread pool, but importing
it loads logging, traceback, textwrap, string and queue, about 4 ms of a small project's whole
`check`, for what one lock and a thread do here. `Later` answers as a Future does
(`result` gives the value or raises what the work raised); `in_thread` is a one-job pool.
"""

from __future__ import annotations

from _thread import allocate_lock
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Later(Generic[T]):
    """A value, or the exception in its place, set once by one thread and read by any."""

    def __init__(self) -> None:
        self._unset = allocate_lock()  # held until the value is set
        self._unset.acquire()
        self._value: T | None = None
        self._error: BaseException | None = None

    def set_result(self, value: T) -> None:
        self._value = value
        self._unset.release()

    def set_exception(self, error: BaseException) -> None:
        self._error = error
        self._unset.release()

    def wait(self) -> None:
        """Until the value is set (as a pool's shutdown waits for its work)."""
        with self._unset:
            pass

    def result(self) -> T:
        """The value, once set; the work's exception raised here, as `Future.result` does."""
        self.wait()
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]  # set, and of type T


def in_thread(work: Callable[[], T], name: str | None = None, daemon: bool = False) -> Later[T]:
    """`work()` started in a thread of its own: its value or exception, later."""
    import threading  # subprocess loads it already on every path that starts a thread

    later: Later[T] = Later()

    def run() -> None:
        try:
            value = work()
        except BaseException as error:  # given to whoever asks, as a pool's worker does
            later.set_exception(error)
        else:
            later.set_result(value)

    threading.Thread(target=run, name=name, daemon=daemon).start()
    return later


def after(delay: float, action: Callable[[], object], name: str | None = None) -> Callable[[], None]:
    """`action()` in a daemon thread of its own after `delay` seconds, unless the returned
    cancel is called first (a timeout's kill, a progress line shown only when a run is slow)."""
    import threading

    timer = threading.Timer(delay, action)
    timer.daemon = True
    if name is not None:
        timer.name = name
    timer.start()
    return timer.cancel
