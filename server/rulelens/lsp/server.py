"""Wiring only: register every feature of SPEC §7 on a RulelensServer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsprotocol import types

from rulelens.lsp import (
    code_lens,
    completion,
    diagnostics,
    hover,
    index_action,
    links,
    record,
    rules_query,
    symbols,
    watch,
)
from rulelens.lsp.commands import OPEN_RULE, RECORD_RULE, WRITE_INDEX
from rulelens.lsp.context import RulelensServer
from rulelens.lsp.guard import guarded
from rulelens.lsp.settings import SECTION

CODE_ACTION_KINDS = [record.KIND, types.CodeActionKind.QuickFix]


def build(explicit_root: Path | None = None) -> RulelensServer:
    server = RulelensServer(explicit_root)

    # -- lifecycle and settings ------------------------------------------------------------
    @server.feature(types.INITIALIZE)
    def initialize(ls: RulelensServer, params: types.InitializeParams) -> None:
        ls.init_options = params.initialization_options
        ls.settings = ls.settings.merged(params.initialization_options)
        ls.configure_roots()

    @server.feature(types.INITIALIZED)
    @guarded()
    async def initialized(ls: RulelensServer, params: types.InitializedParams) -> None:
        # Register first: the request then precedes any answer to the client's next request.
        await watch.register(ls)
        await pull_settings(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @guarded()
    async def configuration(ls: RulelensServer,
                            params: types.DidChangeConfigurationParams) -> None:
        raw = params.settings
        if isinstance(raw, dict) and isinstance(raw.get(SECTION), dict):
            await apply_settings(ls, raw)
        else:
            await pull_settings(ls, always_apply=True)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    @guarded()
    async def folders(ls: RulelensServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        ls.configure_roots()
        await watch.register(ls)
        diagnostics.publish_all(ls)

    # -- documents ---------------------------------------------------------------------------
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded()
    def did_open(ls: RulelensServer, params: types.DidOpenTextDocumentParams) -> None:
        watch.poll(ls, skip=params.text_document.uri)
        diagnostics.publish(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded()
    def did_change(ls: RulelensServer, params: types.DidChangeTextDocumentParams) -> None:
        target = ls.target(params.text_document.uri)
        if target is not None and target.kind != "source":
            diagnostics.publish(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    @guarded()
    def did_save(ls: RulelensServer, params: types.DidSaveTextDocumentParams) -> None:
        target = ls.target(params.text_document.uri)
        if target is not None and target.kind != "source" and target.root.repo.refresh():
            watch.republish(ls, [target.root])

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded()
    def did_close(ls: RulelensServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=params.text_document.uri, diagnostics=[]))

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded()
    def watched(ls: RulelensServer, params: types.DidChangeWatchedFilesParams) -> None:
        watch.changed(ls, params)

    # -- requests ----------------------------------------------------------------------------
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded()
    def on_hover(ls: RulelensServer, params: types.HoverParams) -> types.Hover | None:
        watch.poll(ls)
        target = ls.target(params.text_document.uri)
        return hover.hover(ls, target, params.position) if target else None

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=["/", "'", '"']))
    @guarded()
    def on_completion(ls: RulelensServer,
                      params: types.CompletionParams) -> types.CompletionList | None:
        watch.poll(ls)
        target = ls.target(params.text_document.uri)
        return completion.complete(ls, target, params.position) if target else None

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    @guarded(default=[])
    def on_code_lens(ls: RulelensServer, params: types.CodeLensParams) -> list[types.CodeLens]:
        watch.poll(ls)
        target = ls.target(params.text_document.uri)
        return code_lens.lenses(ls, target) if target else []

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=CODE_ACTION_KINDS, resolve_provider=True))
    @guarded(default=[])
    def on_code_action(ls: RulelensServer,
                       params: types.CodeActionParams) -> list[types.CodeAction]:
        watch.poll(ls)
        target = ls.target(params.text_document.uri)
        if target is None:
            return []
        only = [str(k) for k in params.context.only] if params.context.only else None
        return [*record.actions(ls, target, only),
                *index_action.actions(ls, target, params.context)]

    @server.feature(types.CODE_ACTION_RESOLVE)
    @guarded()
    def on_code_action_resolve(ls: RulelensServer, action: types.CodeAction) -> types.CodeAction:
        return record.resolve(ls, action)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @guarded(default=[])
    def on_document_symbol(
        ls: RulelensServer, params: types.DocumentSymbolParams,
    ) -> list[types.DocumentSymbol] | list[types.SymbolInformation]:
        watch.poll(ls)
        target = ls.target(params.text_document.uri)
        return symbols.document_symbols(ls, target) if target else []

    @server.feature(types.WORKSPACE_SYMBOL)
    @guarded(default=[])
    def on_workspace_symbol(ls: RulelensServer,
                            params: types.WorkspaceSymbolParams) -> list[types.SymbolInformation]:
        watch.poll(ls)
        return symbols.workspace_symbols(ls, params.query)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_LINK)
    @guarded(default=[])
    def on_document_link(ls: RulelensServer,
                         params: types.DocumentLinkParams) -> list[types.DocumentLink]:
        target = ls.target(params.text_document.uri)
        return links.links(ls, target) if target else []

    @server.feature(rules_query.METHOD)
    @guarded()
    def on_rules_for_path(ls: RulelensServer, params: Any) -> dict[str, Any] | None:
        watch.poll(ls)
        return rules_query.rules_for(ls, params)

    # -- commands ----------------------------------------------------------------------------
    @server.command(RECORD_RULE)
    @guarded()
    async def record_rule(ls: RulelensServer, *args: Any) -> dict[str, Any]:
        return await record.execute(ls, list(args))

    @server.command(WRITE_INDEX)
    @guarded()
    def write_index(ls: RulelensServer, *args: Any) -> dict[str, Any]:
        return index_action.execute(ls, list(args))

    @server.command(OPEN_RULE)
    @guarded()
    async def open_rule(ls: RulelensServer, *args: Any) -> None:
        params = args[0] if args and isinstance(args[0], dict) else {}
        uri, line = params.get("uri"), params.get("line", 0)
        if isinstance(uri, str) and isinstance(line, int):
            await record.show(ls, uri, line)

    return server


async def pull_settings(ls: RulelensServer, always_apply: bool = False) -> None:
    """Ask the client for the `rulelens` section, where it answers workspace/configuration."""
    if not ls.supports("workspace.configuration"):
        if always_apply:
            diagnostics.publish_all(ls)
        return
    result = await ls.workspace_configuration_async(types.ConfigurationParams(
        items=[types.ConfigurationItem(section=SECTION)]))
    value = result[0] if result else None
    if value is not None or always_apply:
        await apply_settings(ls, value)


async def apply_settings(ls: RulelensServer, raw: object) -> None:
    before = ls.settings
    ls.settings = before.merged(raw)
    if ls.settings == before:
        return
    if ls.settings.rules_folder != before.rules_folder:
        ls.configure_roots()
        await watch.register(ls)
    diagnostics.publish_all(ls)
    record.refresh_lenses(ls)
