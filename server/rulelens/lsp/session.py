"""The session: everything one connection holds, on pygls' LanguageServer.

The roots, the settings of each workspace folder, what the client can do, the staleness worker,
the edits sent but not yet seen to arrive, and the `rules_changed` event. Features keep no state of
their own: they are registered on the session by `server.build` and read it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.lsp.server import LanguageServer
from pygls.workspace.position_codec import PositionCodec

from rulelens import __version__
from rulelens.lsp.wire.edits import text_edits
from rulelens.lsp.wire.positions import lines_of, whole_line
from rulelens.lsp.wire.protocol import RulelensProtocol
from rulelens.lsp.workspace.events import RulesChanged
from rulelens.lsp.workspace.roots import FILES_TTL, Root, Roots, path_of_uri
from rulelens.lsp.workspace.settings import Settings
from rulelens.lsp.workspace.snapshot import DocumentSnapshot, OpenBuffers
from rulelens.lsp.workspace.stale_findings import StaleFindings
from rulelens.lsp.workspace.warmup import Warmup
from rulelens.startup import compiled

Hook = Callable[[], Awaitable[None]]
# (server, target, context) -> actions; registered with the kind of the actions it offers.
CodeActionProvider = Callable[["Session", DocumentSnapshot, types.CodeActionContext],
                              list[types.CodeAction]]


log = logging.getLogger(__name__)


class Session(LanguageServer):
    """One instance per connection."""

    def __init__(self, explicit_root: Path | None = None) -> None:
        super().__init__("rulelens", __version__, protocol_cls=RulelensProtocol)
        # What the next diagnostics need, prepared while the client is quiet (workspace/warmup.py).
        self.warmup = Warmup()
        self.warmup.per_root.append(self._keep_frontmatters)
        self.warmup.per_root.append(lambda root: compiled.save())  # startup/compiled.py
        assert isinstance(self.protocol, RulelensProtocol)
        self.protocol.on_message = self.warmup.busy
        # initializationOptions and pushed didChangeConfiguration: every folder's base.
        self.settings = Settings()
        self._pulled: dict[Path, object] = {}  # the section each workspace folder answered
        self._by_folder: dict[Path, Settings] = {}
        self.roots = Roots(explicit_root)
        self.watching = False  # True once the client accepted our file watchers
        self.rules_changed = RulesChanged()
        self.initialized_hooks: list[Hook] = []  # run in order after `initialized`
        self.code_action_providers: list[tuple[str, CodeActionProvider]] = []
        # Staleness findings computed off the event loop; `findings_ready` runs on the loop
        # when a root's are done (diagnostics republishes its rule files).
        self.findings_ready: list[Callable[[Root], None]] = []
        self.stale_findings = StaleFindings(self._findings_ready)
        # Rule file URI -> [its text when rulelens last sent an unversioned skeleton edit for it,
        # whether the client opened it since] (views/skeleton.py: a client without versioned
        # edits, such as vim-lsp, opens the file to apply the edit and then reports nothing).
        self.unconfirmed_edits: dict[str, tuple[str, bool]] = {}

    # -- settings per workspace folder ----------------------------------------------------
    def settings_for(self, root: Root | None) -> Settings:
        """The settings of the workspace folder `root` came from (the base settings else)."""
        if root is None or root.folder is None:
            return self.settings
        return self._by_folder.get(root.folder, self.settings)

    def set_settings(self, base: Settings | None = None,
                     pulled: Mapping[Path, object] | None = None) -> None:
        """Replace the base settings and/or the sections pulled per folder, and re-resolve."""
        if base is not None:
            self.settings = base
        if pulled is not None:
            self._pulled = dict(pulled)
        self._by_folder = {folder: self.settings.merged(raw)
                           for folder, raw in self._pulled.items()}

    def settings_snapshot(self) -> tuple[Settings, dict[Path, Settings]]:
        return self.settings, dict(self._by_folder)

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

    def _keep_frontmatters(self, root: Root) -> None:
        """Keep the parsed frontmatters for the next start, as `check` does
        (rules/format/yaml_cache.py); never in a read-only workspace."""
        if not self.settings_for(root).read_only:
            root.repo.frontmatter.save()

    def can_prompt(self, root: Root | None) -> bool:
        """Whether the record action may leave title and note for the client to ask for.

        An explicit `prompt` setting wins; otherwise a client that can show a document is
        taken to be an interactive editor (VS Code, Neovim) that prompts.
        """
        prompt = self.settings_for(root).prompt
        if prompt is not None:
            return prompt
        return self.supports("window.show_document.support")

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A frame the client sent that is not JSON (or not a message) is the client's fault, not
        something the person can act on: answered as JSON-RPC says (a parse error, id null) and
        logged, never popped up as "Error in server: …". Other errors keep pygls' default."""
        if isinstance(error, ValueError) and not isinstance(error, UnicodeEncodeError):
            log.warning("rulelens: a message from the client could not be read (%s); answered with a "
                        "parse error", error)
            self.protocol._send_data({"jsonrpc": "2.0", "id": None,
                                     "error": {"code": -32700, "message": f"Parse error: {error}"}})
            return
        super().report_server_error(error, source)

    def offers_edits(self, target: DocumentSnapshot, *kinds: str) -> bool:
        """Whether a code action may offer an edit of this document: it is of one of `kinds`, and
        the workspace is not read-only (where every write is refused)."""
        return target.kind in kinds and not target.settings.read_only

    def refuse_write(self, root: Root | None) -> str | None:
        """The reason a write is refused (read-only mode), shown to the person; else None."""
        if not self.settings_for(root).read_only:
            return None
        message = "rulelens is read-only in this workspace (it is not trusted); nothing was written."
        self.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning,
                                                         message=message))
        return message

    @property
    def versioned_edits(self) -> bool:
        return self.supports("workspace.workspace_edit.document_changes")

    def edit(self, uri: str, edits: list[types.TextEdit]) -> types.WorkspaceEdit:
        """Edits of an existing document, versioned where the client takes that (wire/edits.py)."""
        return text_edits(uri, edits, self.version_of(uri), self.versioned_edits)

    async def show(self, uri: str, line: int, text: str | None = None) -> None:
        """Show a file with line `line` (0-based) selected, where the client can."""
        if not self.supports("window.show_document.support"):
            return
        if text is None:
            path = path_of_uri(uri)
            try:
                text = path.read_text(encoding="utf-8") if path is not None else ""
            except OSError:
                text = ""
        await self.window_show_document_async(types.ShowDocumentParams(
            uri=uri, take_focus=True, selection=whole_line(self.codec, lines_of(text), line)))

    # -- documents ------------------------------------------------------------------------
    def target(self, uri: str) -> DocumentSnapshot | None:
        """The document as this request sees it (workspace/snapshot.py), built once per request;
        None outside every root."""
        target = self.roots.target(uri, self.files_ttl)
        if target is None:
            return None
        return DocumentSnapshot.of(target, self.buffers, self.settings_for(target.root),
                                   self.files_ttl, self.stale_findings)

    @property
    def buffers(self) -> OpenBuffers:
        """The open documents (for a command that names no document, such as a record); none
        before `initialize` (pygls has no workspace yet)."""
        try:
            return OpenBuffers(self.workspace.text_documents)
        except RuntimeError:
            return OpenBuffers({})

    def opened(self, uri: str) -> None:
        """didOpen of `uri`: a pending unversioned edit for it is now being applied, unreported."""
        pending = self.unconfirmed_edits.get(uri)
        if pending is not None:
            self.unconfirmed_edits[uri] = (pending[0], True)

    def version_of(self, uri: str) -> int | None:
        """The version of the open document as the server last saw it; None when not open."""
        doc = self.workspace.text_documents.get(uri)
        return doc.version if doc is not None else None

    def open_uris(self) -> list[str]:
        return [doc.uri for doc in self.workspace.text_documents.values()]

    # -- roots ----------------------------------------------------------------------------
    def workspace_folders(self) -> list[tuple[str, Path]]:
        """The workspace folders, URI as the client wrote it and path (the root URI when the
        client sent no folders)."""
        uris = [folder.uri for folder in self.workspace.folders.values()]
        if not uris and self.workspace.root_uri:
            uris = [self.workspace.root_uri]
        out = []
        for uri in uris:
            path = path_of_uri(uri)
            if path is not None:
                out.append((uri, path))
        return out

    def configure_roots(self) -> bool:
        """Rebuild the roots from the folders and their rules folders; True when that changed
        which roots exist or where their rules live."""
        before = [(r.path, r.rules_folder) for r in self.roots.all()]
        pairs = [(path, self._by_folder.get(path, self.settings).rules_folder)
                 for _, path in self.workspace_folders()]
        self.roots.configure(pairs, self.settings.rules_folder)
        return before != [(r.path, r.rules_folder) for r in self.roots.all()]

    def poll(self, skip: str | None = None) -> None:
        """Before a request from a client that does not watch files: reload what moved on disk
        (workspace/watch.py). `skip` is a document the caller publishes itself right after."""
        if self.watching:
            return
        self.rules_changed([root for root in self.roots.all() if root.poll()], skip)

    def _findings_ready(self, root: Root) -> None:
        for listener in self.findings_ready:
            listener(root)

    @property
    def files_ttl(self) -> float | None:
        """How long a file list lives: forever with watchers (they invalidate it), else a while."""
        return None if self.watching else FILES_TTL
