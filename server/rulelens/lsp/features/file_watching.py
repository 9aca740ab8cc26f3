"""File watchers where the client offers dynamic registration (the logic is in plumbing/watch)."""

from __future__ import annotations

from lsprotocol import types

from rulelens.lsp.language_server import RulelensServer
from rulelens.lsp.plumbing import watch
from rulelens.lsp.plumbing.guard import guarded


def register(server: RulelensServer) -> None:
    async def register_watchers() -> None:
        await watch.register(server)

    server.initialized_hooks.append(register_watchers)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded()
    def watched(ls: RulelensServer, params: types.DidChangeWatchedFilesParams) -> None:
        watch.changed(ls, params)
