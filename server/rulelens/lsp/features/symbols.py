"""Document symbols (one per entry of a rule file) and workspace symbols (the search route)."""

from __future__ import annotations

from lsprotocol import types

from rulelens.lsp.session import Session
from rulelens.lsp.wire.guard import guarded
from rulelens.lsp.wire.positions import lines_of, span, whole_line
from rulelens.lsp.wire.requests import document_request
from rulelens.lsp.workspace.snapshot import DocumentSnapshot
from rulelens.rules.model import Entry

MAX_WORKSPACE = 2000
KIND = types.SymbolKind.String


def register(server: Session) -> None:
    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @document_request(default=[])
    def on_document_symbol(
        ls: Session, target: DocumentSnapshot, params: types.DocumentSymbolParams,
    ) -> list[types.DocumentSymbol] | list[types.SymbolInformation]:
        return document_symbols(ls, target)

    @server.feature(types.WORKSPACE_SYMBOL)
    @guarded(default=[])
    def on_workspace_symbol(ls: Session,
                            params: types.WorkspaceSymbolParams) -> list[types.SymbolInformation]:
        ls.poll()
        return workspace_symbols(ls, params.query)


def document_symbols(
    server: Session, target: DocumentSnapshot,
) -> list[types.DocumentSymbol] | list[types.SymbolInformation]:
    if target.kind != "rule":
        return []
    rule = target.rule
    if rule is None:
        return []
    lines = lines_of(target.text)
    if server.supports("text_document.document_symbol.hierarchical_document_symbol_support"):
        return [_symbol(server, lines, e) for e in rule.entries]
    return [
        types.SymbolInformation(
            name=e.title or "(untitled)", kind=KIND,
            location=types.Location(uri=target.uri, range=_entry_range(server, lines, e)),
            container_name=rule.heading or rule.stem,
        )
        for e in rule.entries
    ]


def _symbol(server: Session, lines: list[str], entry: Entry) -> types.DocumentSymbol:
    heading = whole_line(server.codec, lines, entry.line)
    return types.DocumentSymbol(
        name=entry.title or "(untitled)", kind=KIND, range=_entry_range(server, lines, entry),
        selection_range=heading,
        detail=entry.note.splitlines()[0][:80] if entry.note else None,
    )


def _entry_range(server: Session, lines: list[str], entry: Entry) -> types.Range:
    last = max(entry.line, min(entry.end_line, len(lines)) - 1)
    start = span(server.codec, lines, entry.line, 0, 0).start
    end = whole_line(server.codec, lines, last).end
    return types.Range(start=start, end=end)


def workspace_symbols(server: Session, query: str) -> list[types.SymbolInformation]:
    """Entries whose title or note contains the query, across every root; all for ''."""
    out: list[types.SymbolInformation] = []
    for root in server.roots.all():
        repo = root.repo
        everything = [(f, e) for f in repo.files for e in f.entries]
        found = repo.search(query) if query.strip() else everything
        for rule, entry in found:
            lines = lines_of(rule.text)
            out.append(types.SymbolInformation(
                name=entry.title or "(untitled)", kind=KIND,
                location=types.Location(uri=root.uri_of(rule.rel),
                                        range=whole_line(server.codec, lines, entry.line)),
                container_name=rule.rel,
            ))
            if len(out) >= MAX_WORKSPACE:
                return out
    return out
