"""What the staleness findings cost `rulelens check` on a generated git project of 200,000 files.

Usage: python bench/check_stale.py [--files N] [--rule-files N] [--commits N] [--runs N]
Builds a git work tree (bench/generate.py's layout, with PHP-like text in every file, rule files
that name existing and vanished paths and identifiers, and a history of commits), then times the
real CLI's `check` three ways in the same run:
  baseline  today's check: the staleness hooks replaced by no-ops in the same process
  full      check with stale-path, stale-name and rule-drift
and, for scale, one `git grep` per identifier (what the one-pass search avoids), extrapolated.
It prints figures and ratios only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import EXTS, file_paths, glob_for
from rulelens.rules.yaml_style import paths_block

GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.com"}

BASELINE = """
import sys
import rulelens.rules.check as check
check.prepare = lambda *a, **k: None
check.staleness_problems = lambda *a, **k: []
from rulelens.cli import main
sys.exit(main(sys.argv[1:]))
"""


def content(path: str) -> str:
    pkg, mod, name = path.split("/")
    p, m, k = pkg[3:], mod[3:], name[1:].split(".")[0]
    return (f"<?php\n\nnamespace Pkg{p}\\Mod{m};\n\nfinal class Pkg{p}Mod{m}HelperFor{k}\n{{\n"
            f"    public function handle_f{k}(): int\n    {{\n        return $this->total_cents;\n"
            "    }\n}\n")


def rule_body(i: int, rng: random.Random, packages: int) -> str:
    p, m, k = rng.randrange(packages), rng.randrange(50), rng.randrange(20)
    ext = EXTS[k % len(EXTS)]
    lines = [f"## Convention {i}",
             f"Call `Pkg{p}Mod{m}HelperFor{k}` (in `pkg{p}/mod{m}/f{k}.{ext}`) through `handle_f{k}()`, "
             f"from `Pkg{p}\\Mod{m}\\Pkg{p}Mod{m}HelperFor{k}`; amounts are `total_cents`."]
    if i % 10 == 0:
        lines.append(f"The old `LegacyPriceHelper{i}` in pkg{p}/mod{m}/gone{i}.php is gone.")
    return "\n".join(lines)


def build(root: Path, files: int, rule_files: int, globs: int, commits: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    paths = file_paths(files)
    for rel in paths:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content(rel))
    rules = root / ".ai" / "rules"
    rules.mkdir(parents=True)
    packages = max(1, files // 1000)
    per_file = [globs // rule_files + (1 if i < globs % rule_files else 0) for i in range(rule_files)]
    for i, n in enumerate(per_file):
        chosen = [glob_for(rng, packages) for _ in range(n)]
        text = f"---\n{paths_block(chosen)}---\n\n# Rule {i}\n\n{rule_body(i, rng, packages)}\n"
        (rules / f"rule-{i:04d}.md").write_text(text)
    git = ["git", "-C", str(root)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "start"], check=True, env=GIT_ENV)
    subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "index"], check=True,
                   capture_output=True)
    for c in range(commits):
        pkg = c % 5  # the first packages churn, so that their rule files drift
        for j in range(20):
            path = root / paths[pkg * 1000 + (c * 20 + j) % 1000]
            path.write_text(path.read_text() + f"// change {c}\n")
        subprocess.run([*git, "commit", "-q", "-a", "-m", f"change {c}"], check=True, env=GIT_ENV)


def timed(cmd: list[str], runs: int) -> tuple[float, str]:
    walls, out = [], ""
    for _ in range(runs):
        t0 = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, check=False).stdout
        walls.append(time.perf_counter() - t0)
    return statistics.median(walls), out


def per_name_grep(root: Path, sample: int, total: int) -> float:
    """Seconds for one `git grep` process per identifier, timed on a sample and extrapolated."""
    names = [f"LegacyPriceHelper{i}" for i in range(sample)]
    t0 = time.perf_counter()
    for name in names:
        subprocess.run(["git", "-C", str(root), "grep", "-q", "-F", "-w", "-i", name, "--", ".",
                        ":(exclude).ai/rules"], capture_output=True, check=False)
    return (time.perf_counter() - t0) * total / sample


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=200_000)
    ap.add_argument("--rule-files", type=int, default=1_000)
    ap.add_argument("--globs", type=int, default=1_000)
    ap.add_argument("--commits", type=int, default=100)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}", flush=True)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "project"
        t0 = time.perf_counter()
        build(root, args.files, args.rule_files, args.globs, args.commits)
        print(f"built {args.files:,} files, {args.rule_files:,} rule files, {args.commits} commits "
              f"in {time.perf_counter() - t0:.0f} s", flush=True)
        cli = ["--root", str(root), "check", "--json"]
        base, base_out = timed([sys.executable, "-c", BASELINE, *cli], args.runs)
        full, full_out = timed([sys.executable, "-m", "rulelens", *cli], args.runs)
        counts = {code: full_out.count(f'"code": "{code}"')
                  for code in ("stale-path", "stale-name", "rule-drift", "glob-matches-nothing")}
        names = sum(1 for _ in root.joinpath(".ai/rules").glob("rule-*.md")) * 4
        slow = per_name_grep(root, 10, names)
        print("| check | median wall s | vs baseline |")
        print("| --- | ---: | ---: |")
        print(f"| baseline (no staleness) | {base:.2f} | 1.00x |")
        print(f"| with stale-path, stale-name, rule-drift | {full:.2f} | {full / base:.2f}x |")
        print(f"findings: {counts} (baseline found {base_out.count(chr(34) + 'code' + chr(34))} problems)")
        print(f"one git grep per identifier instead ({names:,} identifiers, extrapolated from 10): "
              f"{slow:.0f} s, {slow / max(full - base, 1e-9):.0f}x the one-pass search's extra time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
