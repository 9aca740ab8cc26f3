"""One decorator for requests about a document: poll, resolve the target, guard.

Every document request used to open with the same lines (`watch.poll(ls); target =
ls.target(uri); return X(...) if target else default`); this is them, once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from lsprotocol import types

from rulelens.lsp.language_server import RulelensServer
from rulelens.lsp.plumbing.guard import guarded
from rulelens.lsp.plumbing.watch import poll
from rulelens.lsp.plumbing.workspace import Target


class AboutDocument(Protocol):
    @property
    def text_document(self) -> types.TextDocumentIdentifier: ...


P = TypeVar("P", bound=AboutDocument)
R = TypeVar("R")
D = TypeVar("D")


def document_request(default: D) -> Callable[[Callable[[RulelensServer, Target, P], R]],
                                             Callable[[RulelensServer, P], R | D]]:
    """`fn(ls, target, params)` becomes a pygls handler `(ls, params)`: it first picks up
    changes on disk, answers `default` for documents outside every root, and logs rather than
    fails (see guard)."""

    def wrap(fn: Callable[[RulelensServer, Target, P], R]) -> Callable[[RulelensServer, P], R | D]:
        def handler(ls: RulelensServer, params: P) -> R | D:
            poll(ls)
            target = ls.target(params.text_document.uri)
            return fn(ls, target, params) if target is not None else default

        # Not functools.wraps: its __wrapped__ would show pygls fn's three parameters.
        handler.__name__ = handler.__qualname__ = fn.__name__
        handler.__doc__ = fn.__doc__
        return guarded(default)(handler)

    return wrap
