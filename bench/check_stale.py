"""What the staleness findings cost `rulelens check` on a generated git project of 200,000 files.

Usage: python bench/check_stale.py [--files N] [--rule-files N] [--commits N] [--runs N]
                                   [--project DIR]
Builds a git work tree (bench/generate.py's layout, with PHP-like text in every file, rule files
that name existing and vanished paths and identifiers, the vanished ones committed and then
deleted so that the history holds their evidence, and a history of commits), then times the
real CLI's `check`, interleaved run by run so that the machine's load hits all alike:
  baseline  check without the staleness findings (their hooks replaced by no-ops)
  cold      check with stale-path, stale-name and rule-drift, the name search's cache removed
            first (a first run, or after `git gc` of a cache-less clone)
  warm      the same with the cache of the run before (a second check; one file edited in
            between, so that the changed file is searched again)
and, for scale, one `git grep` per identifier (what the one-pass search avoids), extrapolated.
`--project DIR` builds the project in DIR once and reuses it on later runs. `--against TREE` also
times another checkout's check (`TREE/server` first on the path, e.g. /work/main: "before").
It prints figures and ratios only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import EXTS, file_paths, glob_for
from rulelens.rules.format.yaml_style import paths_block

GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.com"}

BASELINE = """
import sys
import rulelens.rules.check.lint as check
check.prepare = lambda *a, **k: None  # nor the history's evidence, which prepare reads
check.staleness_problems = lambda *a, **k: []
from rulelens.cli.app import main
sys.exit(main(sys.argv[1:]))
"""


def content(path: str) -> str:
    pkg, mod, name = path.split("/")
    p, m, k = pkg[3:], mod[3:], name[1:].split(".")[0]
    return (f"<?php\n\nnamespace Pkg{p}\\Mod{m};\n\nfinal class Pkg{p}Mod{m}HelperFor{k}\n{{\n"
            f"    public function handle_f{k}(): int\n    {{\n        return $this->total_cents;\n"
            "    }\n}\n")


def rule_body(i: int, rng: random.Random, packages: int, gone: dict[str, str] | None = None) -> str:
    p, m, k = rng.randrange(packages), rng.randrange(50), rng.randrange(20)
    ext = EXTS[k % len(EXTS)]
    lines = [f"## Convention {i}",
             f"Call `Pkg{p}Mod{m}HelperFor{k}` (in `pkg{p}/mod{m}/f{k}.{ext}`) through `handle_f{k}()`, "
             f"from `Pkg{p}\\Mod{m}\\Pkg{p}Mod{m}HelperFor{k}`; amounts are `total_cents`."]
    if i % 10 == 0:
        lines.append(f"The old `LegacyPriceHelper{i}` in pkg{p}/mod{m}/gone{i}.php is gone.")
        if gone is not None:  # committed first and deleted later: the history's evidence
            gone[f"pkg{p}/mod{m}/gone{i}.php"] = f"<?php\n\nfinal class LegacyPriceHelper{i}\n{{\n}}\n"
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
    gone: dict[str, str] = {}
    for i, n in enumerate(per_file):
        chosen = [glob_for(rng, packages) for _ in range(n)]
        text = f"---\n{paths_block(chosen)}---\n\n# Rule {i}\n\n{rule_body(i, rng, packages, gone)}\n"
        (rules / f"rule-{i:04d}.md").write_text(text)
    for rel, text in gone.items():
        (root / rel).write_text(text)
    git = ["git", "-C", str(root)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "start"], check=True, env=GIT_ENV)
    subprocess.run([*git, "rm", "-q", "--", *gone], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "drop the legacy helpers"], check=True, env=GIT_ENV)
    subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "index"], check=True,
                   capture_output=True)
    for c in range(commits):
        pkg = c % 5  # the first packages churn, so that their rule files drift
        for j in range(20):
            path = root / paths[pkg * 1000 + (c * 20 + j) % 1000]
            path.write_text(path.read_text() + f"// change {c}\n")
        subprocess.run([*git, "commit", "-q", "-a", "-m", f"change {c}"], check=True, env=GIT_ENV)


def timed(cmd: list[str], before: Callable[[], None] = lambda: None,
          env: dict[str, str] | None = None) -> tuple[float, str]:
    before()
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env).stdout
    return time.perf_counter() - t0, out


def drop_cache(root: Path) -> None:
    where = subprocess.run(["git", "-C", str(root), "rev-parse", "--path-format=absolute", "--git-path",
                            "rulelens"], capture_output=True, text=True, check=True).stdout.strip()
    shutil.rmtree(where, ignore_errors=True)


def touch_one(root: Path, n: int) -> None:
    """Edit one source file (unstaged), as between two checks of a working session."""
    path = root / "pkg1" / "mod1" / "f1.ts"
    path.write_text(path.read_text() + f"// edit {n}\n")


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
    ap.add_argument("--project", type=Path, help="build the project here once, and reuse it")
    ap.add_argument("--against", type=Path, help="another checkout whose check to time too")
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load average "
          f"{os.getloadavg()[0]:.1f}", flush=True)
    with tempfile.TemporaryDirectory() as scratch:
        root = args.project or Path(scratch) / "project"
        if not (root / ".git").is_dir():
            t0 = time.perf_counter()
            root.mkdir(parents=True, exist_ok=True)
            build(root, args.files, args.rule_files, args.globs, args.commits)
            print(f"built {args.files:,} files, {args.rule_files:,} rule files, {args.commits} commits "
                  f"in {time.perf_counter() - t0:.0f} s", flush=True)
        cli = ["--root", str(root), "check", "--json"]
        walls: dict[str, list[float]] = {"baseline": [], "cold": [], "warm": [], "against": []}
        outs: dict[str, str] = {}
        other = {**os.environ, "PYTHONPATH": str(args.against.resolve() / "server")} if args.against else None
        for n in range(args.runs):
            for name, cmd, before, env in (
                    ("baseline", [sys.executable, "-c", BASELINE, *cli], lambda: None, None),
                    ("against", [sys.executable, "-m", "rulelens", *cli], lambda: drop_cache(root), other),
                    ("cold", [sys.executable, "-m", "rulelens", *cli], lambda: drop_cache(root), None),
                    ("warm", [sys.executable, "-m", "rulelens", *cli], lambda n=n: touch_one(root, n), None)):
                if name == "against" and other is None:
                    continue
                wall, outs[name] = timed(cmd, before, env)
                walls[name].append(wall)
        base, cold, warm = (statistics.median(walls[k]) for k in ("baseline", "cold", "warm"))
        full_out = outs["warm"]
        assert outs["cold"] == outs["warm"], "the cached search must find what the full one finds"
        counts = {code: full_out.count(f'"code": "{code}"')
                  for code in ("stale-path", "stale-name", "rule-drift", "glob-matches-nothing")}
        names = sum(1 for _ in root.joinpath(".ai/rules").glob("rule-*.md")) * 4
        slow = per_name_grep(root, 10, names)
        print(f"load average after: {os.getloadavg()[0]:.1f}; runs: {args.runs}, interleaved")
        print("| check | median wall s | vs baseline |")
        print("| --- | ---: | ---: |")
        print(f"| baseline (no staleness) | {base:.2f} | 1.00x |")
        print(f"| with staleness, cold (no cache) | {cold:.2f} | {cold / base:.2f}x |")
        print(f"| with staleness, warm (cache of the run before) | {warm:.2f} | {warm / base:.2f}x |")
        if walls["against"]:
            before = statistics.median(walls["against"])
            print(f"| {args.against}'s check with staleness | {before:.2f} | {before / base:.2f}x |")
        print(f"findings: {counts} (baseline found {outs['baseline'].count(chr(34) + 'code' + chr(34))} "
              "problems)")
        print(f"one git grep per identifier instead ({names:,} identifiers, extrapolated from 10): "
              f"{slow:.0f} s, {slow / max(cold - base, 1e-9):.0f}x the one-pass search's extra time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
