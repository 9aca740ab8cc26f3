"""Fills bundled/libs: the rulelens server and the pure-Python packages `rulelens serve` imports.

The VSIX carries them so that the extension works without `pip install rulelens` (docs/vscode.md,
"The bundled server"). The packages come from PyPI as wheels, at the versions pinned in
.ci/constraints.txt, so one VSIX runs on every platform: no compiled file may land in it. PyYAML
is the one exception handled here: its wheels carry an optional C speedup (`yaml._yaml`), which
this script deletes; PyYAML then runs as pure Python (rulelens never asks for `CSafeLoader`).

Run by `npm run package` (package.json, `bundle`). pip runs only when the pins changed since the
last run; the rulelens package itself is copied from server/ every time, since it is the part
that changes. Usage: python3 scripts/bundle_server.py [--check]
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

EXTENSION = Path(__file__).resolve().parents[1]
REPO = EXTENSION.parent
LIBS = EXTENSION / "bundled" / "libs"
CONSTRAINTS = REPO / ".ci" / "constraints.txt"
SOURCE = REPO / "server" / "rulelens"
STAMP = LIBS.parent / ".libs-pins"  # outside libs/, so not in the VSIX

# What `rulelens serve` imports, transitively: the dependencies in pyproject.toml but `mcp` (only
# `rulelens mcp` needs it), and theirs. exceptiongroup is cattrs's dependency on Python 3.10.
# tests/vscode/test_bundle.py checks this list against pyproject.toml and imports the server from
# the bundle alone.
PACKAGES = (
    "pygls", "lsprotocol", "attrs", "cattrs", "typing_extensions", "exceptiongroup",
    "pathspec", "bracex", "wcmatch", "python-frontmatter", "PyYAML", "anyascii",
    "markdown-it-py", "mdurl",
)
# Top-level packages whose compiled modules are optional speedups, deleted from the bundle.
OPTIONAL_COMPILED = ("yaml",)
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
        if path.relative_to(LIBS).parts[0] in OPTIONAL_COMPILED:
            path.unlink()
    left = compiled_files(LIBS)
    if left:
        names = ", ".join(str(p.relative_to(LIBS)) for p in left)
        sys.exit(f"compiled files would land in the VSIX: {names}")


def copy_rulelens() -> None:
    target = LIBS / "rulelens"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(SOURCE, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def main(argv: list[str]) -> int:
    started = time.monotonic()
    requirements = pins()
    wanted = hashlib.sha256("\n".join([*requirements, *OPTIONAL_COMPILED]).encode()).hexdigest()
    if STAMP.is_file() and STAMP.read_text().strip() == wanted:
        action = "packages present"
    else:
        install(requirements)
        STAMP.write_text(wanted + "\n")
        action = "installed " + " ".join(requirements)
    copy_rulelens()
    for cache in sorted(LIBS.rglob("__pycache__"), reverse=True):  # left by a run of the bundle
        shutil.rmtree(cache)
    if "--check" in argv and compiled_files(LIBS):
        sys.exit("compiled files in the bundle")
    size = sum(p.stat().st_size for p in LIBS.rglob("*") if p.is_file())
    print(f"bundled/libs: {action}; rulelens copied from server/ "
          f"({size // 1024} KiB, {time.monotonic() - started:.1f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
