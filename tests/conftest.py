"""Fixtures shared by every test folder: small projects written on the fly."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# `check` keeps its answer for a project outside git in the user's cache folder
# (cli/result_cache.py): every run a test starts, in this process or a child, keeps it here,
# never in the real home. Set before any test module copies the environment.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="rulelens-test-cache-")
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)
EXAMPLES = REPO / "examples"
SHARED = REPO.parent / "shared"

ProjectFactory = Callable[..., Path]


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8"))
    return root


@pytest.fixture
def project(tmp_path: Path) -> ProjectFactory:
    """`project({"rel/path": "text", ...}, git=False)` → a fresh project root."""

    def make(files: dict[str, str | bytes] | None = None, git: bool = False) -> Path:
        root = tmp_path / "project"
        root.mkdir(exist_ok=True)
        (root / ".ai" / "rules").mkdir(parents=True, exist_ok=True)
        write_tree(root, files or {})
        if git:
            subprocess.run(["git", "init", "-q", str(root)], check=True)
        return root

    return make


@pytest.fixture
def examples_copy(tmp_path: Path) -> Path:
    """A private copy of examples/, so tests can write into it."""
    dest = tmp_path / "examples"
    shutil.copytree(EXAMPLES, dest)
    return dest


def require_tool(name: str) -> str:
    """The tool's path; skip when missing locally, fail when missing under CI."""
    found = shutil.which(name)
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail(f"{name} is required under CI but is not installed")
    pytest.skip(f"{name} is not installed")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The agreement of each agent's matcher with the real one, per source, as
    tests/agents/test_differential.py records it (`record_property("agreement", …)`); the
    properties travel with the reports, so the table shows under pytest-xdist too."""
    recorded = {
        (report.nodeid, tuple(value))
        for reports in terminalreporter.stats.values()
        for report in reports
        if getattr(report, "when", None) == "call"
        for name, value in getattr(report, "user_properties", ())
        if name == "agreement"
    }
    # Rows of one agent and source from several tests (each end-to-end case records its own) are
    # summed: one line per agent.
    summed: dict[tuple[str, str], list[int]] = {}
    for _, (agent, source, pairs, agree) in recorded:
        total = summed.setdefault((agent, source), [0, 0])
        total[0] += pairs
        total[1] += agree
    rows = sorted((agent, source, pairs, agree) for (agent, source), (pairs, agree) in summed.items())
    if not rows:
        return
    terminalreporter.section("agreement with the agents' real matchers")
    width = max(9, *(len(str(row[0])) for row in rows))
    terminalreporter.write_line(f"{'agent':<{width}} {'source':<22} {'pairs':>6} {'agree':>6}  share")
    for agent, source, pairs, agree in rows:
        terminalreporter.write_line(f"{agent:<{width}} {source:<22} {pairs:>6} {agree:>6}  "
                                    f"{100 * agree / pairs:6.2f}%")
