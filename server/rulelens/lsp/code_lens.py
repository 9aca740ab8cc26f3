"""Code lens at the top of a source file: one per rule file that applies, opening it."""

from __future__ import annotations

from lsprotocol import types

from rulelens.lsp.commands import OPEN_RULE
from rulelens.lsp.context import RulelensServer
from rulelens.lsp.positions import start_of_file
from rulelens.lsp.workspace import Target


def lenses(server: RulelensServer, target: Target) -> list[types.CodeLens]:
    if not server.settings.code_lens or target.kind != "source":
        return []
    out = []
    for m in target.root.repo.rules_for(target.rel):
        rule = m.rule
        n = len(rule.entries)
        name = rule.heading or rule.stem
        title = f"Rules: {name} ({n} {'entry' if n == 1 else 'entries'})"
        out.append(types.CodeLens(
            range=start_of_file(),
            command=types.Command(
                title=title,
                command=OPEN_RULE,
                arguments=[{"uri": target.root.uri_of(rule.rel), "line": rule.heading_line or 0}],
            ),
        ))
    return out
