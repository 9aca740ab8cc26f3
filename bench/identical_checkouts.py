"""`rulelens check`'s output with two checkouts of rulelens on real repositories, byte for byte.

Usage: python bench/identical_checkouts.py BEFORE_SERVER AFTER_SERVER [--repos DIR] [--names A,B]
                                           [--work DIR]
  (BEFORE_SERVER and AFTER_SERVER: folders holding a `rulelens` package, put on PYTHONPATH;
  DIR: git checkouts named OWNER+NAME, default /work/repos, each cloned with `git clone --shared`
  under --work, so that the checkouts are never written)

In each clone: `check --no-cache --format json` with no cache at all (git's `rulelens` folder
removed before each, as in a fresh clone), before then after; then with the caches warm, JSON and
text, each before then after. Prints each repository whose outputs or exit codes differ and a
count; exits 1 when any does. bench/check_identical.py does the same on a corpus's rules and
generated projects, with the kept answer.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from speed import clone

RUNS = (("no cache, json", ["--no-cache", "--format", "json"], True),
        ("warm, json", ["--no-cache", "--format", "json"], False),
        ("warm, text", ["--no-cache"], False))


def run(server: Path, root: Path, args: list[str]) -> tuple[int, bytes]:
    env = {**os.environ, "PYTHONPATH": str(server), "RULELENS_TEST_RACY_NS": "0"}
    env.pop("RULELENS_NO_CACHE", None)
    out = subprocess.run([sys.executable, "-m", "rulelens", "check", *args], cwd=root, env=env,
                         capture_output=True, check=False)
    return out.returncode, out.stdout + b"\0" + out.stderr


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--repos", type=Path, default=Path("/work/repos"))
    ap.add_argument("--names", help="OWNER+NAME folders of --repos (default: every git checkout)")
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "rulelens-identical")
    args = ap.parse_args()
    names = (args.names.split(",") if args.names else
             sorted(d.name for d in args.repos.iterdir() if (d / ".git").exists()))
    differ = compared = 0
    for name in names:
        root = clone(args.repos / name, args.work / name)
        caches = root / ".git" / "rulelens"
        for label, extra, fresh in RUNS:
            outputs = []
            for server in (args.before.resolve(), args.after.resolve()):
                if fresh:
                    shutil.rmtree(caches, ignore_errors=True)
                outputs.append(run(server, root, extra))
            compared += 1
            if outputs[0] != outputs[1]:
                differ += 1
                print(f"DIFFERS: {name} ({label}): exit {outputs[0][0]} / {outputs[1][0]}", flush=True)
        shutil.rmtree(root, ignore_errors=True)
    print(f"{len(names)} repositories, {compared} outputs compared, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
