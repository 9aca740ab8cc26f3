"""`rulelens match --agents` with every agent's files present, against the same project with
Boost's files only.

Usage: python bench/agents_match.py [--paths N] [--copies K]
Copies the nine-agent fixture (tests/agents/fixtures/all_agents), optionally repeating each
agent's rule files K times, and times (1) the real CLI process for N paths at once and (2) the
core's per-path view in process. Prints figures and ratios only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rulelens.rules.agents import AgentProject
from rulelens.rules.repository import RuleRepository

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "agents" / "fixtures" / "all_agents"
AGENT_DIRS = (".claude", ".github", ".cursor", ".windsurf", ".devin", ".kiro", ".continue", ".clinerules")
AGENT_FILES = ("CLAUDE.md", "AGENTS.md")


def make(dest: Path, boost_only: bool, copies: int) -> Path:
    shutil.copytree(FIXTURE, dest)
    for folder in AGENT_DIRS:
        base = dest / folder
        if boost_only:
            shutil.rmtree(base, ignore_errors=True)
            continue
        for f in sorted(base.rglob("*")) if base.is_dir() else []:
            for i in range(1, copies):
                if f.is_file():
                    f.with_name(f"{f.stem}-{i}{f.suffix}").write_bytes(f.read_bytes())
    if boost_only:
        for name in AGENT_FILES:
            for f in dest.rglob(name):
                f.unlink()
        for f in dest.rglob("AGENTS.override.md"):
            f.unlink()
    return dest


def project_paths(root: Path) -> list[str]:
    skip = tuple(d + "/" for d in AGENT_DIRS)
    rels = (p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    return sorted(r for r in rels if not r.startswith(skip))


def cli_seconds(root: Path, paths: list[str], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        command = [sys.executable, "-m", "rulelens", "--root", str(root), "match", "--agents", "--json",
                   *paths]
        subprocess.run(command, capture_output=True, check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def view_seconds(root: Path, paths: list[str]) -> tuple[float, float]:
    t0 = time.perf_counter()
    project = AgentProject(RuleRepository(root))
    build = time.perf_counter() - t0
    per = []
    for path in paths:
        t1 = time.perf_counter()
        project.view(path)
        per.append(time.perf_counter() - t1)
    return build, statistics.median(per)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--paths", type=int, default=10)
    parser.add_argument("--copies", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = {}
        for label, boost_only in (("all agents", False), ("Boost only", True)):
            root = make(Path(tmp) / label.replace(" ", "-"), boost_only, args.copies)
            paths = (project_paths(root) * args.paths)[: args.paths]
            cli = cli_seconds(root, paths)
            build, per = view_seconds(root, paths)
            rows[label] = (cli, cli / len(paths), build, per)
        print(f"match --agents, {args.paths} paths, agent files x{args.copies}")
        print(f"{'':12} {'CLI total':>10} {'CLI/path':>10} {'core build':>11} {'view/path':>11}")
        for label, (cli, cli_per, build, per) in rows.items():
            print(f"{label:12} {cli * 1000:8.1f}ms {cli_per * 1000:8.2f}ms {build * 1000:9.2f}ms "
                  f"{per * 1e6:9.1f}us")
        a, b = rows["all agents"], rows["Boost only"]
        ratios = [x / y for x, y in zip(a, b, strict=True)]
        print(f"{'ratio':12} {ratios[0]:9.2f}x {ratios[1]:9.2f}x {ratios[2]:10.2f}x {ratios[3]:10.2f}x")


if __name__ == "__main__":
    main()
