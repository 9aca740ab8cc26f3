"""The quick fix for a cause that repeats across files (causes.py): on one file's own finding
(`paths-key-other`, a skill's `agents-disagree`), one action that mends every file of the cause,
as `rulelens check --fix` does. The per-file fixes stay beside it."""

from __future__ import annotations

from collections.abc import Callable

from lsprotocol import types

from rulelens.agents.traps import all_drifts
from rulelens.causes import fixes_touching
from rulelens.lsp.session import Session
from rulelens.lsp.wire.positions import span
from rulelens.lsp.workspace.snapshot import DocumentSnapshot
from rulelens.rules.check.lint import other_paths_keys
from rulelens.rules.model import Edit, Fix

KIND = types.CodeActionKind.QuickFix
CODES = {"paths-key-other", "agents-disagree", "claude-wrong-key"}


def register(server: Session) -> None:
    server.code_action_providers.append((KIND.value, actions))


def actions(server: Session, target: DocumentSnapshot, context: types.CodeActionContext,
            ) -> list[types.CodeAction]:
    found = [d for d in context.diagnostics if d.code in CODES]
    if not found or not server.offers_edits(target, "rule", "agent"):
        return []
    root = target.root
    problems = [p for rule in root.repo.files for p in other_paths_keys(rule)]
    drifts = all_drifts(root.agents()) if any(d.code == "agents-disagree" for d in found) else []
    problems += [d.problem for d in drifts]

    def text_of(rel: str) -> str | None:
        shown = target.buffers.text(root.uri_of(rel))
        if shown is not None:
            return shown
        try:
            return (root.path / rel).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    out = []
    for fix in fixes_touching(target.rel, problems, drifts, text_of):
        edit = _workspace_edit(server, target, fix, text_of)
        if edit is not None:
            out.append(types.CodeAction(title=fix.title, kind=KIND, diagnostics=found, edit=edit))
    return out


def _workspace_edit(server: Session, target: DocumentSnapshot, fix: Fix,
                    text_of: Callable[[str], str | None]) -> types.WorkspaceEdit | None:
    """Every file's edits, each as its document stands (open or on disk): None when a span no
    longer holds what the finding saw."""
    by_file: dict[str, list[Edit]] = {}
    for e in fix.edits:
        by_file.setdefault(e.file, []).append(e)
    changes: dict[str, list[types.TextEdit]] = {}
    for rel, edits in sorted(by_file.items()):
        text = text_of(rel)
        if text is None:
            return None
        lines = text.splitlines()
        text_edits = []
        for e in edits:
            line = lines[e.line] if e.line < len(lines) else ""
            if line[e.col:e.end_col] != e.expect:
                return None
            text_edits.append(types.TextEdit(range=span(server.codec, lines, e.line, e.col, e.end_col),
                                             new_text=e.text))
        changes[target.root.uri_of(rel)] = text_edits
    if not server.versioned_edits:
        return types.WorkspaceEdit(changes=changes)
    version = target.buffers.version
    return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version(uri)),
        edits=list(edits)) for uri, edits in changes.items()])
