"""A save changes what is read from disk: the workspace forgets what the save made stale and says
"rules changed" once (events.py), so that every view refreshes from the saved state. No feature
invalidates on save itself: each only subscribes to the event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from rulelens.lsp.wire.guard import guarded
from rulelens.rules.check.config import FILES as CONFIG_FILES

if TYPE_CHECKING:
    from rulelens.lsp.session import Session


def register(server: Session) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    @guarded()
    def did_save(ls: Session, params: types.DidSaveTextDocumentParams) -> None:
        saved(ls, params.text_document.uri)


def saved(server: Session, uri: str) -> None:
    target = server.target(uri)
    if target is None:
        return
    if target.kind == "agent":
        target.root.forget_agents()  # other files' "In other agents" may change with it
        server.rules_changed([target.root])
    elif target.rel in CONFIG_FILES or (target.kind != "source" and target.root.repo.refresh()):
        server.rules_changed([target.root])  # the findings' configuration, or a rule file or the index
