"""File watchers where the client offers dynamic registration (the logic is in workspace/watch.py)."""

from __future__ import annotations

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
        watch.changed(ls, params)
