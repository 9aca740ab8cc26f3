"""Picking up changes on disk: file watchers where the client offers them, polling where not.

With dynamic registration the client reports rule-file changes, other agents' rule files'
changes (`agents.registry.FILE_GLOBS`), and created or deleted project files, which change glob counts;
without it, every request first does a cheap check of the rules folders and, once a second, of
the agent files last read (`Session.poll`, `Root.poll`). Either way it raises `rules_changed`, and the
features that show rules refresh themselves; this module knows none of them.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from rulelens.agents.formats.gemini_cli import SETTINGS as GEMINI_SETTINGS
from rulelens.agents.registry import FILE_GLOBS
from rulelens.lsp.workspace.roots import path_of_uri

if TYPE_CHECKING:
    from rulelens.lsp.session import Session

log = logging.getLogger(__name__)
REGISTRATION_ID = "rulelens-watch"
_ALL = types.WatchKind.Create | types.WatchKind.Change | types.WatchKind.Delete


def watchers(server: Session) -> list[types.FileSystemWatcher]:
    relative = server.supports("workspace.did_change_watched_files.relative_pattern_support")
    out: list[types.FileSystemWatcher] = []
    if relative:
        for root in server.roots.all():
            out.append(types.FileSystemWatcher(
                glob_pattern=types.RelativePattern(base_uri=root.uri,
                                                   pattern=f"{root.rules_folder}/**"),
                kind=_ALL))
            out.extend(types.FileSystemWatcher(
                glob_pattern=types.RelativePattern(base_uri=root.uri, pattern=glob), kind=_ALL)
                for glob in (*FILE_GLOBS, *(f"**/{n}" for n in root.named_context_files())))
    else:  # each root's rules folder (they may differ by folder), else the default one
        folders = [r.rules_folder for r in server.roots.all()] or [server.roots.rules_folder]
        for folder in dict.fromkeys(folders):
            out.append(types.FileSystemWatcher(glob_pattern=f"**/{folder}/**", kind=_ALL))
        named = dict.fromkeys(f"**/{n}" for r in server.roots.all() for n in r.named_context_files())
        out.extend(types.FileSystemWatcher(
            glob_pattern=glob if glob.startswith("**/") else f"**/{glob}", kind=_ALL)
            for glob in (*FILE_GLOBS, *named))
    out.append(types.FileSystemWatcher(glob_pattern="**/*",
                                       kind=types.WatchKind.Create | types.WatchKind.Delete))
    return out


async def register(server: Session) -> None:
    """(Re-)register our watchers; on failure fall back to polling."""
    if not server.supports("workspace.did_change_watched_files.dynamic_registration"):
        server.watching = False
        return
    if server.watching:
        try:
            await server.client_unregister_capability_async(types.UnregistrationParams(
                unregisterations=[types.Unregistration(
                    id=REGISTRATION_ID, method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES)]))
        except Exception as exc:  # the client may have dropped it already
            log.info("unregistering the file watchers failed: %s", exc)
    try:
        await server.client_register_capability_async(types.RegistrationParams(registrations=[
            types.Registration(
                id=REGISTRATION_ID,
                method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(
                    watchers=watchers(server)),
            )]))
        server.watching = True
    except Exception as exc:
        log.warning("the client refused file watchers (%s); polling the rules folders", exc)
        server.watching = False


def changed(server: Session, params: types.DidChangeWatchedFilesParams) -> bool:
    """Reload what the events touch; republish open documents when rules changed. True when
    the watchers themselves need registering again (Gemini CLI's settings name other files)."""
    dirty: set[Path] = set()
    rewatch = False
    for event in params.changes:
        path = path_of_uri(event.uri)
        if path is None:
            continue
        found = server.roots.for_path(path)
        if found is None:
            continue
        root, rel = found
        if rel == root.repo.rules_dir or rel.startswith(root.repo.rules_dir + "/"):
            if root.repo.refresh():
                dirty.add(root.path)
        elif root.is_agent_rel(rel):
            # Gemini CLI's settings name its context files, and so which files are watched
            rewatch |= rel == GEMINI_SETTINGS and bool(server.watching)
            root.forget_agents()
            if event.type != types.FileChangeType.Changed:
                root.forget_files()
            dirty.add(root.path)
        elif event.type != types.FileChangeType.Changed:
            root.forget_files()
            dirty.add(root.path)
    server.rules_changed([r for r in server.roots.all() if r.path in dirty])
    return rewatch

