"""`rulelens check` with two checkouts of rulelens, timed in one sitting: the kept answer on
unchanged files (a hook run twice) and the run in full (`--no-cache`, the other caches warm).

Usage: python bench/check_ab.py BEFORE_SERVER AFTER_SERVER [--runs N] [--corpus DIR]
                                [--generated N ...] [--roots PROJECT ...] [--full-only]
  (BEFORE_SERVER and AFTER_SERVER: folders holding a `rulelens` package, put on PYTHONPATH;
  DIR: a folder of repositories, each with rules/ and files.txt, each made into a git
  repository with every listed file, empty; --generated: generated git projects of N files;
  --roots: project folders run where they are, such as real checkouts, in full only, so that
  no kept answer is written into them; --full-only: the run in full alone everywhere;
  --agnix: that executable's `agnix .` timed in the same rotation, with the after / agnix ratio)

The two checkouts alternate run by run (ABBA); each keeps its own answer (the code is part of
its key). Prints per project and case the median wall time of each and after / before, and the
same of the CPU time the run's processes used (user and system, from `wait4`: on a shared
machine it moves much less with the load than the wall time).
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from check_identical import projects

CASES = (("kept answer", []), ("in full", ["--no-cache"]))


def timed(server: str, root: Path, args: list[str], command: list[str] | None = None) -> tuple[float, float]:
    """Wall time and CPU time (the run and every process it waited for); `command`: another
    program's (agnix's) instead of `check`'s."""
    env = {**os.environ, "PYTHONPATH": server, "RULELENS_TEST_RACY_NS": "0"}
    env.pop("RULELENS_NO_CACHE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command or [sys.executable, "-m", "rulelens", "check", "-q", *args], cwd=root,
                   env=env, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--generated", type=int, nargs="*", default=[])
    parser.add_argument("--roots", type=Path, nargs="*", default=[])
    parser.add_argument("--full-only", action="store_true")
    parser.add_argument("--agnix", type=Path)
    args = parser.parse_args()
    agnix = [str(args.agnix.resolve()), "."] if args.agnix else None
    for server in (args.before, args.after):  # as an install leaves them (PYTHONDONTWRITEBYTECODE aside)
        compileall.compile_dir(server, quiet=1)
    tail = " agnix | after / agnix |" if agnix else ""  # agnix is timed in the runs in full
    print(f"| project | case | before | after | after / before | CPU before | CPU after | after / before |"
          f"{tail}")
    print("|---|---|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if agnix else ""))
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        made = list(projects(base, args.corpus, args.generated))
        for name, root in [*((r.name, r) for r in args.roots), *made]:
            as_is = root in args.roots  # someone's checkout: nothing written into it
            cases = CASES[1:] if as_is or args.full_only else CASES
            if not as_is:
                subprocess.run(["git", "-C", str(root), "update-index", "-q", "--refresh"],
                               capture_output=True, check=False)
            for server in (args.before, args.after):
                timed(server, root, cases[0][1])  # caches warm, each checkout's answer kept
            for case, extra in cases:
                times: dict[str, list[tuple[float, float]]] = {args.before: [], args.after: [], "agnix": []}
                for n in range(args.runs):
                    order = [args.before, args.after, *(["agnix"] if agnix and extra else [])]
                    for server in order if n % 2 == 0 else order[::-1]:
                        times[server].append(timed(server, root, extra, agnix if server == "agnix" else None))
                a, b = (statistics.median(w for w, _ in times[s]) for s in (args.before, args.after))
                ca, cb = (statistics.median(c for _, c in times[s]) for s in (args.before, args.after))
                theirs = ""
                if times["agnix"]:
                    g = statistics.median(w for w, _ in times["agnix"])
                    theirs = f" {g:.3f} s | {b / g:.2f}x |"
                print(f"| {name} | {case} | {a:.3f} s | {b:.3f} s | {b / a:.2f}x "
                      f"| {ca:.3f} s | {cb:.3f} s | {cb / ca:.2f}x |{theirs}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
