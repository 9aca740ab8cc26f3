"""The garbage collector's pause while the server starts (lsp/workspace/collector.py): resumed
once, with the start's objects set aside, and never turned on where someone else turned it off."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from rulelens.lsp.workspace import collector


@pytest.fixture(autouse=True)
def restore() -> Iterator[None]:
    enabled = gc.isenabled()
    yield
    collector._paused = False
    gc.unfreeze()
    (gc.enable if enabled else gc.disable)()


class Cycle:
    def __init__(self) -> None:
        self.me = self


def test_pause_then_resume_collects_again_with_the_start_set_aside() -> None:
    import weakref

    gc.enable()
    collector.pause()
    assert not gc.isenabled()
    started = [[n] for n in range(1000)]  # what a start leaves alive
    garbage = weakref.ref(Cycle())  # and what it leaves in a cycle
    assert garbage() is not None
    collector.resume()
    assert gc.isenabled() and gc.get_freeze_count() >= len(started)
    assert garbage() is None  # freed, not frozen
    gc.unfreeze()
    collector.resume()  # a second resume (the timer after the warm-up) changes nothing
    assert gc.get_freeze_count() == 0


def test_a_collector_someone_else_turned_off_stays_off() -> None:
    gc.disable()
    collector.pause()
    collector.resume()
    assert not gc.isenabled()
