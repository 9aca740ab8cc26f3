"""Every git command rulelens runs goes through `run_git`: one timeout policy, one failure shape.

git is optional: outside a work tree, without git installed, or when a command fails or runs
past its timeout, the caller gets None and answers without git (a plain file walk, no history).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

# Long enough for `ls-files` or `log` over a 500,000-file repository on a cold disk; short
# enough that a hung git (a network filesystem, a lock) never stalls a command for minutes.
TIMEOUT = 120.0


def completed(root: Path | str, *args: str, input: bytes | None = None,
              timeout: float = TIMEOUT) -> subprocess.CompletedProcess[bytes] | None:
    """`git -C root ARGS` run to the end (for callers that read git's own error), or None when
    git is missing or runs past its timeout."""
    try:
        return subprocess.run(["git", "-C", str(root), *args], input=input, capture_output=True,
                              check=False, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return None


def run_git(root: Path | str, *args: str, input: bytes | None = None,
            timeout: float = TIMEOUT) -> bytes | None:
    """git's stdout for `git -C root ARGS`, or None when git is missing, fails or times out."""
    out = completed(root, *args, input=input, timeout=timeout)
    return out.stdout if out is not None and out.returncode == 0 else None


def git_text(root: Path | str, *args: str, timeout: float = TIMEOUT) -> str | None:
    """`run_git` decoded as UTF-8 (undecodable bytes kept as surrogates), or None."""
    out = run_git(root, *args, timeout=timeout)
    return None if out is None else out.decode("utf-8", "surrogateescape")
