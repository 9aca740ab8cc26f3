"""The quick fix for `paths-key-other`: rename another agent's `globs:`/`applyTo:`/`scope:` key
to Boost's `paths:`, so the file's globs reach the index (and the agents that read it)."""

from __future__ import annotations

from lsprotocol import types

from rulelens.lsp.session import Session
from rulelens.lsp.workspace.snapshot import DocumentSnapshot

KIND = types.CodeActionKind.QuickFix
CODE = "paths-key-other"


def register(server: Session) -> None:
    server.code_action_providers.append((KIND.value, actions))


def actions(server: Session, target: DocumentSnapshot, context: types.CodeActionContext,
            ) -> list[types.CodeAction]:
    if not server.offers_edits(target, "rule"):
        return []
    out = []
    for diagnostic in context.diagnostics:
        if diagnostic.code != CODE or diagnostic.range.start.line != diagnostic.range.end.line:
            continue
        edit = types.TextEdit(range=diagnostic.range, new_text="paths")
        out.append(types.CodeAction(
            title="Rename the key to `paths`, which Boost reads", kind=KIND, is_preferred=True,
            diagnostics=[diagnostic], edit=server.edit(target.uri, [edit])))
    return out
