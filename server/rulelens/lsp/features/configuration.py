"""Settings and workspace folders: which roots exist, and what settings each one has.

Settings come from `initializationOptions` and pushed `workspace/didChangeConfiguration`
(the base), and, where the client answers `workspace/configuration`, from one item per
workspace folder (`scopeUri` = the folder, section `rulelens`), so that per-folder values
(VS Code's `"scope": "resource"`) reach the root of that folder.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from lsprotocol import types

from rulelens.lsp.session import Session
from rulelens.lsp.wire.guard import guarded
from rulelens.lsp.workspace import watch
from rulelens.lsp.workspace.settings import SECTION, Settings


def register(server: Session) -> None:
    async def pull_at_start() -> None:
        await pull(server)

    server.initialized_hooks.append(pull_at_start)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @guarded()
    async def configuration(ls: Session,
                            params: types.DidChangeConfigurationParams) -> None:
        raw = params.settings
        pushed = isinstance(raw, Mapping) and isinstance(raw.get(SECTION), Mapping)
        base = ls.settings.merged(raw) if pushed else None
        if ls.supports("workspace.configuration"):
            # A push carries no scope: ask again for what each folder resolves to now.
            await pull(ls, base=base, always_apply=True)
        else:
            await apply(ls, base=base, pulled=None, force=True)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    @guarded()
    async def folders(ls: Session, params: types.DidChangeWorkspaceFoldersParams) -> None:
        ls.configure_roots()
        await watch.register(ls)
        if not await pull(ls, always_apply=True):  # the new folders' own settings
            ls.rules_changed(ls.roots.all())  # documents may have gained or lost a root


async def pull(server: Session, base: Settings | None = None,
               always_apply: bool = False) -> bool:
    """Ask the client for the `rulelens` section of every workspace folder, where it can;
    True when the views were refreshed."""
    if not server.supports("workspace.configuration"):
        return always_apply and await apply(server, base, None, force=True)
    folders = server.workspace_folders()
    items = [types.ConfigurationItem(scope_uri=uri, section=SECTION) for uri, _ in folders]
    if not items:  # no folder: one unscoped item, which is then the base
        items = [types.ConfigurationItem(section=SECTION)]
    result = await server.workspace_configuration_async(types.ConfigurationParams(items=items))
    values = list(result or [])
    if not folders:
        value = values[0] if values else None
        if value is not None or always_apply:
            return await apply(server, (base or server.settings).merged(value), None)
        return False
    pulled = {path: value for (_, path), value in zip(folders, values, strict=False) if value is not None}
    if pulled or always_apply or base is not None:
        return await apply(server, base, pulled)
    return False


async def apply(server: Session, base: Settings | None,
                pulled: Mapping[Path, object] | None, force: bool = False) -> bool:
    """Take the new settings; rebuild roots and watchers if a rules folder moved; refresh the
    views when anything changed (or when `force`d: a client that cannot be asked)."""
    before = server.settings_snapshot()
    server.set_settings(base, pulled)
    if server.settings_snapshot() == before and not force:
        return False
    if server.configure_roots():
        await watch.register(server)
    server.rules_changed(server.roots.all())
    return True
