"""`rulelens/suggestGlobs`: the globs to offer when recording a rule for a document.

The core's suggestions (the file, `dir/**`, `dir/*.ext`, in that order) with how many project
files each matches: the clients ask for them rather than compute their own, so that every editor
offers the same globs in the same order.
"""

from __future__ import annotations

from typing import Any

from rulelens.lsp.session import Session
from rulelens.lsp.wire.payloads import SUGGEST_GLOBS, GlobSuggestion, SuggestGlobs, document_uri
from rulelens.lsp.wire.requests import document_request
from rulelens.lsp.workspace.snapshot import DocumentSnapshot


def register(server: Session) -> None:
    @server.feature(SUGGEST_GLOBS)
    @document_request(None, document_uri)
    def on_suggest_globs(ls: Session, target: DocumentSnapshot, params: Any) -> SuggestGlobs:
        return suggestions(ls, target)


def suggestions(server: Session, target: DocumentSnapshot) -> SuggestGlobs:
    files = target.files()
    return SuggestGlobs(globs=[GlobSuggestion(glob=g, count=files.count(g))
                               for g in target.root.repo.suggest_globs(target.rel)])
