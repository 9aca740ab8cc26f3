"""Before and after a change in one sitting: the benches that compare two code trees, run one
after the other, each printing both trees side by side, with how long each took.

Usage: python bench/before_after.py [--before REV | --before-tree DIR] [--parts P,P,...]
                                    [--corpus DIR] [--checkouts DIR] [--runs N] [--work DIR]
  after: this checkout (the folder this script is in); its `server/` is on PYTHONPATH.
  --before REV (default 237b425): `git archive REV server` unpacked into a temporary folder;
  --before-tree DIR: a folder holding `server/` instead.
  --corpus: a corpus of rules folders and file lists (check_identical.py's CORPUS_DIR); without
  it `identical` is skipped;
  --checkouts: a folder of real repositories (judgements/sets.json's checkouts), the ones with
  Boost's rules cloned for the `check`-beside-agnix rows; without it those rows are generated
  projects only.

Parts (default all, in this order):
  lines      bench/line_count.py: the package's lines per package, before and after
  identical  bench/check_identical.py: `check`'s text and JSON output byte for byte, on the corpus
             and examples/, in git and outside it, with and without the kept answer
  flat       bench/flat_cost.py --no-lsp --against: `check` beside agnix with both trees in one
             rotation (kept answer, in full, one source file edited, no cache) on the checkouts'
             clones and generated projects, after / before per row
  lsp        bench/lsp_latency.py --against: start, didOpen, hover, memory, ratio after / before
  stale      bench/lsp_stale_latency.py --against on bench/check_stale.py's project (built once
             under --work, reused)
With the same code on both sides every ratio should be about 1.0: how far from it they land is
the noise of the sitting. Figures only: nothing asserts on time.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
BENCH = HERE / "bench"
PARTS = ("lines", "identical", "flat", "lsp", "stale")


def unpacked(rev: str, into: Path) -> Path:
    """REV's `server/` as `git archive` gives it, in `into`."""
    archive = subprocess.run(["git", "-C", str(HERE), "archive", rev, "server"], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def boost_clones(checkouts: Path, into: Path) -> Path:
    """Clones (`--shared`: real files and history, objects shared; the originals never written)
    of the checkouts that hold Boost's rules, at their checked-out commits."""
    into.mkdir(parents=True, exist_ok=True)
    for repo in sorted(checkouts.iterdir()):
        target = into / repo.name
        if not (repo / ".ai" / "rules").is_dir() or target.exists():
            continue
        head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        try:
            subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", str(repo), str(target)],
                           check=True, capture_output=True)
            subprocess.run(["git", "-C", str(target), "checkout", "-q", "--detach", head], check=True,
                           capture_output=True)
        except subprocess.CalledProcessError as failed:  # a partial clone lacking objects
            print(f"  {repo.name} left out: {failed.stderr.decode(errors='replace').strip()[:100]}")
            shutil.rmtree(target, ignore_errors=True)
    return into


def stale_project(work: Path) -> Path:
    """bench/check_stale.py's project at the size the README's entries use, built once."""
    root = work / "stale-project"
    if not (root / ".git").is_dir():
        sys.path.insert(0, str(BENCH))
        from check_stale import build

        root.mkdir(parents=True, exist_ok=True)
        build(root, 20_000, 100, 200, 50)
    return root


def run(part: str, cmd: list[str], took: list[tuple[str, str, float]]) -> None:
    shown = " ".join(str(c) for c in cmd)
    print(f"\n## {part}\n\n$ {shown}  (load average {os.getloadavg()[0]:.1f})", flush=True)
    start = time.perf_counter()
    code = subprocess.run(cmd, cwd=HERE, check=False).returncode
    took.append((part, shown, time.perf_counter() - start))
    if code:
        print(f"({part} exited {code})", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", default="237b425", help="a commit of this repository")
    ap.add_argument("--before-tree", type=Path, help="a folder holding server/ (instead of --before)")
    ap.add_argument("--parts", default=",".join(PARTS))
    ap.add_argument("--corpus", type=Path)
    ap.add_argument("--checkouts", type=Path)
    ap.add_argument("--runs", type=int, default=6,
                    help="flat_cost's interleaved runs per figure (a multiple of 6 balances the order)")
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "rulelens-before-after",
                    help="kept between sittings: the checkouts' clones, the staleness project")
    args = ap.parse_args()
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        ap.error(f"unknown part(s) {', '.join(unknown)}; choose from {', '.join(PARTS)}")
    os.environ["PYTHONPATH"] = str(HERE / "server")
    args.work.mkdir(parents=True, exist_ok=True)
    took: list[tuple[str, str, float]] = []
    with tempfile.TemporaryDirectory() as scratch:
        before = args.before_tree.resolve() if args.before_tree else unpacked(args.before, Path(scratch))
        if not (before / "server" / "rulelens").is_dir():
            ap.error(f"{before} holds no server/rulelens")
        label = args.before_tree or args.before
        for tree in (before, HERE):  # as an install leaves them: compiled
            compileall.compile_dir(tree / "server", quiet=1)
        print(f"before: {label} ({before}); after: {HERE}; {os.cpu_count()} cores, "
              f"load average {' / '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
        py = sys.executable
        for part in parts:
            if part == "lines":
                run(part, [py, BENCH / "line_count.py", f"before={before / 'server'}",
                           f"after={HERE / 'server'}"], took)
            elif part == "identical":
                if args.corpus is None or not args.corpus.is_dir():
                    print(f"\n## identical: skipped, no corpus ({args.corpus})")
                    continue
                run(part, [py, BENCH / "check_identical.py", before / "server", HERE / "server",
                           args.corpus, HERE / "examples"], took)
            elif part == "flat":
                clones = ([] if args.checkouts is None or not args.checkouts.is_dir() else
                          ["--corpus", boost_clones(args.checkouts, args.work / "boost-clones")])
                agnix = HERE / ".ci" / "cache" / "bench-venv" / "bin" / "agnix"
                run(part, [py, BENCH / "flat_cost.py", "--no-lsp", "--runs", str(args.runs),
                           "--against", before, *clones,
                           *(["--agnix", agnix] if agnix.exists() else [])], took)
            elif part == "lsp":
                run(part, [py, BENCH / "lsp_latency.py", "--quick", "--no-agents", "--opens", "100",
                           "--repeat", "3", "--against", before], took)
            elif part == "stale":
                start = time.perf_counter()
                project = stale_project(args.work)
                took.append(("stale (its project, built once)", f"check_stale.build into {project}",
                             time.perf_counter() - start))
                run(part, [py, BENCH / "lsp_stale_latency.py", project, "--against", before, "--runs",
                           "3"], took)
    print("\n| part | command | wall |\n|---|---|---:|")
    for part, shown, wall in took:
        print(f"| {part} | `{shown}` | {wall:.0f} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
