"""The stale-index quick fix: regenerate `.ai/rules/index.md` through the core (off the event
loop: writes.py)."""

from __future__ import annotations

from functools import partial

from lsprotocol import types

from rulelens.lsp.session import Session
from rulelens.lsp.wire.guard import guarded
from rulelens.lsp.wire.payloads import (
    WRITE_INDEX,
    ErrorResult,
    WriteIndexArgs,
    WriteIndexResult,
    write_index_args,
)
from rulelens.lsp.workspace.roots import Root
from rulelens.lsp.workspace.snapshot import DocumentSnapshot
from rulelens.lsp.writes import named_root, off_loop, write

KIND = types.CodeActionKind.QuickFix
_CODES = {"index-stale", "index-missing"}


def register(server: Session) -> None:
    server.code_action_providers.append((KIND.value, actions))

    @server.command(WRITE_INDEX)
    @guarded()
    async def write_index(ls: Session, *args: object) -> WriteIndexResult | ErrorResult:
        return await execute(ls, write_index_args(args))


def actions(server: Session, target: DocumentSnapshot, context: types.CodeActionContext,
            ) -> list[types.CodeAction]:
    if not server.offers_edits(target, "index", "rule"):
        return []
    if target.root.repo.index_is_current() or target.root.repo.unread():
        return []  # current, or refused while a rule file's row would be lost
    title = "Regenerate the rules index"
    args = WriteIndexArgs(root=target.root.uri)
    return [types.CodeAction(
        title=title, kind=KIND, is_preferred=True,
        diagnostics=[d for d in context.diagnostics if d.code in _CODES] or None,
        command=types.Command(title=title, command=WRITE_INDEX, arguments=[args]),
    )]


async def execute(server: Session, params: WriteIndexArgs) -> WriteIndexResult | ErrorResult:
    async def regenerate(root: Root) -> WriteIndexResult:
        return WriteIndexResult(written=await off_loop(server, root, lambda repo: repo.write_index()))

    return await write(server, partial(named_root, server, params.get("root")), regenerate)
