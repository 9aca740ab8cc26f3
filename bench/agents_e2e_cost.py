"""What one end-to-end run costs per agent: each pinned binary (tests/conformance) run
--repeat times per moment on issue 42's minimal project, the median and the slowest in seconds
(the scratch copy, the agent's start, its two model calls, the end). Issue 43 wants at most
10 s per agent and path on a 2-core machine; this prints, it asserts nothing.

    PYTHONPATH=server python bench/agents_e2e_cost.py [--repeat 3] [AGENT ...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.conformance.e2e.cases import MINIMAL
from tests.conformance.e2e.support import BINARIES, with_node_on_path
from tests.conformance.harness import HERE as RELEASED
from tests.conformance.harness import write_project

from rulelens.agent_runs.runner import run

# Each agent's own root file, holding the minimal case's CLAUDE.md text.
OWN = {"claude-code": "CLAUDE.md", "copilot-cli": "CLAUDE.md", "codex": "AGENTS.md",
       "gemini-cli": "GEMINI.md", "qwen-code": "QWEN.md"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("agents", nargs="*", default=list(BINARIES))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with_node_on_path()
    print("| agent | release | moment | runs | median s | slowest s | failed |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    for agent in args.agents:
        binary = RELEASED / BINARIES[agent]
        if not binary.exists():
            print(f"| {agent} | not installed | | | | | |")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            root = write_project(Path(tmp) / "p", {**MINIMAL, OWN[agent]: MINIMAL["CLAUDE.md"]})
            for moment, path in (("read", "src/a.ts"), ("edit", "src/a.ts"), ("create", "src/sub/new.ts")):
                runs = [run(agent, binary, root, path, moment, timeout=300) for _ in range(args.repeat)]  # type: ignore[arg-type]
                seconds = [r.seconds for r in runs]
                failed = sum(r.error is not None for r in runs)
                print(f"| {agent} | {runs[0].version} | {moment} | {len(runs)} | "
                      f"{statistics.median(seconds):.1f} | {max(seconds):.1f} | {failed} |", flush=True)


if __name__ == "__main__":
    main()
