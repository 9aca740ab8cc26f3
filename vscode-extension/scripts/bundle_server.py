"""Fills bundled/libs: the rulelens server and the pure-Python packages `rulelens serve` imports.

The VSIX carries them so that the extension works without `pip install rulelens` (docs/vscode.md,
"The bundled server"). The packages come from PyPI as wheels, at the versions pinned in
.ci/constraints.txt, so one VSIX runs on every platform: no compiled file may land in it. PyYAML
is the one exception handled here: its wheels carry an optional C speedup (`yaml._yaml`), which
this script deletes; PyYAML then runs as pure Python (rulelens never asks for `CSafeLoader`).

Run by `npm run package` (package.json, `bundle`). pip runs only when the pins changed since the
last run; the rulelens package itself is synced from server/ every time, since it is the part
that changes (only changed files are written, so a run with nothing to do changes nothing while
another process reads the bundle). Runs take turns on a lock file: two test workers may build at
once. Usage: python3 scripts/bundle_server.py
"""

from __future__ import annotations

import contextlib
import filecmp
import hashlib
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

EXTENSION = Path(__file__).resolve().parents[1]
REPO = EXTENSION.parent
LIBS = EXTENSION / "bundled" / "libs"
CONSTRAINTS = REPO / ".ci" / "constraints.txt"
SOURCE = REPO / "server" / "rulelens"
STAMP = LIBS.parent / ".libs-pins"  # outside libs/, so not in the VSIX
LOCK = LIBS.parent / ".libs-lock"

# What `rulelens serve` imports, transitively: the dependencies in pyproject.toml but `mcp` (only
# `rulelens mcp` needs it), and theirs. On Python 3.10, which the bundle still serves though the
# package needs 3.11: exceptiongroup for cattrs, and tomli in place of tomllib (rules/check/config.py).
# tests/vscode/test_bundle.py checks this list against pyproject.toml and imports the server from
# the bundle alone.
PACKAGES = (
    "pygls", "lsprotocol", "attrs", "cattrs", "typing_extensions", "exceptiongroup",
    "pathspec", "bracex", "wcmatch", "python-frontmatter", "PyYAML", "anyascii",
    "markdown-it-py", "mdurl", "tomli",
)
# Top-level packages whose compiled modules are optional speedups, deleted from the bundle: PyYAML's
# C loader, and tomli's mypyc build (its .py sources sit beside it; the runtime module is the
# top-level `<hash>__mypyc` file).
OPTIONAL_COMPILED = ("yaml", "tomli")
COMPILED = (".so", ".pyd", ".dylib", ".dll")


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins() -> list[str]:
    """`name==version` for every bundled package, from .ci/constraints.txt."""
    pinned: dict[str, str] = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        name, sep, version = line.strip().partition("==")
        if sep and not name.startswith("#"):
            pinned[normalise(name)] = f"{name}=={version}"
    missing = [p for p in PACKAGES if normalise(p) not in pinned]
    if missing:
        sys.exit(f"{CONSTRAINTS} pins none of {', '.join(missing)}: run bash .ci/lock.sh")
    return [pinned[normalise(p)] for p in PACKAGES]


def compiled_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and p.name.endswith(COMPILED))


def install(requirements: list[str]) -> None:
    if LIBS.exists():
        shutil.rmtree(LIBS)
    STAMP.unlink(missing_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "--no-input", "--target", str(LIBS), "--no-deps", "--only-binary", ":all:",
                    "--no-compile", *requirements], check=True)
    shutil.rmtree(LIBS / "bin", ignore_errors=True)  # console scripts: the VSIX runs none
    for path in compiled_files(LIBS):
        top = path.relative_to(LIBS).parts[0]
        if top in OPTIONAL_COMPILED or "__mypyc." in top:
            path.unlink()
    left = compiled_files(LIBS)
    if left:
        names = ", ".join(str(p.relative_to(LIBS)) for p in left)
        sys.exit(f"compiled files would land in the VSIX: {names}")


def sync_rulelens() -> int:
    """Make libs/rulelens a copy of server/rulelens, writing only what differs; files written."""
    target = LIBS / "rulelens"
    wanted = {p.relative_to(SOURCE) for p in SOURCE.rglob("*")
              if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}
    written = 0
    for rel in sorted(wanted):
        source, copy = SOURCE / rel, target / rel
        if copy.is_file() and filecmp.cmp(source, copy, shallow=False):
            continue
        copy.parent.mkdir(parents=True, exist_ok=True)
        partial = copy.with_name(copy.name + ".partial")
        shutil.copyfile(source, partial)
        partial.replace(copy)
        written += 1
    for path in sorted(target.rglob("*"), reverse=True) if target.exists() else []:
        rel = path.relative_to(target)
        if path.is_file() and rel not in wanted:
            path.unlink()
            written += 1
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    return written


@contextlib.contextmanager
def turn() -> Iterator[None]:
    """One run at a time (where fcntl exists: Linux and macOS)."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    LOCK.parent.mkdir(parents=True, exist_ok=True)
    with LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def main() -> int:
    started = time.monotonic()
    requirements = pins()
    wanted = hashlib.sha256("\n".join([*requirements, *OPTIONAL_COMPILED]).encode()).hexdigest()
    with turn():
        if STAMP.is_file() and STAMP.read_text().strip() == wanted:
            action = "packages present"
        else:
            install(requirements)
            STAMP.write_text(wanted + "\n")
            action = "installed " + " ".join(requirements)
        written = sync_rulelens()
        for cache in sorted(LIBS.rglob("__pycache__"), reverse=True):  # left by a run of the bundle
            shutil.rmtree(cache, ignore_errors=True)
    size = sum(p.stat().st_size for p in LIBS.rglob("*") if p.is_file())
    print(f"bundled/libs: {action}; rulelens synced from server/ ({written} files written; "
          f"{size // 1024} KiB, {time.monotonic() - started:.1f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
