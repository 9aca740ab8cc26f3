"""The stale-index quick fix: regenerate `.ai/rules/index.md` through the core."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lsprotocol import types

from rulelens.lsp import diagnostics
from rulelens.lsp.commands import WRITE_INDEX
from rulelens.lsp.context import RulelensServer
from rulelens.lsp.workspace import Target
from rulelens.rules.model import RuleError

KIND = types.CodeActionKind.QuickFix
_CODES = {"index-stale", "index-missing"}


def actions(server: RulelensServer, target: Target, context: types.CodeActionContext,
            ) -> list[types.CodeAction]:
    if target.kind not in ("index", "rule") or server.settings.read_only:
        return []
    if context.only and not any(KIND.value.startswith(k) for k in context.only):
        return []
    if target.root.repo.index_is_current():
        return []
    title = "Regenerate the rules index"
    return [types.CodeAction(
        title=title, kind=KIND, is_preferred=True,
        diagnostics=[d for d in context.diagnostics if d.code in _CODES] or None,
        command=types.Command(title=title, command=WRITE_INDEX,
                              arguments=[{"root": target.root.uri}]),
    )]


def execute(server: RulelensServer, args: list[Any]) -> dict[str, Any]:
    refused = server.refuse_write()
    if refused:
        return {"error": refused}
    params = args[0] if args and isinstance(args[0], Mapping) else {}
    root_uri = params.get("root")
    root = server.roots.by_uri(root_uri) if isinstance(root_uri, str) else None
    if root is None and len(server.roots.all()) == 1:
        root = server.roots.all()[0]
    if root is None:
        return {"error": "No such project root."}
    try:
        written = root.repo.write_index()
    except RuleError as exc:
        server.window_show_message(types.ShowMessageParams(type=types.MessageType.Error,
                                                           message=str(exc)))
        return {"error": str(exc)}
    diagnostics.publish_all(server)
    return {"written": written}
