"""The README's first command, as written, with Debian's own python3 in a scratch copy of the
checkout: a distribution's Python refuses `pip install` outside a virtual environment (PEP 668),
so the command must make one. Its output must be the one the README shows."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
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


def newest_python() -> Path | None:
    """The newest CPython on this machine besides the one running the tests (pyenv's or the
    distribution's), or None when there is no newer one."""
    roots = [Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"]
    found: dict[tuple[int, int], Path] = {}
    for root in roots:
        for exe in root.glob("3.*/bin/python3"):
            parts = exe.parents[1].name.split(".")
            if len(parts) >= 2 and parts[1].isdigit():
                found[(3, int(parts[1]))] = exe
    for exe in Path("/usr/bin").glob("python3.*"):
        minor = exe.name.removeprefix("python3.")
        if minor.isdigit():
            found.setdefault((3, int(minor)), exe)
    newer = {v: p for v, p in found.items() if v > sys.version_info[:2]}
    return newer[max(newer)] if newer else None


def test_the_first_command_works_with_the_newest_python(tmp_path: Path) -> None:
    python = newest_python()
    if python is None:
        pytest.skip("no CPython newer than the one running the tests on this machine")
    command, shown = readme_quick_start()
    checkout = scratch_copy(tmp_path / "rulelens")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "python3").symlink_to(python)  # the command's `python3` is the newest Python
    env = {"PATH": f"{bindir}:{SYSTEM_PATH}", "HOME": str(tmp_path / "home"), "LANG": "C.UTF-8",
           **{k: v for k, v in os.environ.items() if k.startswith(("PIP_", "XDG_CACHE_HOME"))}}
    done = subprocess.run(["bash", "-c", command], cwd=checkout, env=env, capture_output=True,
                          text=True, check=False, timeout=540)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    assert done.stdout.endswith(shown), done.stdout
    version = subprocess.run([str(checkout / ".venv" / "bin" / "python"), "--version"],
                             capture_output=True, text=True, check=True).stdout
    print(f"README's first command on {version.strip()}: the README's output")
