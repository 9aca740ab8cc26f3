"""Starting an agent and making sure it ends: its own process group, killed whole on timeout,
on an error and on Ctrl-C, so no process is left behind."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Finished:
    code: int | None  # None: killed at the timeout
    stdout: str
    stderr: str


def run_agent(argv: Sequence[str], cwd: Path, env: Mapping[str, str], timeout: float) -> Finished:
    """`argv` run in `cwd` with exactly `env`, stdin closed; its whole process group is ended
    when it returns, times out or is interrupted."""
    child = subprocess.Popen(list(argv), cwd=cwd, env=dict(env), stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = child.communicate(timeout=timeout)
        return Finished(child.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))
    except subprocess.TimeoutExpired:
        end_group(child)
        out, err = child.communicate()
        return Finished(None, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))
    finally:
        end_group(child)


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
