"""`rulelens check`'s output with two checkouts of rulelens, compared byte for byte.

Usage: python bench/check_identical.py BEFORE_SERVER AFTER_SERVER CORPUS_DIR [EXTRA_PROJECT...]
  (BEFORE_SERVER and AFTER_SERVER: folders holding a `rulelens` package, put on PYTHONPATH;
  CORPUS_DIR: a folder of repositories, each with rules/, files.txt and its root's AGENTS.md or
  CLAUDE.md; EXTRA_PROJECT: project folders copied as they are, such as examples/)

Each project is copied into a git repository (committed) and into a plain folder. In each, each
checkout runs `check` in text and JSON: without the kept answer (`--no-cache`), then twice with
it (the run that keeps it, the run that prints it), the kept answer removed between checkouts.
Prints one row per project and format with how many outputs and exit codes differ from the
first checkout's `--no-cache` run; exits 1 when any does.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

FORMATS = (("text", []), ("json", ["--format", "json"]))


def from_corpus(repo: Path, into: Path) -> Path:
    """A project holding the repository's rules folder, its root files and every listed file
    (empty: the file list is what the findings read)."""
    root = into / repo.name
    shutil.copytree(repo / "rules", root / ".ai" / "rules")
    for name in ("AGENTS.md", "CLAUDE.md"):
        if (repo / name).is_file():
            shutil.copy(repo / name, root / name)
    listed = repo / "files.txt"
    for rel in listed.read_text(encoding="utf-8").splitlines() if listed.is_file() else []:
        target = root / rel
        if not rel or rel.startswith((".ai/rules/", "/")) or ".." in rel.split("/") or target.exists():
            continue
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.touch()
        except OSError:
            continue  # a name that is a folder elsewhere in the list
    return root


def committed(root: Path) -> None:
    git = ["git", "-C", str(root), "-c", "user.name=bench", "-c", "user.email=bench@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "project"], check=True)


def run(server: str, root: Path, args: list[str], xdg: Path) -> tuple[int, bytes]:
    env = {**os.environ, "PYTHONPATH": server, "XDG_CACHE_HOME": str(xdg), "NO_COLOR": "1",
           "RULELENS_TEST_RACY_NS": "0"}
    env.pop("RULELENS_NO_CACHE", None)
    out = subprocess.run([sys.executable, "-m", "rulelens", "check", "-q", *args], cwd=root,
                         env=env, capture_output=True, check=False)
    return out.returncode, out.stdout


def forget(root: Path, xdg: Path) -> None:
    shutil.rmtree(root / ".git" / "rulelens", ignore_errors=True)
    shutil.rmtree(xdg, ignore_errors=True)


def compare(servers: list[str], root: Path, xdg: Path) -> list[tuple[str, int, int]]:
    rows = []
    for name, args in FORMATS:
        outputs = []
        for server in servers:
            forget(root, xdg)
            outputs.append(run(server, root, [*args, "--no-cache"], xdg))
            outputs.append(run(server, root, args, xdg))
            outputs.append(run(server, root, args, xdg))
        forget(root, xdg)
        rows.append((name, len(outputs), sum(1 for o in outputs if o != outputs[0])))
    return rows


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    servers, corpus, extra = [argv[0], argv[1]], Path(argv[2]), [Path(p) for p in argv[3:]]
    differing = 0
    print(f"{'project':48} {'where':8} {'format':6} {'runs':>4} {'differ':>6}")
    with tempfile.TemporaryDirectory() as scratch:
        base, xdg = Path(scratch), Path(scratch) / "xdg"
        projects = [(d.name, d, True) for d in sorted(corpus.iterdir()) if (d / "rules").is_dir()]
        projects += [(p.name, p, False) for p in extra]
        for name, source, is_corpus in projects:
            for where in ("git", "plain"):
                into = base / where
                into.mkdir(exist_ok=True)
                if is_corpus:
                    root = from_corpus(source, into)
                else:
                    root = into / name
                    shutil.copytree(source, root)
                if where == "git":
                    committed(root)
                for fmt, runs, differ in compare(servers, root, xdg):
                    differing += differ
                    print(f"{name:48} {where:8} {fmt:6} {runs:>4} {differ:>6}")
    print(f"outputs differing from the first: {differing}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


def projects(base: Path, corpus: Path | None, sizes: list[int]) -> list[tuple[str, Path]]:
    """The corpus's projects (committed, as a real checkout is) and generated ones, under `base`:
    what the timing benches (check_ab.py, cached_start.py) run on."""
    found: list[tuple[str, Path]] = []
    if corpus is not None:
        found += [(d.name, from_corpus(d, base)) for d in sorted(corpus.iterdir()) if (d / "rules").is_dir()]
        for _, root in found:
            committed(root)
    return found + [(f"generated {n:,}", generated(base, n)) for n in sizes]


def generated(into: Path, files: int) -> Path:
    from generate import write_agents, write_project
    from rulelens.rules.repository import RuleRepository

    root = into / f"generated-{files}"
    packages = max(1, files // 1000)
    write_project(root, files, packages * 2, packages * 20)
    RuleRepository(root).write_index()
    write_agents(root, packages)
    committed(root)
    return root
