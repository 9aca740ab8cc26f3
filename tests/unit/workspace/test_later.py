"""`Later` and `in_thread` (workspace/later.py) answer as concurrent.futures' Future and a
one-job pool do: the value, or the work's exception raised where it is asked for."""

from __future__ import annotations

import threading

import pytest

from rulelens.workspace.later import Later, after, in_thread


def test_the_value_comes_from_another_thread_and_stays() -> None:
    gate = threading.Event()
    where: list[str] = []

    def work() -> int:
        gate.wait()
        where.append(threading.current_thread().name)
        return 42

    later = in_thread(work, name="rulelens-test")
    gate.set()
    assert later.result() == 42
    assert later.result() == 42  # asked again: the same answer, no wait
    assert where == ["rulelens-test"]


def test_the_work_s_exception_is_raised_where_the_value_is_asked_for() -> None:
    def work() -> int:
        raise LookupError("no such thing")

    later = in_thread(work)
    later.wait()  # waiting raises nothing
    with pytest.raises(LookupError, match="no such thing"):
        later.result()


def test_a_value_set_by_hand_and_none_as_a_value() -> None:
    later: Later[int | None] = Later()
    threading.Timer(0.01, later.set_result, args=(None,)).start()
    assert later.result() is None
    failed: Later[int] = Later()
    failed.set_exception(KeyError("k"))
    with pytest.raises(KeyError):
        failed.result()


def test_after_runs_once_in_its_own_thread_unless_cancelled_first() -> None:
    ran = threading.Event()
    where: list[str] = []

    def action() -> None:
        where.append(threading.current_thread().name)
        ran.set()

    after(0, action, name="rulelens-timer")
    assert ran.wait(30)
    assert where == ["rulelens-timer"]
    cancelled: list[int] = []
    cancel = after(3600, lambda: cancelled.append(1))
    cancel()
    assert cancelled == []
