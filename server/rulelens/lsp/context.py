"""The server object every feature receives: settings, roots, and what the client can do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.lsp.server import LanguageServer
from pygls.workspace.position_codec import PositionCodec

from rulelens import __version__
from rulelens.lsp.protocol import RulelensProtocol
from rulelens.lsp.settings import Settings
from rulelens.lsp.workspace import FILES_TTL, Roots, Target, path_of_uri


class RulelensServer(LanguageServer):
    """pygls' LanguageServer plus rulelens state; one instance per connection."""

    def __init__(self, explicit_root: Path | None = None) -> None:
        super().__init__("rulelens", __version__, protocol_cls=RulelensProtocol)
        self.settings = Settings()
        self.roots = Roots(explicit_root)
        self.watching = False  # True once the client accepted our file watchers
        self.init_options: Any = None

    @property
    def files_ttl(self) -> float | None:
        """How long a file list lives: forever with watchers (they invalidate it), else a while."""
        return None if self.watching else FILES_TTL

    # -- client capabilities --------------------------------------------------------------
    @property
    def caps(self) -> types.ClientCapabilities:
        return self.client_capabilities

    def supports(self, field: str) -> bool:
        return bool(get_capability(self.caps, field, False))  # type: ignore[call-overload]

    @property
    def codec(self) -> PositionCodec:
        return self.workspace.position_codec

    @property
    def markdown(self) -> bool:
        formats = get_capability(self.caps, "text_document.hover.content_format", [])
        return types.MarkupKind.Markdown in (formats or [])

    def can_prompt(self) -> bool:
        """Whether the record action may leave title and note for the client to ask for.

        An explicit `prompt` setting wins; otherwise a client that can show a document is
        taken to be an interactive editor (VS Code, Neovim) that prompts.
        """
        if self.settings.prompt is not None:
            return self.settings.prompt
        return self.supports("window.show_document.support")

    def refuse_write(self) -> str | None:
        """The reason a write is refused (read-only mode), shown to the person; else None."""
        if not self.settings.read_only:
            return None
        message = "rulelens is read-only in this workspace (it is not trusted); nothing was written."
        self.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning,
                                                         message=message))
        return message

    # -- documents ------------------------------------------------------------------------
    def target(self, uri: str) -> Target | None:
        return self.roots.target(uri)

    def text_of(self, uri: str) -> str | None:
        """The open document's text (what the person sees), or None when it is not open."""
        doc = self.workspace.text_documents.get(uri)
        return doc.source if doc is not None else None

    def open_uris(self) -> list[str]:
        return [doc.uri for doc in self.workspace.text_documents.values()]

    def configure_roots(self) -> None:
        folders: list[Path] = []
        for folder in self.workspace.folders.values():
            path = path_of_uri(folder.uri)
            if path is not None:
                folders.append(path)
        if not folders and self.workspace.root_uri:
            path = path_of_uri(self.workspace.root_uri)
            if path is not None:
                folders.append(path)
        self.roots.configure(folders, self.settings.rules_folder)
