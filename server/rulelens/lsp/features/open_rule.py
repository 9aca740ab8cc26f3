"""`rulelens.openRule`: show a rule file at a line (the code lenses' command)."""

from __future__ import annotations

from rulelens.lsp.session import Session
from rulelens.lsp.wire.guard import guarded
from rulelens.lsp.wire.payloads import OPEN_RULE, open_rule_args


def register(server: Session) -> None:
    @server.command(OPEN_RULE)
    @guarded()
    async def open_rule(ls: Session, *args: object) -> None:
        params = open_rule_args(args)
        if params is not None:
            await ls.show(params["uri"], params["line"])
