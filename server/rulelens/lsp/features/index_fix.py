"""The stale-index quick fix: regenerate `.ai/rules/index.md` through the core."""

from __future__ import annotations

from lsprotocol import types

from rulelens.lsp.language_server import RulelensServer
from rulelens.lsp.payloads import WRITE_INDEX, ErrorResult, WriteIndexArgs, WriteIndexResult, write_index_args
from rulelens.lsp.plumbing.guard import guarded
from rulelens.lsp.plumbing.workspace import Target
from rulelens.rules.model import RuleError

KIND = types.CodeActionKind.QuickFix
_CODES = {"index-stale", "index-missing"}


def register(server: RulelensServer) -> None:
    server.code_action_providers.append((KIND.value, actions))

    @server.command(WRITE_INDEX)
    @guarded()
    def write_index(ls: RulelensServer, *args: object) -> WriteIndexResult | ErrorResult:
        return execute(ls, write_index_args(args))


def actions(server: RulelensServer, target: Target, context: types.CodeActionContext,
            ) -> list[types.CodeAction]:
    if target.kind not in ("index", "rule") or server.settings_for(target.root).read_only:
        return []
    if target.root.repo.index_is_current():
        return []
    title = "Regenerate the rules index"
    args = WriteIndexArgs(root=target.root.uri)
    return [types.CodeAction(
        title=title, kind=KIND, is_preferred=True,
        diagnostics=[d for d in context.diagnostics if d.code in _CODES] or None,
        command=types.Command(title=title, command=WRITE_INDEX, arguments=[args]),
    )]


def execute(server: RulelensServer, params: WriteIndexArgs) -> WriteIndexResult | ErrorResult:
    root_uri = params.get("root")
    root = server.roots.by_uri(root_uri) if root_uri is not None else None
    if root is None and len(server.roots.all()) == 1:
        root = server.roots.all()[0]
    refused = server.refuse_write(root)
    if refused:
        return ErrorResult(error=refused)
    if root is None:
        return ErrorResult(error="No such project root.")
    try:
        written = root.repo.write_index()
    except RuleError as exc:
        server.window_show_message(types.ShowMessageParams(type=types.MessageType.Error,
                                                           message=str(exc)))
        return ErrorResult(error=str(exc))
    server.rules_changed([root])
    return WriteIndexResult(written=written)
