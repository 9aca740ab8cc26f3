"""Does `rulelens verify` report what the end-to-end harness saw? On a sample of the
repositories of bench/e2e/repos.json, `rulelens verify PATH... --agent ID=BINARY... --json` (the
real command, a child process, with the pinned releases) is run on each repository's read
paths, and each case is set beside the harness's kept observation of the same agent release,
repository commit, path and moment (bench/agents_e2e.py's --cache). Two agreements are
printed per agent: the files and moments the agent sent (verify's observation against the
harness's), and the verdict (verify's "equal to the prediction" against the harness's
observation compared with the same prediction). Prints; asserts nothing.

    PYTHONPATH=server python bench/verify_vs_harness.py [--sample 8] [--only OWNER/NAME]
        [--agents claude-code,copilot-cli,...] [--cache /work/e2e-cache]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from rulelens.agent_runs.compare import compare, predict  # noqa: E402
from rulelens.agent_runs.model import Observation  # noqa: E402
from rulelens.agents.project import AgentProject  # noqa: E402
from rulelens.rules.repository import RuleRepository  # noqa: E402
from verify_cost import NODE, PINNED, RELEASED  # noqa: E402


def cache_file(cache: Path, agent: str, release: str, repo: str, commit: str, moment: str, path: str) -> Path:
    """Where bench/agents_e2e.py keeps an observation (its cache_file, by value)."""
    name = hashlib.blake2b(path.encode(), digest_size=8).hexdigest()
    return cache / agent / release / repo.replace("/", "+") / (commit or "nocommit") / moment / f"{name}.json"


def sample(entries: list[dict[str, Any]], size: int, only: set[str]) -> list[dict[str, Any]]:
    """`size` repositories in a fixed order that does not follow the list's (SHA-256 of the name)."""
    if only:
        return [e for e in entries if e["repo"] in only]
    return sorted(entries, key=lambda e: hashlib.sha256(e["repo"].encode()).hexdigest())[:size]


def checkout_of(entry: dict[str, Any]) -> Path:
    return Path(entry.get("checkout") or f"/work/repos/{entry['repo'].replace('/', '+')}")


def head(checkout: Path) -> str:
    done = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip()


def read_paths(entry: dict[str, Any], checkout: Path) -> list[str]:
    out = []
    for item in entry.get("paths") or []:
        path = item if isinstance(item, str) else item["path"]
        moment = None if isinstance(item, str) else (item.get("moment") or item.get("on"))
        if (moment or "read") == "read" and (checkout / path).is_file():
            out.append(path)
    return out


def verify_json(checkout: Path, paths: list[str], agents: list[str], timeout: float) -> dict[str, Any]:
    argv = [sys.executable, "-m", "rulelens", "verify", *paths, "--on", "read", "--json",
            "--timeout", str(timeout)]
    for agent in agents:
        argv += ["--agent", f"{agent}={RELEASED / PINNED[agent]}"]
    env = {**os.environ, "PYTHONPATH": str(HERE.parent / "server")}
    if NODE.is_dir():
        env["PATH"] = f"{NODE}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(argv, cwd=checkout, env=env, capture_output=True, text=True, timeout=3600)
    try:
        return dict(json.loads(done.stdout))
    except ValueError:
        why = f"verify on {checkout} gave no JSON (exit {done.returncode}):\n{done.stderr[-2000:]}"
        raise SystemExit(why) from None


def files_of(seen: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return sorted((s["file"], s["arrived"]) for s in seen)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repos", type=Path, default=HERE / "e2e/repos.json")
    parser.add_argument("--cache", type=Path, default=Path("/work/e2e-cache"))
    parser.add_argument("--sample", type=int, default=8)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--agents", default=",".join(PINNED))
    parser.add_argument("--timeout", type=float, default=180)
    args = parser.parse_args()
    entries: list[dict[str, Any]] = json.loads(args.repos.read_text())
    agents = [a for a in args.agents.split(",") if (RELEASED / PINNED[a]).exists()]
    tally: dict[str, dict[str, int]] = {a: {"cases": 0, "kept": 0, "files": 0, "verdict": 0, "errors": 0}
                                        for a in agents}
    differences: list[str] = []
    began = time.monotonic()
    print(f"load average at the start {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for entry in sample(entries, args.sample, set(args.only)):
        checkout = checkout_of(entry)
        if not checkout.is_dir():
            print(f"# {entry['repo']}: no checkout, left out")
            continue
        if entry.get("commit") and head(checkout) != entry["commit"]:
            print(f"# {entry['repo']}: the checkout is not at {entry['commit'][:12]}, left out")
            continue
        paths = read_paths(entry, checkout)
        if not paths:
            continue
        started = time.monotonic()
        data = verify_json(checkout, paths, agents, args.timeout)
        project = AgentProject(RuleRepository(checkout, writable=False))
        print(f"# {entry['repo']}: {len(paths)} paths, {len(data['cases'])} runs, exit {data['exit']}, "
              f"{time.monotonic() - started:.1f} s")
        for case in data["cases"]:
            agent, path = case["agent"], case["path"]
            t = tally[agent]
            t["cases"] += 1
            if case["error"]:
                t["errors"] += 1
                differences.append(f"  {agent} {entry['repo']} {path}: verify's run failed: "
                                   f"{case['error'][:200]}")
                continue
            kept = cache_file(args.cache, agent, case["version"], entry["repo"], entry.get("commit", ""),
                              "read", path)
            if not kept.exists():
                continue
            harness = Observation.from_json(json.loads(kept.read_text()))
            if harness.error is not None:
                continue
            t["kept"] += 1
            theirs = sorted((s.file, s.arrived) for s in harness.files)
            ours = files_of(case["sent"])
            if ours == theirs:
                t["files"] += 1
            else:
                differences.append(f"  {agent} {entry['repo']} {path}: verify sent {ours}, harness {theirs}")
            verdict = compare(harness, predict(checkout, agent, path, "read", project), checkout).agree
            if verdict == case["agree"]:
                t["verdict"] += 1
            else:
                differences.append(f"  {agent} {entry['repo']} {path}: verify says "
                                   f"{'equal' if case['agree'] else 'differs'}, the harness's observation "
                                   f"{'equal' if verdict else 'differs'}")
    print("\n| agent | verify runs | with a harness observation | same files and moments | same verdict | "
          "verify failed |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for agent, t in tally.items():
        kept = t["kept"] or 1
        print(f"| {agent} | {t['cases']} | {t['kept']} | {t['files']} ({100 * t['files'] / kept:.0f}%) | "
              f"{t['verdict']} ({100 * t['verdict'] / kept:.0f}%) | {t['errors']} |")
    if differences:
        print("\ndifferences:")
        print("\n".join(differences))
    print(f"\n{time.monotonic() - began:.0f} s; load average at the end "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
