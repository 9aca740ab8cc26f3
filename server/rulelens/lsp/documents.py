"""Rule files as the person sees them: the open buffer when there is one, else the disk."""

from __future__ import annotations

from rulelens.lsp.context import RulelensServer
from rulelens.lsp.workspace import Target
from rulelens.rules.model import RuleFile
from rulelens.rules.reading import read_rule_file


def live_rule(server: RulelensServer, target: Target) -> RuleFile | None:
    """The rule file read from the open buffer (so diagnostics follow typing), else from disk."""
    text = server.text_of(target.uri)
    if text is None:
        return target.root.repo.file(target.rel)
    is_boost = target.rel.startswith(f"{target.root.repo.rules_dir}/boost/")
    return read_rule_file(target.path, target.rel, is_boost, raw=text.encode("utf-8"))


def text_for(server: RulelensServer, target: Target) -> str:
    """The document's text: the buffer, else the file on disk, else empty."""
    text = server.text_of(target.uri)
    if text is not None:
        return text
    try:
        return target.path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
