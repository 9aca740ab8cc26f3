"""Record a project rule from the editor: the code action, `rulelens.recordRule`, its fallback.

The action offers the core's suggested globs (the file, `dir/**`, `dir/*.ext`). A client
that can prompt gets a command with `{glob, root, uri}` and is expected to ask for the title
and note and send `rulelens.recordRule` with `{glob, title, note}` added. The server then
records through the core (same lock, same bytes as the CLI), the index is rebuilt, open
documents are republished and the rule file is shown at the new entry.

A client that cannot prompt (setting `prompt: false`, or no `window/showDocument`) gets the
action as a workspace edit that places an entry skeleton in the right rule file; a command
that arrives without title and note is answered the same way through `workspace/applyEdit`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from lsprotocol import types

from rulelens.lsp import diagnostics
from rulelens.lsp.commands import OPEN_RULE, RECORD_RULE
from rulelens.lsp.context import RulelensServer
from rulelens.lsp.positions import lines_of, whole_line
from rulelens.lsp.skeleton import plan, workspace_edit
from rulelens.lsp.workspace import Root, Target, path_of_uri
from rulelens.rules.model import RuleError

log = logging.getLogger(__name__)
KIND = "source.rulelens.record"


def _wanted(only: list[str] | None, kind: str) -> bool:
    return not only or any(kind == k or kind.startswith(k + ".") or k == "" for k in only)


def actions(server: RulelensServer, target: Target,
            only: list[str] | None) -> list[types.CodeAction]:
    if target.kind != "source" or not _wanted(only, KIND) or server.settings.read_only:
        return []
    prompt = server.can_prompt()
    lazy = server.supports("text_document.code_action.data_support") and "edit" in (
        _resolvable(server))
    out = []
    for glob in target.root.repo.suggest_globs(target.rel):
        args = {"glob": glob, "root": target.root.uri, "uri": target.uri}
        title = f"Record a project rule for {glob}"
        if prompt:
            out.append(types.CodeAction(
                title=title, kind=KIND,
                command=types.Command(title=title, command=RECORD_RULE, arguments=[args]),
            ))
        elif lazy:
            out.append(types.CodeAction(title=title, kind=KIND, data=args))
        else:
            try:
                out.append(fallback_action(server, target.root, title, args))
            except RuleError as exc:
                if server.supports("text_document.code_action.disabled_support"):
                    out.append(types.CodeAction(
                        title=title, kind=KIND, disabled=types.CodeActionDisabled(reason=str(exc))))
    return out


def _resolvable(server: RulelensServer) -> list[str]:
    support = server.caps.text_document and server.caps.text_document.code_action
    resolve = support.resolve_support if support else None
    return list(resolve.properties) if resolve else []


def fallback_action(server: RulelensServer, root: Root, title: str,
                    args: Mapping[str, Any]) -> types.CodeAction:
    """The action as an edit that adds an entry skeleton, then shows it (where possible)."""
    sk = plan(server, root, str(args["glob"]))
    command = None
    if server.supports("window.show_document.support"):  # some clients run only the command
        command = types.Command(title="Show the new entry", command=OPEN_RULE,
                                arguments=[{"uri": sk.path.as_uri(), "line": sk.line}])
    return types.CodeAction(title=title, kind=KIND, edit=workspace_edit(server, sk),
                            data=dict(args), command=command)


def resolve(server: RulelensServer, action: types.CodeAction) -> types.CodeAction:
    data = action.data if isinstance(action.data, Mapping) else None
    if data is None or "glob" not in data or action.edit is not None:
        return action
    try:
        resolved = fallback_action(server, root_for(server, data), action.title, data)
    except RuleError as exc:  # e.g. the target rule file is not valid UTF-8: say so, edit nothing
        server.window_show_message(types.ShowMessageParams(type=types.MessageType.Error,
                                                           message=str(exc)))
        return action
    action.edit, action.command = resolved.edit, resolved.command
    return action


def root_for(server: RulelensServer, args: Mapping[str, Any]) -> Root:
    """The root a record is for: named by `root`, or by the document `uri`, or the only one."""
    root_uri = args.get("root")
    if isinstance(root_uri, str):
        root = server.roots.by_uri(root_uri)
        if root is not None:
            return root
    doc_uri = args.get("uri")
    if isinstance(doc_uri, str):
        target = server.target(doc_uri)
        if target is not None:
            return target.root
    glob = args.get("glob")
    if isinstance(glob, str) and glob.startswith("/"):
        path = path_of_uri(f"file://{glob}")
        found = server.roots.for_path(path) if path is not None else None
        if found is not None:
            return found[0]
    roots = server.roots.all()
    if len(roots) == 1:
        return roots[0]
    raise RuleError("Cannot tell which project to record in: pass `root` (the project's URI).")


async def execute(server: RulelensServer, args: list[Any]) -> dict[str, Any]:
    """`rulelens.recordRule`: record when title and note are given, else place a skeleton."""
    refused = server.refuse_write()
    if refused:
        return {"error": refused}
    params = args[0] if args and isinstance(args[0], Mapping) else {}
    try:
        root = root_for(server, params)
        glob = params.get("glob")
        title, note = params.get("title"), params.get("note")
        if not isinstance(glob, str):
            raise RuleError("rulelens.recordRule needs {glob, title, note}; glob is missing.")
        if title is None and note is None:
            return await _skeleton(server, root, glob)
        result = root.repo.record(glob, str(title or ""), str(note or ""))
    except RuleError as exc:
        message = str(exc)
        server.window_show_message(types.ShowMessageParams(type=types.MessageType.Error,
                                                           message=message))
        return {"error": message}
    root.repo.refresh()
    diagnostics.publish_all(server)
    refresh_lenses(server)
    uri = root.uri_of(result.file)
    server.window_log_message(types.LogMessageParams(type=types.MessageType.Info,
                                                     message=result.message))
    await show(server, uri, result.line)
    return {"file": result.file, "line": result.line + 1, "created": result.created,
            "message": result.message, "uri": uri}


async def _skeleton(server: RulelensServer, root: Root, glob: str) -> dict[str, Any]:
    sk = plan(server, root, glob)
    uri = sk.path.as_uri()
    if not server.supports("workspace.apply_edit"):
        raise RuleError("This client can neither prompt for a title and note nor apply edits.")
    result = await server.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
        edit=workspace_edit(server, sk), label="Record a project rule"))
    if not result.applied:
        raise RuleError(f"The editor did not apply the rule skeleton: {result.failure_reason}")
    await show(server, uri, sk.line, sk.new)
    return {"file": str(sk.path), "line": sk.line + 1, "skeleton": True, "uri": uri}


async def show(server: RulelensServer, uri: str, line: int, text: str | None = None) -> None:
    """Show a rule file with the entry heading selected, where the client can."""
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


def refresh_lenses(server: RulelensServer) -> None:
    if server.supports("workspace.code_lens.refresh_support"):
        server.workspace_code_lens_refresh(None)
