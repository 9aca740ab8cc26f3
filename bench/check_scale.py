"""`rulelens check` on a generated project of 200,000 files, against a naive per-glob pass.

Usage: python bench/check_scale.py [--files N] [--rule-files N] [--sample N]
Prints wall time and peak memory of the real CLI for 1,000 and 10,000 globs, and a naive
baseline (one pathspec per glob tested against every file) timed on a sample and extrapolated.
It prints figures only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pathspec

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import file_paths, write_project
from rulelens.glob_engines.boost import expand
from rulelens.rules.repository import RuleRepository


def run_check(root: Path) -> tuple[float, float, int]:
    """Wall seconds and peak RSS (MB) of one `rulelens check` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "check", "--json"],
                         capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before) / 1024, out.stdout.count('"glob-matches-nothing"')


def naive(root: Path, files: list[str], sample: int) -> float:
    """Seconds for every glob against every file with one PathSpec per glob, extrapolated."""
    globs = [g for rule in RuleRepository(root).files for item in rule.strict_paths for g, _ in expand(item)]
    specs = [pathspec.PathSpec.from_lines("gitignore", [g], backend="simple") for g in globs]
    step = max(1, len(files) // sample)
    chosen = files[::step][:sample]
    t0 = time.perf_counter()
    for spec in specs:
        for path in chosen:
            spec.match_file(path)
    return (time.perf_counter() - t0) * len(files) / len(chosen)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=200_000)
    ap.add_argument("--rule-files", type=int, default=1_000)
    ap.add_argument("--sample", type=int, default=200)
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    print("| files | rule files | globs | check wall s | peak MB | matches-nothing "
          "| naive s (extrapolated) | speed-up |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as scratch:
        files = file_paths(args.files)
        for globs in (1_000, 10_000):
            root = write_project(Path(scratch) / f"p{globs}", args.files, args.rule_files, globs)
            wall, peak, nothing = run_check(root)
            slow = naive(root, files, args.sample)
            print(f"| {args.files:,} | {args.rule_files:,} | {globs:,} | {wall:.2f} | {peak:.0f} "
                  f"| {nothing} | {slow:.1f} | {slow / wall:.0f}x |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
