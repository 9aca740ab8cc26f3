"""The one way rulelens builds a workspace edit of an existing document, and the smallest edit
between two texts.

Versioned where the client takes `documentChanges`: the version the edit was computed against
makes a client holding a newer buffer refuse it instead of corrupting the file. A document the
server never saw open has no version (None): the edit was computed from the disk.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from rulelens.rules.format.reading import split_keepends


def text_edits(uri: str, edits: Sequence[types.TextEdit], version: int | None,
               versioned: bool) -> types.WorkspaceEdit:
    """`edits` of one document: a versioned `documentChanges` entry, else plain `changes`."""
    if versioned:
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
            edits=list(edits))])
    return types.WorkspaceEdit(changes={uri: list(edits)})


def minimal_edit(codec: PositionCodec, old: str, new: str) -> types.TextEdit:
    """One edit replacing only the lines that differ (keeps the person's cursor and folds)."""
    a = split_keepends(old)
    b = split_keepends(new)
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while (tail < min(len(a), len(b)) - head and a[len(a) - 1 - tail] == b[len(b) - 1 - tail]):
        tail += 1
    start = types.Position(line=head, character=0)
    end_line = len(a) - tail
    if end_line < len(a) or not a or a[-1].endswith(("\n", "\r")):
        end = types.Position(line=end_line, character=0)
    else:  # the replaced part runs to the end of a last line without a line break
        end = types.Position(line=len(a) - 1, character=codec.client_num_units(a[-1]))
    return types.TextEdit(range=types.Range(start=start, end=end),
                          new_text="".join(b[head:len(b) - tail]))
