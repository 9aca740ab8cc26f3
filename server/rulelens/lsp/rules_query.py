"""`rulelens/rulesForPath`: the rules for a document as data, for clients' own views.

The VS Code status bar and "Show Rules" need the count and the entries even when the
diagnostic is switched off; the shape is `rulelens match --json`'s, with URIs added.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulelens.lsp.context import RulelensServer

METHOD = "rulelens/rulesForPath"


def uri_of(params: object) -> str | None:
    """The `uri` of the request's params, whether pygls hands us a mapping or an object."""
    value = params.get("uri") if isinstance(params, Mapping) else getattr(params, "uri", None)
    return value if isinstance(value, str) else None


def rules_for(server: RulelensServer, params: object) -> dict[str, Any] | None:
    """`{path, rules: [{file, uri, title, globs, line, entries: [{title, line}]}]}`, lines 1-based;
    None for a document outside every root."""
    uri = uri_of(params)
    target = server.target(uri) if uri else None
    if target is None:
        return None
    repo = target.root.repo
    matches = repo.rules_for(target.rel) if target.kind == "source" else []
    return {
        "path": target.rel,
        "rules": [
            {
                "file": m.rule.rel,
                "uri": target.root.uri_of(m.rule.rel),
                "title": m.rule.heading,
                "globs": m.globs,
                "line": (m.rule.heading_line or 0) + 1,
                "entries": [{"title": e.title, "line": e.line + 1} for e in m.rule.entries],
            }
            for m in matches
        ],
    }
