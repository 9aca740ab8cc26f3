"""Python's cyclic garbage collector, paused while the server starts.

Starting allocates much and frees little: importing lsprotocol builds about 1,000 classes, and
reading 1,000 rule files makes some 100,000 objects; every full collection walks all of them
(about 45 ms of collections before the first answer here, 80 ms at 10,000 globs), and none
finds much. So collecting waits until the first answers are out and the client is quiet
(workspace/warmup.py), or `RESUME_AFTER` seconds after `initialized` whatever happens. Then
one full collection frees what the start left in cycles (attrs replaces each class it builds,
about 18,000 objects, 9 MB), and what is alive is moved to the permanent generation
(`gc.freeze`): the modules, classes and rules of the start live about as long as the server,
and later collections need not walk them again. Memory is still freed by reference counting
meanwhile; only cycles wait.
"""

from __future__ import annotations

import gc

RESUME_AFTER = 2.0  # seconds after `initialized`
_paused = False  # per process, as the collector it pauses is


def pause() -> None:
    """Stop collecting until `resume` (a no-op when something else disabled it already)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """Collect again, the start's garbage freed and its objects set aside; only after our own
    `pause`."""
    global _paused
    if _paused:
        _paused = False
        gc.collect()
        gc.freeze()
        gc.enable()
