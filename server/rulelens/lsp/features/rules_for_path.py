"""`rulelens/rulesForPath`: the rules for a document as data, the one source for clients' views.

The VS Code status bar, "Show Rules" and Neovim's `:RulelensRules` read this (never the
diagnostic's text), so they work with the diagnostic switched off. The shape is in
`payloads.RulesForPath`.
"""

from __future__ import annotations

from typing import Any, Literal

from rulelens.lsp.session import Session
from rulelens.lsp.views.other_agents import other_agents, payload
from rulelens.lsp.wire.payloads import (
    RULES_CHANGED,
    RULES_FOR_PATH,
    EntryRef,
    RuleForPath,
    RulesChanged,
    RulesForPath,
    document_uri,
)
from rulelens.lsp.wire.requests import document_request
from rulelens.lsp.workspace.snapshot import DocumentSnapshot
from rulelens.rules.model import Match


def register(server: Session) -> None:
    # Views that show this answer (VS Code's Project Rules) ask again when told.
    server.rules_changed.subscribe(
        lambda roots, skip: server.protocol.notify(RULES_CHANGED, RulesChanged(roots=[r.uri for r in roots])))

    @server.feature(RULES_FOR_PATH)
    @document_request(None, document_uri)
    def on_rules_for_path(ls: Session, target: DocumentSnapshot, params: Any) -> RulesForPath:
        return rules_for(ls, target)


def rules_for(server: Session, target: DocumentSnapshot) -> RulesForPath:
    """Boost's rules for a source file or another agent's rule file (when its globs reach it);
    what the other agents load, for a source file."""
    root = target.root
    matches = root.repo.rules_for(target.rel) if target.kind in ("source", "agent") else []
    agents = payload(target, other_agents(server, target)) if target.kind == "source" else []
    return RulesForPath(
        uri=target.uri, root=str(root.path), rootUri=root.uri, rulesFolder=root.rules_folder,
        path=target.rel, kind=target.kind, rules=[_rule(target, m) for m in matches], agents=agents,
        agent=target.agent.id if target.agent is not None else None)


def _rule(target: DocumentSnapshot, m: Match) -> RuleForPath:
    rule = m.rule
    return RuleForPath(
        file=rule.rel, uri=target.root.uri_of(rule.rel), title=rule.heading,
        line=(rule.heading_line or 0) + 1, globs=list(m.globs), matched=list(m.matched),
        agentsSee=m.agents_see, agentsMissBecause=m.agents_miss_because,
        agentsMissFix=_fix(m), bytes=len(rule.text.encode("utf-8")),
        entries=[EntryRef(title=e.title, line=e.line + 1) for e in rule.entries])


def _fix(m: Match) -> Literal["writeIndex", "quoteGlobs"] | None:
    """The one action that makes agents see the file: the core's reasons say which ("run
    `rulelens index`", "quote each glob")."""
    reason = m.agents_miss_because or ""
    if "rulelens index" in reason:
        return "writeIndex"
    if "quote" in reason.lower():
        return "quoteGlobs"
    return None
