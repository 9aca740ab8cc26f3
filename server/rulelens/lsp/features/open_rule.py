"""`rulelens.openRule` and showing a rule file at a line (code lens, record, skeleton)."""

from __future__ import annotations

from lsprotocol import types

from rulelens.lsp.language_server import RulelensServer
from rulelens.lsp.payloads import OPEN_RULE, open_rule_args
from rulelens.lsp.plumbing.guard import guarded
from rulelens.lsp.plumbing.positions import lines_of, whole_line
from rulelens.lsp.plumbing.workspace import path_of_uri


def register(server: RulelensServer) -> None:
    @server.command(OPEN_RULE)
    @guarded()
    async def open_rule(ls: RulelensServer, *args: object) -> None:
        params = open_rule_args(args)
        if params is not None:
            await show(ls, params["uri"], params["line"])


async def show(server: RulelensServer, uri: str, line: int, text: str | None = None) -> None:
    """Show a file with line `line` (0-based) selected, where the client can."""
    if not server.supports("window.show_document.support"):
        return
    if text is None:
        path = path_of_uri(uri)
        try:
            text = path.read_text(encoding="utf-8") if path is not None else ""
        except OSError:
            text = ""
    lines = lines_of(text)
    await server.window_show_document_async(types.ShowDocumentParams(
        uri=uri, take_focus=True, selection=whole_line(server.codec, lines, line)))
