"""One document as one request sees it, built once per request (as ruff_server's
`DocumentSnapshot`): where it is (root, relative path, kind, owning agent), what the editor holds
of it (its text and version), and the settings of its workspace folder.

Features read the snapshot and never ask the session for the document again: its text is read
once (the open buffer, else the disk), and so is its rule file as typed. The snapshot is also what
the core's `check_document` asks of a document (`check_document.DocumentSource`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from rulelens.lsp.wire.payloads import Kind
from rulelens.lsp.workspace.roots import Root, Target
from rulelens.lsp.workspace.settings import Settings
from rulelens.rules.format.reading import read_rule_file
from rulelens.rules.model import UNWRITABLE, Problem, RuleFile

if TYPE_CHECKING:
    from pygls.workspace import TextDocument

    from rulelens.agents.base import Agent
    from rulelens.agents.project import AgentProject
    from rulelens.lsp.workspace.stale_findings import StaleFindings
    from rulelens.rules.repository import RuleRepository
    from rulelens.workspace.filelist import FileList

# Problems only the bytes on disk can show (the buffer is what the editor decoded); the
# core refuses to write files that have them, so the editor must keep showing them.
DISK_ONLY = UNWRITABLE


class OpenBuffers:
    """The documents the editor has open, by URI: their text and version as the request found
    them. Requests run on the event loop, which alone changes them, so a request sees one state."""

    def __init__(self, documents: Mapping[str, TextDocument]) -> None:
        self._documents = documents

    def text(self, uri: str) -> str | None:
        """The open document's text (what the person sees), or None when it is not open."""
        doc = self._documents.get(uri)
        return doc.source if doc is not None else None

    def version(self, uri: str) -> int | None:
        """The open document's version as the server last saw it; None when it is not open."""
        doc = self._documents.get(uri)
        return doc.version if doc is not None else None

    def uris(self) -> list[str]:
        return [doc.uri for doc in self._documents.values()]


@dataclass(frozen=True)
class DocumentSnapshot:
    """A document rulelens has something to say about, as one request sees it."""

    uri: str
    path: Path
    root: Root
    rel: str
    kind: Kind
    agent: Agent | None  # the owner of an "agent" file, in the reading the target was resolved with
    buffer: str | None  # the open document's text; None when it is not open
    version: int | None  # the open document's version; None when it is not open
    settings: Settings  # its workspace folder's
    files_ttl: float | None  # how long the root's file list may live (session.files_ttl)
    buffers: OpenBuffers  # every open document, for a request that reads another one
    stale: StaleFindings  # the session's staleness worker (the findings searched off the loop)

    @classmethod
    def of(cls, target: Target, buffers: OpenBuffers, settings: Settings, files_ttl: float | None,
           stale: StaleFindings) -> DocumentSnapshot:
        return cls(target.uri, target.path, target.root, target.rel, target.kind, target.agent,
                   buffers.text(target.uri), buffers.version(target.uri), settings, files_ttl,
                   buffers, stale)

    @property
    def repo(self) -> RuleRepository:
        return self.root.repo

    @cached_property
    def text(self) -> str:
        """The document's text: the buffer, else the file on disk, else empty."""
        if self.buffer is not None:
            return self.buffer
        try:
            return self.path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    @cached_property
    def rule(self) -> RuleFile | None:
        """The rule file read from the open buffer (so diagnostics follow typing), else from disk.

        The disk's byte-level problems are kept; a symlink out of the root is shown as the core
        sees it (not read), never as the outside file's content.
        """
        repo = self.root.repo
        disk = repo.file(self.rel)
        if disk is None and os.path.lexists(self.path) and repo.refresh():
            disk = repo.file(self.rel)  # created since the last reload; no watcher told us yet
        text = self.buffer
        if text is None:
            return disk
        if disk is not None and any(p.code == "rule-symlink" for p in disk.problems):
            return disk
        is_boost = self.rel.startswith(f"{repo.rules_dir}/boost/")
        live = read_rule_file(self.path, self.rel, is_boost, raw=text.encode("utf-8"))
        if disk is not None:
            seen = {p.code for p in live.problems}
            live.problems[:0] = [p for p in disk.problems
                                 if p.code in DISK_ONLY and p.code not in seen]
        return live

    def files(self) -> FileList:
        return self.root.files(self.files_ttl)

    def agents(self) -> AgentProject:
        return self.root.agents(self.files_ttl)

    def owner(self) -> Agent | None:
        """The owning agent in the root's current reading (the snapshot's may be an older one)."""
        if self.agent is None:
            return None
        return self.agents().agent(self.agent.id)

    def later(self, rule: RuleFile, files: FileList) -> Sequence[Problem]:
        """The staleness findings of `rule` as typed, from the worker thread: published again
        when they are ready (workspace/stale_findings.py); never a cache written when read-only."""
        return self.stale.get(self.root, rule, files, keep_caches=not self.settings.read_only)
