"""`rulelens match --agents` with every agent's files present, against the same project with
Boost's files only.

Usage: python bench/agents_match.py [--paths N] [--copies K] [--files F]
Copies the all-agents fixture (tests/agents/fixtures/all_agents), optionally repeating each
agent's rule files K times (the files the registry's agents read there) and adding F
generated project files, and times (1) the real CLI process for N paths at once, (2) the
core's per-path view in process and (3) the CPU time of `check`'s agent findings. Prints
figures and ratios only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import file_paths
from rulelens.agents.project import AgentProject
from rulelens.agents.traps import agent_problems
from rulelens.rules.repository import RuleRepository
from rulelens.workspace.filelist import FileList

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "agents" / "fixtures" / "all_agents"


def agent_files(root: Path) -> list[str]:
    """Every file an agent other than Boost reads in the project, found as the registry's agents
    find them, so that an agent added to the registry is measured without naming it here."""
    project = AgentProject(RuleRepository(root))
    return sorted({f.rel for agent in project.present if agent.id != "boost" for f in agent.files})


def make(dest: Path, boost_only: bool, copies: int, files: int) -> Path:
    shutil.copytree(FIXTURE, dest)
    theirs = agent_files(dest)
    for rel in file_paths(files):
        path = dest / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
    for rel in theirs:
        f = dest / rel
        if boost_only:
            f.unlink()
            continue
        if not rel.startswith("."):  # CLAUDE.md, AGENTS.md: one per folder, not repeated
            continue
        for i in range(1, copies):
            f.with_name(f"{f.stem}-{i}{f.suffix}").write_bytes(f.read_bytes())
    return dest


def project_paths(root: Path) -> list[str]:
    theirs = set(agent_files(root))
    rels = (p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    return sorted(r for r in rels if r not in theirs)


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


def check_cpu(root: Path) -> float:
    """CPU seconds of `check`'s agent findings (reading the agents' files included)."""
    listing = FileList.for_root(root)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    before = usage.ru_utime + usage.ru_stime
    agent_problems(AgentProject(RuleRepository(root), listing))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime - before


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--paths", type=int, default=10)
    parser.add_argument("--copies", type=int, default=1)
    parser.add_argument("--files", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = {}
        for label, boost_only in (("all agents", False), ("Boost only", True)):
            root = make(Path(tmp) / label.replace(" ", "-"), boost_only, args.copies, args.files)
            paths = (project_paths(root) * args.paths)[: args.paths]
            cli = cli_seconds(root, paths)
            build, per = view_seconds(root, paths)
            rows[label] = (cli, cli / len(paths), build, per, max(check_cpu(root), 1e-6))
        print(f"match --agents, {args.paths} paths, agent files x{args.copies}, +{args.files} project files")
        heads = ("CLI total", "CLI/path", "core build", "view/path", "check cpu")
        print(f"{'':12} {heads[0]:>10} {heads[1]:>10} {heads[2]:>11} {heads[3]:>11} {heads[4]:>10}")
        for label, (cli, cli_per, build, per, chk) in rows.items():
            print(f"{label:12} {cli * 1000:8.1f}ms {cli_per * 1000:8.2f}ms {build * 1000:9.2f}ms "
                  f"{per * 1e6:9.1f}us {chk * 1000:8.1f}ms")
        a, b = rows["all agents"], rows["Boost only"]
        r = [x / y for x, y in zip(a, b, strict=True)]
        print(f"{'ratio':12} {r[0]:9.2f}x {r[1]:9.2f}x {r[2]:10.2f}x {r[3]:10.2f}x {r[4]:9.1f}x")


if __name__ == "__main__":
    main()
