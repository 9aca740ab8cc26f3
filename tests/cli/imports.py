"""What a `check` run imports, for the tests that hold it to loading only what it needs (a
pre-commit hook pays each import on every commit)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import rulelens


def check_importing(root: Path, env: Mapping[str, str],
                    bare: bool = False) -> tuple[tuple[int, str], set[str]]:
    """`rulelens check` in root: its exit code and output, and the modules it imported beyond
    the interpreter's start (`-X importtime` lists every module after those it imported, so what
    the start loaded, site and the environment's .pth files, comes before `site` itself).

    Some environments' .pth files import much at start (one that loads certifi brings tempfile,
    shutil, random and threading), which a run then never shows as its own. `bare` starts the
    interpreter without `site` (`-S`), given this one's path, and counts every module: a run
    whose answer `check` keeps is keyed by its path, so a bare run does not share kept answers
    with plain ones. A module that `importlib.import_module` loads does not show itself, only
    what it imports in turn."""
    command = [sys.executable, "-X", "importtime", "-m", "rulelens", "check"]
    if bare:
        path = [str(Path(rulelens.__file__).parents[1]), *(entry for entry in sys.path if entry)]
        command.insert(1, "-S")
        env = {**env, "PYTHONPATH": os.pathsep.join(path)}
    run = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False, env=dict(env))
    names = [line.rpartition("|")[2] for line in run.stderr.splitlines() if line.startswith("import time:")]
    start = 0 if bare else names.index(" site") + 1
    return (run.returncode, run.stdout), {name.strip() for name in names[start:]} - {"imported package"}
