"""File watchers where the client offers dynamic registration (the logic is in workspace/watch.py)."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from rulelens.lsp.session import Session
from rulelens.lsp.wire.guard import guarded
from rulelens.lsp.workspace import watch


def register(server: Session) -> None:
    async def register_watchers() -> None:
        await watch.register(server)

    server.initialized_hooks.append(register_watchers)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded()
    def watched(ls: Session, params: types.DidChangeWatchedFilesParams) -> None:
        # Synchronous, so a request that follows the notification sees its effect; only the
        # re-registration (the client's answer) is awaited later.
        if watch.changed(ls, params):
            pending.add(task := asyncio.get_running_loop().create_task(watch.register(ls)))
            task.add_done_callback(pending.discard)

    pending: set[asyncio.Task[None]] = set()  # held so the loop does not drop a running task
