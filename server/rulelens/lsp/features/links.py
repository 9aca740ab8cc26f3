"""Document links from the index's rows to the rule files they name."""

from __future__ import annotations

import re

from lsprotocol import types

from rulelens.lsp.session import Session
from rulelens.lsp.wire.positions import lines_of, span
from rulelens.lsp.wire.requests import document_request
from rulelens.lsp.workspace.snapshot import DocumentSnapshot

_LAST_CELL = re.compile(r"\|\s*([^|]*?\.md)\s*\|\s*$")


def register(server: Session) -> None:
    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_LINK)
    @document_request(default=[])
    def on_document_link(ls: Session, target: DocumentSnapshot,
                         params: types.DocumentLinkParams) -> list[types.DocumentLink]:
        return links(ls, target)


def links(server: Session, target: DocumentSnapshot) -> list[types.DocumentLink]:
    if target.kind != "index":
        return []
    tooltip = server.supports("text_document.document_link.tooltip_support")
    lines = lines_of(target.text)
    out = []
    for n, line in enumerate(lines):
        if not line.lstrip().startswith("|"):
            continue
        m = _LAST_CELL.search(line)
        if m is None:
            continue
        rel = m.group(1)
        path = (target.root.path / rel).resolve()
        if target.root.path not in path.parents or not path.is_file():
            continue
        out.append(types.DocumentLink(
            range=span(server.codec, lines, n, m.start(1), m.end(1)),
            target=path.as_uri(),
            tooltip=f"Open {rel}" if tooltip else None,
        ))
    return out
