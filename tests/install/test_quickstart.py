"""The README's first command, as written, with Debian's own python3 in a scratch copy of the
checkout: a distribution's Python refuses `pip install` outside a virtual environment (PEP 668),
so the command must make one. Its output must be the one the README shows."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO

SYSTEM_PYTHON = Path("/usr/bin/python3")
SYSTEM_PATH = "/usr/bin:/bin"


def readme_quick_start() -> tuple[str, str]:
    """The first `sh` block of the README's Quick start, and the output block that follows it."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Quick start"):]
    blocks = re.findall(r"(?ms)^```(\w*)\n(.*?)^```$", section)
    command = next(body for lang, body in blocks if lang == "sh")
    output = next(body for lang, body in blocks if lang == "")
    return command.strip(), output


def externally_managed() -> bool:
    probe = subprocess.run([str(SYSTEM_PYTHON), "-c",
                            "import sysconfig, os; print(os.path.exists(os.path.join("
                            "sysconfig.get_path('stdlib'), 'EXTERNALLY-MANAGED')))"],
                           capture_output=True, text=True, check=False)
    return probe.stdout.strip() == "True"


@pytest.fixture
def system_python() -> Path:
    if not SYSTEM_PYTHON.exists() or not externally_managed():
        if os.environ.get("CI"):
            pytest.fail(f"{SYSTEM_PYTHON} is missing or not a distribution's (no EXTERNALLY-MANAGED)")
        pytest.skip(f"no distribution Python at {SYSTEM_PYTHON}")
    return SYSTEM_PYTHON


def scratch_copy(to: Path) -> Path:
    """The files a fresh clone has that the command reads: the package, its metadata, examples."""
    to.mkdir()
    for rel in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / rel, to / rel)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", ".mypy_cache")
    for rel in ("server", "examples"):
        shutil.copytree(REPO / rel, to / rel, ignore=ignore)
    return to


def test_the_first_command_works_with_the_distributions_python(system_python: Path,
                                                               tmp_path: Path) -> None:
    command, shown = readme_quick_start()
    assert command.startswith("python3 -m venv .venv && "), command
    checkout = scratch_copy(tmp_path / "rulelens")
    env = {"PATH": SYSTEM_PATH, "HOME": str(tmp_path / "home"), "LANG": "C.UTF-8",
           **{k: v for k, v in os.environ.items() if k.startswith(("PIP_", "XDG_CACHE_HOME"))}}
    # Without a virtual environment the distribution's Python refuses: the reason for the venv.
    refused = subprocess.run([str(system_python), "-m", "pip", "install", "-e", "."], cwd=checkout,
                             env=env, capture_output=True, text=True, check=False)
    assert refused.returncode != 0 and "externally-managed-environment" in refused.stderr, refused
    done = subprocess.run(["bash", "-c", command], cwd=checkout, env=env, capture_output=True,
                          text=True, check=False, timeout=540)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    python = checkout / ".venv" / "bin" / "python"
    version = subprocess.run([str(python), "-c", "import sys; print(sys.base_prefix)"],
                             capture_output=True, text=True, check=True).stdout.strip()
    assert version == "/usr", version  # the venv is the distribution's Python's
    assert done.stdout.endswith(shown), done.stdout
