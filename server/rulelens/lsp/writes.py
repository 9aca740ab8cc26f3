"""The steps every write command takes: find the root, refuse in a read-only workspace, write
through the core off the event loop, say what went wrong, refresh every view.

The core takes the rules folder's lock (`flock`, no timeout) for each write. A CLI `record`, an
MCP call or another editor may hold it for as long as it likes; on the event loop the wait would
stop every hover and diagnostic with it. So the write runs on a worker thread, on a repository
of its own: the session's repository is read by the requests the loop keeps answering, and only
the loop reloads it, once the write is done.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from lsprotocol import types

from rulelens.lsp.session import Session
from rulelens.lsp.wire.payloads import ErrorResult
from rulelens.lsp.workspace.roots import Root
from rulelens.rules.model import RuleError
from rulelens.rules.repository import RuleRepository

T = TypeVar("T")


async def write(server: Session, find_root: Callable[[], Root],
                work: Callable[[Root], Awaitable[T]]) -> T | ErrorResult:
    """`work(root)` unless the workspace is read-only or the root unknown; a RuleError from
    either is shown to the person and answered as `{error}`."""
    root: Root | None = None
    unknown: RuleError | None = None
    try:
        root = find_root()
    except RuleError as exc:
        unknown = exc
    refused = server.refuse_write(root)
    if refused:
        return ErrorResult(error=refused)
    try:
        if root is None:
            raise unknown or RuleError("No such project root.")
        return await work(root)
    except RuleError as exc:
        message = str(exc)
        server.window_show_message(types.ShowMessageParams(type=types.MessageType.Error,
                                                           message=message))
        return ErrorResult(error=message)


async def off_loop(server: Session, root: Root, change: Callable[[RuleRepository], T]) -> T:
    """Run `change` on a worker thread with a fresh repository of the root (it waits there for
    the lock), then reload the session's repository and refresh the views."""
    result = await asyncio.to_thread(change, root.writer())
    root.repo.refresh()
    server.rules_changed([root])
    return result


def named_root(server: Session, root_uri: str | None) -> Root:
    """The root named by its URI, or the only one."""
    root = server.roots.by_uri(root_uri) if root_uri is not None else None
    if root is None and len(server.roots.all()) == 1:
        root = server.roots.all()[0]
    if root is None:
        raise RuleError("No such project root.")
    return root
