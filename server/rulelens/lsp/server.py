"""Build a session: the lifecycle (`initialize`, the `initialized` hooks) and `FEATURES`, the
features in the order they register."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import ModuleType

from lsprotocol import types

from rulelens.lsp.features import (
    cause_fix,
    code_actions,
    code_lens,
    completion,
    configuration,
    diagnostics,
    file_watching,
    hover,
    index_fix,
    links,
    open_rule,
    paths_key_fix,
    quote_globs_fix,
    record_rule,
    rules_for_path,
    stale_fix,
    suggest_globs,
    symbols,
    verify,
)
from rulelens.lsp.session import Session
from rulelens.lsp.wire.guard import guarded
from rulelens.lsp.workspace import collector, saves
from rulelens.startup import compiled

# In order: `initialized` hooks run in this order (watchers are registered before settings
# are pulled), and code_actions must follow the features that add action providers.
FEATURES: list[ModuleType] = [
    file_watching,
    configuration,
    diagnostics,
    code_lens,
    hover,
    completion,
    symbols,
    links,
    open_rule,
    record_rule,
    index_fix,
    paths_key_fix,
    quote_globs_fix,
    stale_fix,
    cause_fix,
    code_actions,
    rules_for_path,
    suggest_globs,
    verify,
]


def build(explicit_root: Path | None = None) -> Session:
    server = Session(explicit_root)

    @server.feature(types.INITIALIZE)
    def initialize(ls: Session, params: types.InitializeParams) -> None:
        ls.set_settings(base=ls.settings.merged(params.initialization_options))
        ls.configure_roots()

    @server.feature(types.INITIALIZED)
    @guarded()
    async def initialized(ls: Session, params: types.InitializedParams) -> None:
        asyncio.get_running_loop().call_later(collector.RESUME_AFTER, collector.resume)
        for hook in ls.initialized_hooks:
            await hook()

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: Session, params: None) -> None:
        compiled.save()  # what this start compiled, for the next (also saved when idle)
        verify.stop_all()  # a running `rulelens.verify` starts no further agent

    saves.register(server)  # the workspace's own: a save invalidates before any feature refreshes
    for feature in FEATURES:
        feature.register(server)
    return server
