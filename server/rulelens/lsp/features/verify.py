"""`rulelens.verify`: `rulelens verify` for an editor (a file, or a root for the chosen paths),
run on a worker thread (the agents take seconds each); the answer is `verify --json`'s object.

`rulelens.verifyCancel` ends it early: the agent running is ended with its process group, no
further one starts, and `rulelens.verify` answers with what was done. (An LSP `$/cancelRequest`
cannot do this: pygls cancels the request's answer, not the command's own task.)"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from rulelens.lsp.session import Session
from rulelens.lsp.wire.guard import guarded
from rulelens.lsp.wire.payloads import VERIFY, VERIFY_CANCEL, ErrorResult, VerifyArgs, verify_args
from rulelens.lsp.workspace.roots import path_of_uri

# Set at shutdown: a verify running on a worker thread starts no further run, so the server's
# exit waits for the current one at most (each ends its agent's process group).
STOPPING = threading.Event()
# One event per verify running; `rulelens.verifyCancel` sets them all.
RUNNING: set[threading.Event] = set()


def stop_all() -> None:
    STOPPING.set()


def register(server: Session) -> None:
    @server.command(VERIFY)
    @guarded()
    async def verify_command(ls: Session, *args: object) -> dict[str, Any] | ErrorResult:
        params = verify_args(args)
        if params is None:
            return ErrorResult(error="rulelens.verify needs {uri, agents?, on?}")
        return await execute(ls, params)

    @server.command(VERIFY_CANCEL)
    @guarded()
    async def verify_cancel_command(ls: Session, *args: object) -> dict[str, int]:
        return {"cancelled": cancel_all()}


def cancel_all() -> int:
    """Every running verify told to stop; how many there were."""
    running = list(RUNNING)
    for event in running:
        event.set()
    return len(running)


async def execute(server: Session, params: VerifyArgs) -> dict[str, Any] | ErrorResult:
    from rulelens.agent_runs.verify import AgentChoiceError, Pick, find_agents, pick_paths, verify
    from rulelens.agents.project import AgentProject

    uri = params["uri"]
    root = server.roots.by_uri(uri)
    rel: str | None = None
    if root is None:
        path = path_of_uri(uri)
        found = server.roots.for_path(path) if path is not None else None
        if found is None:
            return ErrorResult(error=f"{uri} is in no rulelens project")
        root, rel = found
    try:
        agents, failures = find_agents(params.get("agents") or [])
    except AgentChoiceError as e:
        return ErrorResult(error=str(e))
    moment = params.get("on") or "read"
    repo = root.repo

    cancelled = threading.Event()

    def work() -> dict[str, Any]:
        project = AgentProject(repo)
        picks = [Pick(rel, "given")] if rel else pick_paths(project, moment)
        result = verify(repo.root, agents, picks, moment, moment_given="on" in params,
                        failures=failures, project=project,
                        stop=lambda: STOPPING.is_set() or cancelled.is_set())
        return result.to_json()

    RUNNING.add(cancelled)
    try:
        return await asyncio.to_thread(work)
    finally:
        RUNNING.discard(cancelled)
