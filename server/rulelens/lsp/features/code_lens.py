"""Code lens at the top of a source file: one per rule file that applies, opening it.

A rule file that agents do not see says so in its lens (the core's one-line reason is in the
hover and the diagnostic). One more lens names the other agents that load files for this file
(it opens the first of them). Another agent's rule file gets the lenses of the Boost rules whose
globs reach it, and no agents lens. Lenses are refreshed whenever rules change, where the client can.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from rulelens.lsp.session import Session
from rulelens.lsp.views.other_agents import loading, other_agents
from rulelens.lsp.wire.payloads import OPEN_RULE, OpenRuleArgs
from rulelens.lsp.wire.positions import start_of_file
from rulelens.lsp.wire.requests import document_request
from rulelens.lsp.workspace.roots import Root
from rulelens.lsp.workspace.snapshot import DocumentSnapshot

UNSEEN = "not seen by agents"
ALSO = "Also loaded by"


def register(server: Session) -> None:
    server.rules_changed.subscribe(lambda roots, skip: refresh(server, roots))

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    @document_request(default=[])
    def on_code_lens(ls: Session, target: DocumentSnapshot,
                     params: types.CodeLensParams) -> list[types.CodeLens]:
        return lenses(ls, target)


def refresh(server: Session, roots: Sequence[Root]) -> None:
    if roots and server.supports("workspace.code_lens.refresh_support"):
        server.workspace_code_lens_refresh(None)


def lenses(server: Session, target: DocumentSnapshot) -> list[types.CodeLens]:
    if not target.settings.code_lens or target.kind not in ("source", "agent"):
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
    if target.kind == "source":
        out.extend(agents_lens(server, target))
    return out


def agents_lens(server: Session, target: DocumentSnapshot) -> list[types.CodeLens]:
    """"Also loaded by: Claude Code, Codex": the other agents that load something for the file."""
    found = loading(other_agents(server, target))
    if not found:
        return []
    first = found[0].loads[0]
    names = ", ".join(f"{x.agent.name} ({len(x.loads)})" for x in found)
    args = OpenRuleArgs(uri=target.root.uri_of(first.file), line=0)
    return [types.CodeLens(
        range=start_of_file(),
        command=types.Command(title=f"{ALSO}: {names}", command=OPEN_RULE, arguments=[args]),
    )]
