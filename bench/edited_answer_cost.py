"""What cli/edited_answer.py saves: `check` after a source file's edit, with the kept answer
checked against a search of the edited file, and without (the same rulelens with
`edited_answer.answer` answering None, so that every edit is a run in full, as it would be
without the module).

Usage: python bench/edited_answer_cost.py [--runs N] [--corpus DIR] [--generated N ...]
  (DIR: a folder of repositories, each with rules/ and files.txt; each is made into a git
  repository with every listed file, empty; --generated: generated git projects of N files)

Before each run one source file (the middle one git lists, outside the rules and the agents'
files) gets a line appended; the two variants alternate (ABBA). Prints per project the median
wall time of each and their ratio.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from check_identical import committed, from_corpus

WITHOUT = ("import sys; from rulelens.cli import edited_answer, main; "
           "edited_answer.answer = lambda *args: None; sys.exit(main())")


def projects(base: Path, corpus: Path | None, sizes: list[int]) -> list[tuple[str, Path]]:
    """The corpus's projects (committed, as a real checkout is) and generated ones, under `base`."""
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


def source_file(root: Path) -> Path:
    out = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True, check=True)
    paths = [p for p in out.stdout.decode().split("\0")
             if p and not p.startswith(".") and "/." not in p and not p.endswith(".md")]
    return root / paths[len(paths) // 2]


def timed(cmd: list[str], root: Path) -> float:
    env = {**os.environ, "RULELENS_TEST_RACY_NS": "0"}
    env.pop("RULELENS_NO_CACHE", None)
    start = time.perf_counter()
    subprocess.run(cmd, cwd=root, env=env, capture_output=True, check=False)
    return time.perf_counter() - start


def measure(name: str, root: Path, runs: int) -> None:
    subprocess.run(["git", "-C", str(root), "update-index", "-q", "--refresh"], capture_output=True,
                   check=False)
    with_it = [sys.executable, "-m", "rulelens", "check", "-q"]
    without = [sys.executable, "-c", WITHOUT, "check", "-q"]
    target = source_file(root)
    original = target.read_bytes()
    timed(with_it, root)  # every cache warm, an answer kept
    times: dict[str, list[float]] = {"with": [], "without": []}
    try:
        for n in range(runs):
            order = [("with", with_it), ("without", without)]
            for label, cmd in order if n % 2 == 0 else order[::-1]:
                target.write_bytes(original + f"\n// edit {n} {label}\n".encode())
                times[label].append(timed(cmd, root))
    finally:
        target.write_bytes(original)
    a, b = statistics.median(times["with"]), statistics.median(times["without"])
    files = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True,
                           check=True).stdout.count("\n")
    print(f"| {name} | {files:,} | {a:.3f} s | {b:.3f} s | {a / b:.2f}x |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--generated", type=int, nargs="*", default=[])
    args = parser.parse_args()
    import rulelens  # the checkout on PYTHONPATH, compiled as an install leaves it

    compileall.compile_dir(os.path.dirname(rulelens.__file__), quiet=1)
    print("| project | files | with edited_answer | without (in full) | with / without |")
    print("|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        for name, root in projects(base, args.corpus, args.generated):
            measure(name, root, args.runs)
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
