"""One decorator for requests about a document: poll, resolve the target, guard.

Every document request used to open with the same lines (`watch.poll(ls); target =
ls.target(uri); return X(...) if target else default`); this is them, once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from lsprotocol import types

from rulelens.lsp.language_server import RulelensServer
from rulelens.lsp.plumbing.guard import guarded
from rulelens.lsp.plumbing.watch import poll
from rulelens.lsp.plumbing.workspace import Target

P = TypeVar("P")
R = TypeVar("R")
D = TypeVar("D")


def text_document_uri(params: Any) -> str | None:
    """The document of a standard request (`params.textDocument.uri`)."""
    document: types.TextDocumentIdentifier | None = getattr(params, "text_document", None)
    return document.uri if document is not None else None


def document_request(default: D, uri_of: Callable[[Any], str | None] = text_document_uri,
                     ) -> Callable[[Callable[[RulelensServer, Target, P], R]],
                                   Callable[[RulelensServer, P], R | D]]:
    """`fn(ls, target, params)` becomes a pygls handler `(ls, params)`: it first picks up
    changes on disk, answers `default` for documents outside every root, and logs rather than
    fails (see guard). `uri_of` finds the document in a custom request's params."""

    def wrap(fn: Callable[[RulelensServer, Target, P], R]) -> Callable[[RulelensServer, P], R | D]:
        def handler(ls: RulelensServer, params: P) -> R | D:
            poll(ls)
            uri = uri_of(params)
            target = ls.target(uri) if uri else None
            return fn(ls, target, params) if target is not None else default

        # Not functools.wraps: its __wrapped__ would show pygls fn's three parameters.
        handler.__name__ = handler.__qualname__ = fn.__name__
        handler.__doc__ = fn.__doc__
        return guarded(default)(handler)

    return wrap
