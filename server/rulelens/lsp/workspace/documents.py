"""Rule files as the person sees them: the open buffer when there is one, else the disk."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from rulelens.lsp.workspace.roots import Target
from rulelens.rules.format.reading import read_rule_file
from rulelens.rules.model import UNWRITABLE, RuleFile

if TYPE_CHECKING:
    from rulelens.lsp.session import Session

# Problems only the bytes on disk can show (the buffer is what the editor decoded); the
# core refuses to write files that have them, so the editor must keep showing them.
DISK_ONLY = UNWRITABLE


def live_rule(server: Session, target: Target) -> RuleFile | None:
    """The rule file read from the open buffer (so diagnostics follow typing), else from disk.

    The disk's byte-level problems are kept; a symlink out of the root is shown as the core
    sees it (not read), never as the outside file's content.
    """
    repo = target.root.repo
    disk = repo.file(target.rel)
    if disk is None and os.path.lexists(target.path) and repo.refresh():
        disk = repo.file(target.rel)  # created since the last reload; no watcher told us yet
    text = server.text_of(target.uri)
    if text is None:
        return disk
    if disk is not None and any(p.code == "rule-symlink" for p in disk.problems):
        return disk
    is_boost = target.rel.startswith(f"{target.root.repo.rules_dir}/boost/")
    live = read_rule_file(target.path, target.rel, is_boost, raw=text.encode("utf-8"))
    if disk is not None:
        seen = {p.code for p in live.problems}
        live.problems[:0] = [p for p in disk.problems
                             if p.code in DISK_ONLY and p.code not in seen]
    return live


def text_for(server: Session, target: Target) -> str:
    """The document's text: the buffer, else the file on disk, else empty."""
    text = server.text_of(target.uri)
    if text is not None:
        return text
    try:
        return target.path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
