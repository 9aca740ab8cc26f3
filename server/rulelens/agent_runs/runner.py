"""One end-to-end run: an agent's binary, in a scratch copy of the project, asked by a fake
model on 127.0.0.1 to read, edit or create one path; what reached the model is the answer.

`run(agent, binary, project_root, path, moment, timeout)` is the whole API a front needs."""

from __future__ import annotations

import dataclasses
import os
import shutil
import time
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from rulelens.agent_runs.extraction import Fingerprints, seen_files
from rulelens.agent_runs.fake_models.base import FakeModel
from rulelens.agent_runs.launchers import LAUNCHERS
from rulelens.agent_runs.launchers.base import Launcher, base_env, version_in
from rulelens.agent_runs.model import Moment, Observation
from rulelens.agent_runs.processes import Finished, output, run_agent
from rulelens.agent_runs.scratch import Reused, Scratch, project_files


@cache
def version(agent: str, binary: Path) -> str:
    """The binary's own version (`--version`), run with an empty home prepared as for a run
    (Copilot CLI's unpacked package shared, not unpacked again)."""
    import tempfile

    launcher = LAUNCHERS[agent]
    with tempfile.TemporaryDirectory(prefix="rulelens-version-") as home:
        launcher.prepare_home(binary, Path(home))
        env = {**base_env(Path(home), ""), **launcher.quick_start(binary)}
        text = output(launcher.version_argv(binary), env, timeout=60)
    return version_in(text)


def run(agent: str, binary: Path, project_root: Path, path: str, moment: Moment = "read",
        timeout: float = 120, template: Path | None = None, env: Mapping[str, str] | None = None,
        home_files: Mapping[str, Path] | None = None, reused: Reused | None = None,
        stop: Callable[[], bool] | None = None) -> Observation:
    """What `agent`'s binary sends its model when asked to `moment` `path` (root-relative) in a
    copy of `project_root`. `template`: a scratch copy prepared before (scratch.Scratch's root),
    copied again instead of the project, for many runs on one project. `env`: variables added to
    the launcher's environment (`verify`'s closed proxy). `home_files`: files copied into the
    empty scratch home before the start, by their path there (`verify --with-user-files`).
    `reused`: a copy lent for this run and given back after it, instead of one made for it.
    `stop`: asked while the agent runs; when it says so, the agent's group is ended (an
    editor's command cancelled)."""
    launcher = LAUNCHERS[agent]
    began = time.monotonic()
    binary = Path(os.path.abspath(binary))  # the agent starts in the scratch copy
    try:
        release = version(agent, binary)
    except OSError as e:
        why = f"could not start {binary}: {e.strerror or e}"
        return Observation(agent, "unknown", path, moment, (), why)
    lent = reused.lend(path) if reused is not None else None
    try:
        observed = in_copy(launcher, agent, binary, release, path, moment, timeout, began,
                           Scratch(Path(project_root), template, own=path, lent=lent), env, home_files,
                           stop, reused.kept if reused is not None else None)
    finally:
        if reused is not None:
            reused.give_back(path)
    return dataclasses.replace(observed, seconds=time.monotonic() - began)  # the copy put back too


def in_copy(launcher: Launcher, agent: str, binary: Path, release: str, path: str, moment: Moment,
            timeout: float, began: float, scratch: Scratch, env: Mapping[str, str] | None,
            home_files: Mapping[str, Path] | None, stop: Callable[[], bool] | None,
            kept: dict[str, Any] | None) -> Observation:
    with scratch:
        root = scratch.root
        if moment == "create" and (root / path).exists():
            return Observation(agent, release, path, moment, (), f"{path} exists: nothing to create")
        if moment != "create" and not (root / path).is_file():
            return Observation(agent, release, path, moment, (), f"{path} is not a file of the project")
        if moment == "create":
            (root / path).parent.mkdir(parents=True, exist_ok=True)  # tools that need the folder
        prints = fingerprints(launcher, root, path, kept) if launcher.fingerprints else None
        call = launcher.tool_call(root, path, moment)
        launcher.prepare_home(Path(binary), scratch.home)
        for rel, source in (home_files or {}).items():
            (scratch.home / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, scratch.home / rel)
        with FakeModel(launcher.family(), call) as model:
            start = launcher.start(Path(binary), root, scratch.home, path, moment, model.url)
            try:
                done = run_agent(start.argv, start.cwd, {**start.env, **(env or {})}, timeout, stop)
            except OSError as e:
                why = f"could not start {binary}: {e.strerror or e}"
                return Observation(agent, release, path, moment, (), why)
            requests = model.main_requests()
            answered = model.called
            dump(model, agent, path, moment)
        files = seen_files(launcher, requests, root, moment, prints)
        error = failure(done, len(requests), answered, call.name, timeout)
        return Observation(agent, release, path, moment, files, error, time.monotonic() - began)


def fingerprints(launcher: Launcher, root: Path, path: str, kept: dict[str, Any] | None) -> Fingerprints:
    """The candidate files' prints but the path's, read once per lent copy (`kept`, the copy's:
    it is as the template before each run)."""
    key = f"fingerprints:{launcher.agent}"
    whole = kept.get(key) if kept is not None else None
    if not isinstance(whole, Fingerprints):
        whole = Fingerprints(root, project_files(root), keep=launcher.unnamed_in(root))
        if kept is not None:
            kept[key] = whole
    return whole.without(root, [path])


def failure(done: Finished, requests: int, answered: bool, tool: str, timeout: float) -> str | None:
    """Why a run did not go to its end (one line), or None: the agent asked the model, was
    given the tool call, sent the tool's result back, and exited 0."""
    said = tail(done.stderr or done.stdout)
    if done.stopped:
        return "stopped before it finished (cancelled)"
    if done.code is None:
        return f"timed out after {timeout:g} s"
    if not requests:
        return f"sent no request (exit {done.code}): {said}"
    if not answered:
        return f"never offered the {tool} tool (exit {done.code})"
    if requests < 2:
        return f"sent nothing after the {tool} call (exit {done.code}): {said}"
    if done.code != 0:
        return f"exit {done.code}: {said}"
    return None


def tail(text: str, size: int = 600) -> str:
    return " ".join(text.strip().split())[-size:]


def dump(model: FakeModel, agent: str, path: str, moment: str) -> None:
    """Every request of the run written to $RULELENS_RUN_DUMP/<agent>-<moment>-<path>.json
    when that folder is set: what the extraction read, for a person to check."""
    import json

    folder = os.environ.get("RULELENS_RUN_DUMP")
    if not folder:
        return
    name = f"{agent}-{moment}-{path.replace('/', '_')}.json"
    Path(folder).mkdir(parents=True, exist_ok=True)
    (Path(folder) / name).write_text(json.dumps([{"url": r.url, "main": r.main, "body": r.body}
                                                  for r in model.requests], indent=1))
