"""What a `check` run imports, for the tests that hold it to loading only what it needs (a
pre-commit hook pays each import on every commit)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


def check_importing(root: Path, env: Mapping[str, str]) -> tuple[tuple[int, str], set[str]]:
    """`rulelens check` in root: its exit code and output, and the modules it imported beyond
    the interpreter's start (`-X importtime` lists every module after those it imported, so what
    the start loaded, site and the environment's .pth files, comes before `site` itself)."""
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "rulelens", "check"], cwd=root,
                         capture_output=True, text=True, check=False, env=dict(env))
    names = [line.rpartition("|")[2] for line in run.stderr.splitlines() if "|" in line]
    return (run.returncode, run.stdout), {name.strip() for name in names[names.index(" site") + 1:]}
