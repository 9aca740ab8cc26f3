"""Apply a WorkspaceEdit to disk the way an editor would (test-side only)."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pygls.uris import to_fs_path
from pytest_lsp import LanguageClient

from tests.lsp.helpers import encoding


def _offset(text: str, position: types.Position, enc: str) -> int:
    lines = text.splitlines(keepends=True)
    if position.line >= len(lines):
        return len(text)
    start = sum(len(line) for line in lines[: position.line])
    line = lines[position.line]
    units = 0
    for i, ch in enumerate(line):
        if units >= position.character:
            return start + i
        units += len(ch.encode("utf-8")) if enc == "utf-8" else len(ch.encode("utf-16-le")) // 2
    return start + len(line.rstrip("\r\n"))


def apply_text_edits(text: str, edits: list[types.TextEdit], enc: str) -> str:
    spans = sorted(((_offset(text, e.range.start, enc), _offset(text, e.range.end, enc),
                     e.new_text) for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def apply_workspace_edit(edit: types.WorkspaceEdit, client: LanguageClient) -> None:
    enc = encoding(client)

    def edit_file(uri: str, edits: list[types.TextEdit]) -> None:
        path = Path(to_fs_path(uri) or "")
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        path.write_text(apply_text_edits(text, edits, enc), encoding="utf-8")

    for change in edit.document_changes or []:
        if isinstance(change, types.CreateFile):
            path = Path(to_fs_path(change.uri) or "")
            assert not path.exists()
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("", encoding="utf-8")
        elif isinstance(change, types.TextDocumentEdit):
            edit_file(change.text_document.uri, [e for e in change.edits
                                                 if isinstance(e, types.TextEdit)])
    for uri, edits in (edit.changes or {}).items():
        edit_file(uri, list(edits))


def edits_of(edit: types.WorkspaceEdit | None, uri: str) -> list[types.TextEdit]:
    """The text edits of `uri` in a one-document edit, versioned or plain."""
    assert edit is not None
    if edit.document_changes:
        [change] = edit.document_changes
        assert isinstance(change, types.TextDocumentEdit) and change.text_document.uri == uri
        return [e for e in change.edits if isinstance(e, types.TextEdit)]
    assert edit.changes is not None
    return list(edit.changes[uri])
