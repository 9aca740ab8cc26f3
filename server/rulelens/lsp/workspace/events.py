"""The one "rules changed" event: whoever changes rules says so once, every view refreshes.

Writers (record, the index fix, the file watcher, polling, a folders or settings change) call
`server.rules_changed(roots)`; features that show rules subscribe in their `register`. No writer
knows the views, so a new view cannot be missed by one of them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulelens.lsp.workspace.roots import Root

log = logging.getLogger(__name__)
Listener = Callable[["Sequence[Root]", "str | None"], None]


class RulesChanged:
    """Subscribers get the roots whose rules changed and a document not to republish (`skip`:
    the caller publishes it itself right after)."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def __call__(self, roots: Sequence[Root], skip: str | None = None) -> None:
        if not roots:
            return
        for listener in self._listeners:
            listener(roots, skip)
