"""Code lens at the top of a source file: one per rule file that applies, opening it.

A rule file that agents do not see says so in its lens (the core's one-line reason is in the
hover and the diagnostic). Lenses are refreshed whenever rules change, where the client can.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from rulelens.lsp.language_server import RulelensServer
from rulelens.lsp.payloads import OPEN_RULE, OpenRuleArgs
from rulelens.lsp.plumbing.positions import start_of_file
from rulelens.lsp.plumbing.requests import document_request
from rulelens.lsp.plumbing.workspace import Root, Target

UNSEEN = "not seen by agents"


def register(server: RulelensServer) -> None:
    server.rules_changed.subscribe(lambda roots, skip: refresh(server, roots))

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    @document_request(default=[])
    def on_code_lens(ls: RulelensServer, target: Target,
                     params: types.CodeLensParams) -> list[types.CodeLens]:
        return lenses(ls, target)


def refresh(server: RulelensServer, roots: Sequence[Root]) -> None:
    if roots and server.supports("workspace.code_lens.refresh_support"):
        server.workspace_code_lens_refresh(None)


def lenses(server: RulelensServer, target: Target) -> list[types.CodeLens]:
    if not server.settings_for(target.root).code_lens or target.kind != "source":
        return []
    out = []
    for m in target.root.repo.rules_for(target.rel):
        rule = m.rule
        n = len(rule.entries)
        name = rule.heading or rule.stem
        title = f"Rules: {name} ({n} {'entry' if n == 1 else 'entries'})"
        if not m.agents_see:
            title += f" · {UNSEEN}"
        args = OpenRuleArgs(uri=target.root.uri_of(rule.rel), line=rule.heading_line or 0)
        out.append(types.CodeLens(
            range=start_of_file(),
            command=types.Command(title=title, command=OPEN_RULE, arguments=[args]),
        ))
    return out
