"""One decorator for requests about a document: poll, resolve the target, guard.

A handler written as `fn(session, target, params)` is answered on the event loop: these requests
read the session and the core's caches, which only the loop changes. Work that may wait (a write
behind the rules folder's lock) is a command that leaves the loop (writes.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from lsprotocol import types

from rulelens.lsp.wire.guard import guarded

if TYPE_CHECKING:
    from rulelens.lsp.session import Session
    from rulelens.lsp.workspace.snapshot import DocumentSnapshot

P = TypeVar("P")
R = TypeVar("R")
D = TypeVar("D")


def text_document_uri(params: Any) -> str | None:
    """The document of a standard request (`params.textDocument.uri`)."""
    document: types.TextDocumentIdentifier | None = getattr(params, "text_document", None)
    return document.uri if document is not None else None


def document_request(default: D, uri_of: Callable[[Any], str | None] = text_document_uri,
                     ) -> Callable[[Callable[[Session, DocumentSnapshot, P], R]],
                                   Callable[[Session, P], R | D]]:
    """`fn(ls, target, params)` becomes a pygls handler `(ls, params)`: it first picks up
    changes on disk, answers `default` for documents outside every root, and logs rather than
    fails (see guard). `uri_of` finds the document in a custom request's params."""

    def wrap(fn: Callable[[Session, DocumentSnapshot, P], R]) -> Callable[[Session, P], R | D]:
        def handler(ls: Session, params: P) -> R | D:
            ls.poll()
            uri = uri_of(params)
            target = ls.target(uri) if uri else None
            return fn(ls, target, params) if target is not None else default

        # Not functools.wraps: its __wrapped__ would show pygls fn's three parameters.
        handler.__name__ = handler.__qualname__ = fn.__name__
        handler.__doc__ = fn.__doc__
        return guarded(default)(handler)

    return wrap
