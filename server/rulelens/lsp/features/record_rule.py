"""Record a project rule from the editor: the code action, `rulelens.recordRule`, its fallback.

The action offers the core's suggested globs (the file, `dir/**`, `dir/*.ext`). A client
that can prompt gets a command with `{glob, root, uri}` and is expected to ask for the title
and note and send `rulelens.recordRule` with `{glob, title, note}` added. The server then
records through the core (same lock, same bytes as the CLI) on a worker thread (writes.py), the
index is rebuilt, open documents are republished and the rule file is shown at the new entry.

A client that cannot prompt (setting `prompt: false`, or no `window/showDocument`) gets the
action as a workspace edit that places an entry skeleton in the right rule file; a command
that arrives without title and note is answered the same way through `workspace/applyEdit`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from functools import partial

from lsprotocol import types

from rulelens.lsp.session import Session
from rulelens.lsp.views.skeleton import NOTE, TITLE, plan, workspace_edit
from rulelens.lsp.wire.guard import guarded
from rulelens.lsp.wire.payloads import (
    OPEN_RULE,
    RECORD_KIND,
    RECORD_RULE,
    ErrorResult,
    OpenRuleArgs,
    PlacedSkeleton,
    RecordedRule,
    RecordRuleArgs,
    record_rule_args,
)
from rulelens.lsp.workspace.roots import Root, path_of_uri
from rulelens.lsp.workspace.snapshot import DocumentSnapshot, OpenBuffers
from rulelens.lsp.writes import off_loop, write
from rulelens.rules.model import RuleError

log = logging.getLogger(__name__)
KIND = RECORD_KIND


def register(server: Session) -> None:
    server.code_action_providers.append((KIND, actions))

    @server.feature(types.CODE_ACTION_RESOLVE)
    @guarded()
    def on_code_action_resolve(ls: Session, action: types.CodeAction) -> types.CodeAction:
        return resolve(ls, action)

    @server.command(RECORD_RULE)
    @guarded()
    async def record_rule(ls: Session, *args: object,
                          ) -> RecordedRule | PlacedSkeleton | ErrorResult:
        return await execute(ls, record_rule_args(args))


def actions(server: Session, target: DocumentSnapshot,
            context: types.CodeActionContext) -> list[types.CodeAction]:
    if not server.offers_edits(target, "source"):
        return []
    prompt = server.can_prompt(target.root)
    lazy = server.supports("text_document.code_action.data_support") and "edit" in (
        _resolvable(server))
    out = []
    for glob in target.root.repo.suggest_globs(target.rel):
        args = RecordRuleArgs(glob=glob, root=target.root.uri, uri=target.uri)
        title = f"Record a project rule for {glob}{preview(target.root, glob, target.buffers)}"
        if prompt:
            out.append(types.CodeAction(
                title=title, kind=KIND,
                command=types.Command(title=title, command=RECORD_RULE, arguments=[args]),
            ))
        elif lazy:
            out.append(types.CodeAction(title=title, kind=KIND, data=args))
        else:
            try:
                out.append(fallback_action(server, target.root, title, args, target.buffers))
            except RuleError as exc:
                if server.supports("text_document.code_action.disabled_support"):
                    out.append(types.CodeAction(
                        title=title, kind=KIND, disabled=types.CodeActionDisabled(reason=str(exc))))
                else:  # the command says why when it is picked (the client shows the message)
                    out.append(types.CodeAction(
                        title=title, kind=KIND,
                        command=types.Command(title=title, command=RECORD_RULE, arguments=[args])))
    return out


def preview(root: Root, glob: str, buffers: OpenBuffers) -> str:
    """What the record changes beyond adding an entry, said in the action's title before it is
    picked: where it adds `glob` to the `paths` of a rule file whose globs do not cover it yet,
    that file's existing entries then apply to those files too (Boost #1034: never widen
    silently). "" otherwise, and where the record would be refused (the action says why)."""
    from rulelens.rules.write.record import covers

    try:
        sk = root.repo.plan_record(glob, TITLE, NOTE, lambda path: buffers.text(path.as_uri()))
    except RuleError:
        return ""
    rule = root.repo.file(sk.path)
    if sk.old is None or rule is None or not rule.entries or glob in rule.strict_paths or any(
            covers(g, glob) for g in rule.strict_paths):
        return ""
    rel = root.repo.rel(sk.path) or sk.path.name
    n = len(rule.entries)
    return (f" (widens {rel}: its {n} existing {'entry then applies' if n == 1 else 'entries then apply'} "
            f"to {glob} too)")


def _resolvable(server: Session) -> list[str]:
    support = server.caps.text_document and server.caps.text_document.code_action
    resolve = support.resolve_support if support else None
    return list(resolve.properties) if resolve else []


def fallback_action(server: Session, root: Root, title: str, args: RecordRuleArgs,
                    buffers: OpenBuffers) -> types.CodeAction:
    """The action as an edit that adds an entry skeleton, then shows it (where possible)."""
    sk = plan(server, root, args.get("glob", ""), buffers)
    command = None
    if server.supports("window.show_document.support"):  # some clients run only the command
        command = types.Command(title="Show the new entry", command=OPEN_RULE,
                                arguments=[OpenRuleArgs(uri=sk.path.as_uri(), line=sk.line)])
    return types.CodeAction(title=title, kind=KIND, edit=workspace_edit(server, sk, buffers),
                            data=dict(args), command=command)


def resolve(server: Session, action: types.CodeAction) -> types.CodeAction:
    data = record_rule_args([action.data]) if isinstance(action.data, Mapping) else None
    if data is None or "glob" not in data or action.edit is not None:
        return action
    try:
        resolved = fallback_action(server, root_for(server, data), action.title, data,
                                   server.buffers)
    except RuleError as exc:  # e.g. the target rule file is not valid UTF-8: say so, edit nothing
        server.window_show_message(types.ShowMessageParams(type=types.MessageType.Error,
                                                           message=str(exc)))
        return action
    action.edit, action.command = resolved.edit, resolved.command
    return action


def root_for(server: Session, args: RecordRuleArgs) -> Root:
    """The root a record is for: named by `root`, or by the document `uri`, or the only one."""
    root_uri = args.get("root")
    if root_uri is not None:
        root = server.roots.by_uri(root_uri)
        if root is not None:
            return root
    doc_uri = args.get("uri")
    if doc_uri is not None:
        target = server.target(doc_uri)
        if target is not None:
            return target.root
    glob = args.get("glob")
    if glob is not None and glob.startswith("/"):
        path = path_of_uri(f"file://{glob}")
        found = server.roots.for_path(path) if path is not None else None
        if found is not None:
            return found[0]
    roots = server.roots.all()
    if len(roots) == 1:
        return roots[0]
    raise RuleError("Cannot tell which project to record in: pass `root` (the project's URI).")


async def execute(server: Session,
                  params: RecordRuleArgs) -> RecordedRule | PlacedSkeleton | ErrorResult:
    """`rulelens.recordRule`: record when title and note are given, else place a skeleton."""
    return await write(server, partial(root_for, server, params), partial(_record, server, params))


async def _record(server: Session, params: RecordRuleArgs, root: Root) -> RecordedRule | PlacedSkeleton:
    glob = params.get("glob")
    title, note = params.get("title"), params.get("note")
    if glob is None:
        raise RuleError("rulelens.recordRule needs {glob, title, note}; glob is missing.")
    if title is None and note is None:
        return await _skeleton(server, root, glob)
    result = await off_loop(server, root, lambda repo: repo.record(glob, title or "", note or ""))
    uri = root.uri_of(result.file)
    server.window_log_message(types.LogMessageParams(type=types.MessageType.Info,
                                                     message=result.message))
    for repeat in result.repeats:  # worth seeing: the entry repeats one, or the glob adds nothing
        server.window_show_message(types.ShowMessageParams(type=types.MessageType.Info,
                                                           message=repeat))
    await server.show(uri, result.line)
    return RecordedRule(file=result.file, line=result.line + 1, created=result.created,
                        message=result.message, uri=uri)


async def _skeleton(server: Session, root: Root, glob: str) -> PlacedSkeleton:
    buffers = server.buffers  # the open documents, once for the command
    sk = plan(server, root, glob, buffers)
    uri = sk.path.as_uri()
    if not server.supports("workspace.apply_edit"):
        raise RuleError("This client can neither prompt for a title and note nor apply edits.")
    result = await server.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
        edit=workspace_edit(server, sk, buffers), label="Record a project rule"))
    if not result.applied:
        raise RuleError(f"The editor did not apply the rule skeleton: {result.failure_reason}")
    await server.show(uri, sk.line, sk.new)
    return PlacedSkeleton(file=str(sk.path), line=sk.line + 1, skeleton=True, uri=uri)
