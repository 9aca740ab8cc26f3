"""Starting an agent and making sure it ends: its own process group, killed whole on timeout,
on an error and on Ctrl-C, so no process is left behind."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Finished:
    code: int | None  # None: killed at the timeout, or when asked to stop
    stdout: str
    stderr: str
    stopped: bool = False  # ended because `stop` said so (a cancelled editor command)


LOOK = 0.1  # seconds between two looks at `stop` while an agent runs


def run_agent(argv: Sequence[str], cwd: Path, env: Mapping[str, str], timeout: float,
              stop: Callable[[], bool] | None = None) -> Finished:
    """`argv` run in `cwd` with exactly `env`, stdin closed; its whole process group is ended
    when it returns, times out, is interrupted, or when `stop` (asked every LOOK seconds) says so."""
    child = subprocess.Popen(list(argv), cwd=cwd, env=dict(env), stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            try:
                out, err = child.communicate(timeout=max(0.0, min(left, LOOK if stop is not None else left)))
                return Finished(child.returncode, text(out), text(err))
            except subprocess.TimeoutExpired:
                stopped = stop is not None and stop()
                if not stopped and time.monotonic() < deadline:
                    continue
                end_group(child)
                out, err = child.communicate()
                return Finished(None, text(out), text(err), stopped)
    finally:
        end_group(child)


def text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def end_group(child: subprocess.Popen[bytes]) -> None:
    """SIGKILL to the child's group (agents start helpers of their own: ripgrep, shells, MCP)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, signal.SIGKILL)
    if child.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            child.kill()
        child.wait()


def output(argv: Sequence[str], env: Mapping[str, str], timeout: float = 60) -> str:
    """A short command's stdout (a `--version`), with its group ended as above."""
    with_cwd = Path(env.get("HOME") or "/")
    done = run_agent(argv, with_cwd if with_cwd.is_dir() else Path("/"), env, timeout)
    return done.stdout.strip()
