"""`rulelens map` on a generated project: how long the map, its JSON and its page take.

Usage: python bench/map_scale.py [--files N] [--rules R] [--globs G]
Writes a project of N files (bench/generate.py's shape) with R Boost rule files holding G globs
and every other agent's files, then times the real CLI writing the page, and in process the
folder map alone, the JSON and the page. The baseline in the same run is `rulelens check` on the
same project (the command CI already runs). Prints figures and ratios only.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import write_agents, write_project
from rulelens.agents.folder_map import build_map
from rulelens.agents.project import AgentProject
from rulelens.report.map_data import map_data
from rulelens.report.map_html import map_html
from rulelens.rules.repository import RuleRepository


def timed(argv: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=200_000)
    ap.add_argument("--rules", type=int, default=200)
    ap.add_argument("--globs", type=int, default=1_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        write_project(root, args.files, args.rules, args.globs)
        write_agents(root, max(1, args.files // 1000))
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
        subprocess.run(["git", "add", "-A"], cwd=root, check=True)
        subprocess.run([sys.executable, "-m", "rulelens", "index"], cwd=root, check=True,
                       stdout=subprocess.DEVNULL)
        page = Path(tmp) / "map.html"
        cli = timed([sys.executable, "-m", "rulelens", "map", "--html", str(page)], root)
        check = timed([sys.executable, "-m", "rulelens", "check", "--drift-after", "0"], root)
        t0 = time.perf_counter()
        m = build_map(AgentProject(RuleRepository(root)))
        t1 = time.perf_counter()
        data = map_data(m)
        t2 = time.perf_counter()
        text = map_html(data)
        t3 = time.perf_counter()
        print(f"project: {args.files:,} files, {len(m.folders):,} folders, {args.rules} rule files, "
              f"{args.globs} globs, {sum(a.files for a in m.agents)} agent rule files")
        print(f"map --html (CLI, whole process): {cli:.2f} s   page {page.stat().st_size / 1e6:.2f} MB")
        print(f"  in process: reading + map {t1 - t0:.2f} s, JSON data {t2 - t1:.3f} s, page {t3 - t2:.3f} s "
              f"({len(text) / 1e6:.2f} MB)")
        print(f"baseline check (CLI): {check:.2f} s   ratio map/check: {cli / check:.2f}")


if __name__ == "__main__":
    main()
