"""The record fallback: the edit that a record would make, with placeholders, as a WorkspaceEdit.

For clients that cannot prompt for a title and note. It is computed with the core's own
target choice and text edits (so the file and the `paths` block come out exactly as
`record` would write them), but nothing is written: the person fills in the entry and saves.
"""

from __future__ import annotations

from lsprotocol import types

from rulelens.lsp.session import Session
from rulelens.lsp.wire.edits import minimal_edit
from rulelens.lsp.workspace.roots import Root
from rulelens.lsp.workspace.snapshot import OpenBuffers
from rulelens.rules.model import RecordPlan, RuleError

TITLE = "New rule title"
NOTE = "What an agent must know before editing these files."


def plan(server: Session, root: Root, glob: str, buffers: OpenBuffers) -> RecordPlan:
    """Where a record of `glob` lands and the file text after it, from the open buffer when
    there is one (raises RuleError, as the record itself would)."""
    sk = root.repo.plan_record(glob, TITLE, NOTE, lambda path: buffers.text(path.as_uri()))
    refuse_stale(server, root, sk)
    return sk


def refuse_stale(server: Session, root: Root, sk: RecordPlan) -> None:
    """Refuse a skeleton computed from text that an earlier unversioned edit may have replaced.

    A client without versioned edits (vim-lsp) can apply our edit to a hidden buffer and tell
    us nothing until the file is saved; a second edit computed from the text we still know
    would then land on the wrong lines and break an entry. When the file is, as far as we can
    see, still exactly what the earlier edit was computed from, ask for a save instead.
    """
    uri = sk.path.as_uri()
    pending = server.unconfirmed_edits.get(uri)
    if pending is None or sk.old is None:
        return
    sent_from, opened_since = pending
    try:
        disk = sk.path.read_bytes().decode("utf-8", errors="replace").removeprefix("\ufeff")
    except OSError:
        disk = None
    if sk.old != sent_from or (disk is not None and disk != sent_from):
        del server.unconfirmed_edits[uri]  # the file moved on: the earlier edit arrived or was dropped
        return
    if not opened_since:  # only listed, or applied to an open buffer that reports its changes
        return
    rel = root.repo.rel(sk.path) or sk.path.name
    raise RuleError(f"Save {rel} before recording again: rulelens placed a rule skeleton there that "
                    "it has not seen arrive, and a new one would be computed from stale text. (If you "
                    "did not apply it, close the file and try again.)")


def workspace_edit(server: Session, sk: RecordPlan, buffers: OpenBuffers) -> types.WorkspaceEdit:
    uri = sk.path.as_uri()
    if sk.old is None:
        create = types.CreateFile(uri=uri, options=types.CreateFileOptions(ignore_if_exists=True))
        insert = types.TextEdit(range=types.Range(start=types.Position(line=0, character=0),
                                                  end=types.Position(line=0, character=0)),
                                new_text=sk.new)
        return types.WorkspaceEdit(document_changes=[
            create,
            types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=None),
                edits=[insert],
            ),
        ])
    edit = minimal_edit(server.codec, sk.old, sk.new)
    if not server.versioned_edits and buffers.text(uri) is None:
        server.unconfirmed_edits[uri] = (sk.old, False)  # the client will open the file to apply it
    return server.edit(uri, [edit])
