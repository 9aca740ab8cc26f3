"""What `check`'s kept answer costs to start: its wall and CPU time and the modules it imports,
for this checkout and others in one sitting (tests/cli/test_result_cache.py holds the module
count to a budget; this prints the time, which no test may assert on).

Usage: python bench/cached_start.py [--runs N] [--generated N ...] [--corpus DIR]
                                    [--against NAME=SERVER ...] [--commit NAME=COMMIT ...]
  (SERVER: a folder holding a `rulelens` package; COMMIT: a commit of this repository, whose
  `server/` is unpacked with `git archive` into a temporary folder; DIR: as check_ab.py's)

Each tree runs `server/bin/rulelens check` as a hook does (the command, not `python -m`), with
its own package on PYTHONPATH, and keeps its own answer (the code is part of its key). The trees
alternate run by run (ABBA). Printed per project and tree: the median wall time and CPU time
(the process and the git it waits for, from `wait4`) of the kept answer and of a run in full
(`--no-cache`, the other caches warm), beside `python -c pass`; and, from one run with
`-X importtime`, the modules each imports: in all, beyond `rulelens --version` (what the test's
budget counts), and of those the ones not rulelens's own.
"""

from __future__ import annotations

import argparse
import compileall
import io
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from check_identical import projects

HERE = Path(__file__).resolve().parents[1]
CASES = (("kept answer", ["check", "-q"]), ("in full", ["check", "-q", "--no-cache"]))


def command(server: Path, args: list[str], importtime: bool = False) -> list[str]:
    script = server / "bin" / "rulelens"
    return [sys.executable, *(["-X", "importtime"] if importtime else []), str(script), *args]


def environment(server: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(server), "RULELENS_TEST_RACY_NS": "0"}
    env.pop("RULELENS_NO_CACHE", None)
    return env


def timed(cmd: list[str], root: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall time and CPU time (the run and every process it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, cwd=root, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def modules(server: Path, root: Path, args: list[str]) -> list[str]:
    """The modules one run imports, in the order `-X importtime` lists them."""
    out = subprocess.run(command(server, args, importtime=True), cwd=root, env=environment(server),
                         capture_output=True, text=True, check=False)
    lines = [line for line in out.stderr.splitlines() if line.startswith("import time:")]
    return [line.rpartition("|")[2].strip() for line in lines[1:]]


def counts(server: Path, root: Path, args: list[str]) -> str:
    """In all / beyond `--version` / of those not rulelens's own."""
    ran = modules(server, root, args)
    extra = sorted(set(ran) - set(modules(server, root, ["--version"])))
    others = [m for m in extra if m.partition(".")[0] != "rulelens"]
    return f"{len(ran)} / {len(extra)} / {len(others)}"


def unpacked(commit: str, into: Path) -> Path:
    """This repository's `server/` at `commit`, in a folder of its own."""
    data = subprocess.run(["git", "-C", str(HERE), "archive", commit, "server"], capture_output=True,
                          check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / "server"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--generated", type=int, nargs="*", default=[1000])
    parser.add_argument("--against", action="append", default=[], metavar="NAME=SERVER")
    parser.add_argument("--commit", action="append", default=[], metavar="NAME=COMMIT")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        trees = {"this checkout": HERE / "server"}
        for pair in args.against:
            name, _, server = pair.partition("=")
            trees[name] = Path(server).resolve()
        for pair in args.commit:
            name, _, commit = pair.partition("=")
            trees[name] = unpacked(commit, base / f"tree-{len(trees)}")
        for server in trees.values():  # as an install leaves them
            compileall.compile_dir(server, quiet=1)
        print(f"load average at the start: {' / '.join(f'{x:.1f}' for x in os.getloadavg())}")
        print("| project | case | tree | wall (median) | CPU (median) "
              "| modules: all / beyond --version / not rulelens's |")
        print("|---|---|---|---:|---:|---:|")
        for name, root in projects(base, args.corpus, args.generated):
            subprocess.run(["git", "-C", str(root), "update-index", "-q", "--refresh"],
                           capture_output=True, check=False)
            bare = [timed([sys.executable, "-c", "pass"], root, dict(os.environ)) for _ in range(args.runs)]
            print(f"| {name} | `python -c pass` | | {statistics.median(w for w, _ in bare) * 1000:.1f} ms "
                  f"| {statistics.median(c for _, c in bare) * 1000:.1f} ms | |")
            for server in trees.values():
                timed(command(server, CASES[0][1]), root, environment(server))  # each answer kept
            for case, cmd in CASES:
                times: dict[str, list[tuple[float, float]]] = {t: [] for t in trees}
                for n in range(args.runs):
                    order = list(trees) if n % 2 == 0 else list(trees)[::-1]
                    for tree in order:
                        times[tree].append(timed(command(trees[tree], cmd), root, environment(trees[tree])))
                for tree, server in trees.items():
                    wall = statistics.median(w for w, _ in times[tree]) * 1000
                    cpu = statistics.median(c for _, c in times[tree]) * 1000
                    print(f"| {name} | {case} | {tree} | {wall:.1f} ms | {cpu:.1f} ms "
                          f"| {counts(server, root, cmd)} |", flush=True)
        print(f"load average at the end: {' / '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
