"""`textDocument/codeAction`: one handler asking every provider (record, the index fix).

LSP allows one handler per method; features that offer actions add a provider to
`server.code_action_providers` (with the kind of their actions) in their `register`, so this
one must be registered after them. It applies the client's `only` filter for all of them.
"""

from __future__ import annotations

from lsprotocol import types

from rulelens.lsp.session import Session
from rulelens.lsp.wire.requests import document_request
from rulelens.lsp.workspace.snapshot import DocumentSnapshot


def register(server: Session) -> None:
    kinds = list(dict.fromkeys(kind for kind, _ in server.code_action_providers))

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=kinds, resolve_provider=True))
    @document_request(default=[])
    def on_code_action(ls: Session, target: DocumentSnapshot,
                       params: types.CodeActionParams) -> list[types.CodeAction]:
        return [action for kind, provide in ls.code_action_providers
                if wanted(params.context, kind)
                for action in provide(ls, target, params.context)]


def wanted(context: types.CodeActionContext, kind: str) -> bool:
    """Whether the client's `only` filter lets actions of `kind` through."""
    only = [str(k) for k in context.only] if context.only else None
    return not only or any(kind == k or kind.startswith(k + ".") or k == "" for k in only)
