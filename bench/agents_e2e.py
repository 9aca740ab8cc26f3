"""End-to-end agreement on real repositories: each agent's released binary run headless and
offline (server/rulelens/agent_runs) on the paths `bench/e2e/repos.json` lists, beside
rulelens's prediction from whatever rulelens is on PYTHONPATH. Prints, per agent, a table
"cases / agree / rate" and every difference (repository, path, moment, files only the agent
sent, files only rulelens lists). Asserts nothing.

    PYTHONPATH=server python bench/agents_e2e.py [--agents claude-code,copilot-cli]
        [--repos bench/e2e/repos.json] [--cache /work/e2e-cache] [--workers 2] [--only OWNER/NAME]
        [--binary AGENT=PATH] [--moments read,create] [--json OUT] [--cached-only]
        [--edit-first]

repos.json is a list of {"repo", "commit", "checkout", "paths", "create", "set"}; each path is
a string (read when the file exists, created when it does not) or {"path", "moment"}, and
"create" one more path to create; `--edit-first` adds an edit of each repository's first
path that exists (repos.json lists none). Observations are
kept per (agent version, repository commit, path, moment) under --cache (outside the
repository), so a second run asks the agents only about what changed; the predictions are
always computed afresh.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tests.conformance.e2e.support import BINARIES, with_node_on_path  # noqa: E402
from tests.conformance.harness import HERE as RELEASED  # noqa: E402

from rulelens.agent_runs.compare import Comparison, compare, predict  # noqa: E402
from rulelens.agent_runs.model import Moment, Observation  # noqa: E402
from rulelens.agent_runs.runner import run, version  # noqa: E402
from rulelens.agent_runs.scratch import Scratch  # noqa: E402
from rulelens.agents.project import AgentProject  # noqa: E402
from rulelens.rules.repository import RuleRepository  # noqa: E402


@dataclass(frozen=True)
class Case:
    repo: str
    commit: str
    checkout: Path
    path: str
    moment: Moment


def cases(entries: list[dict[str, Any]], moments: set[str], only: set[str],
          edit_first: bool = False) -> list[Case]:
    out: list[Case] = []
    for entry in entries:
        if only and entry["repo"] not in only:
            continue
        checkout = Path(entry.get("checkout") or f"/work/repos/{entry['repo'].replace('/', '+')}")
        if not checkout.is_dir():
            print(f"# {entry['repo']}: no checkout at {checkout}, left out", file=sys.stderr)
            continue
        items: list[Any] = list(entry.get("paths") or [])
        if entry.get("create"):
            items.append({"path": entry["create"], "moment": "create"})
        if edit_first:
            first = next((p for p in (i if isinstance(i, str) else i["path"] for i in items)
                          if (checkout / p).is_file()), None)
            if first is not None:
                items.append({"path": first, "moment": "edit"})
        for item in items:
            path = item if isinstance(item, str) else item["path"]
            moment = (item.get("moment") or item.get("on")) if isinstance(item, dict) else None
            if moment is None:
                moment = "read" if (checkout / path).is_file() else "create"
            if moment in moments:
                out.append(Case(entry["repo"], entry.get("commit", ""), checkout, path, moment))  # type: ignore[arg-type]
    return out


def cache_file(cache: Path, agent: str, release: str, case: Case) -> Path:
    name = hashlib.blake2b(case.path.encode(), digest_size=8).hexdigest()
    return (cache / agent / release / case.repo.replace("/", "+") / (case.commit or "nocommit")
            / case.moment / f"{name}.json")


class Templates:
    """One scratch copy per repository, made once and copied per run; removed at the end."""

    def __init__(self) -> None:
        self.made: dict[Path, Scratch] = {}
        self.lock = threading.Lock()
        self.locks: dict[Path, threading.Lock] = {}
        self.left: dict[Path, int] = {}

    def of(self, checkout: Path) -> Path:
        with self.lock:
            lock = self.locks.setdefault(checkout, threading.Lock())
        with lock:
            if checkout not in self.made:
                self.made[checkout] = Scratch(checkout)
            return self.made[checkout].root

    def expect(self, todo: list[Case]) -> None:
        """How many runs each repository's copy serves, so it goes after its last one."""
        self.left = {}
        for case in todo:
            self.left[case.checkout] = self.left.get(case.checkout, 0) + 1

    def done(self, checkout: Path) -> None:
        with self.lock:
            self.left[checkout] -= 1
            scratch = self.made.pop(checkout, None) if self.left[checkout] == 0 else None
        if scratch is not None:
            scratch.remove()

    def remove(self) -> None:
        for scratch in self.made.values():
            scratch.remove()
        self.made.clear()


def observe(agent: str, binary: Path, case: Case, cache: Path, templates: Templates,
            timeout: float) -> tuple[Observation, bool]:
    """The case's observation, from the cache or from a run (then kept unless it failed)."""
    release = version(agent, binary)
    kept = cache_file(cache, agent, release, case)
    if kept.exists():
        return Observation.from_json(json.loads(kept.read_text())), True
    observed = run(agent, binary, case.checkout, case.path, case.moment, timeout, templates.of(case.checkout))
    if observed.error is None:
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text(json.dumps(observed.to_json(), indent=1))
    return observed, False




def table(agent: str, release: str, results: list[tuple[Case, Comparison]],
          seconds: list[float]) -> Iterator[str]:
    agree = sum(1 for _, c in results if c.agree)
    failed = [(case, c) for case, c in results if c.observation.error is not None]
    rate = 100 * agree / len(results) if results else 0.0
    yield f"\n== {agent} {release}: end to end on real repositories"
    yield "| agent | cases | agree | rate | failed runs | s per run (median) |"
    yield "| --- | ---: | ---: | ---: | ---: | ---: |"
    median = sorted(seconds)[len(seconds) // 2] if seconds else 0.0
    yield f"| {agent} {release} | {len(results)} | {agree} | {rate:.1f}% | {len(failed)} | {median:.1f} |"
    for case, c in results:
        if c.agree:
            continue
        if c.observation.error is not None:
            yield f"  failed: {case.repo} {case.path} ({case.moment}): {c.observation.error[:300]}"
            continue
        agent_only = ", ".join(f"{s.file} [{s.arrived}]" for s in c.only_agent) or "-"
        ours_only = ", ".join(f"{s.file} [{s.arrived}]" for s in c.only_rulelens) or "-"
        yield (f"  differs: {case.repo} {case.path} ({case.moment}): only {agent}: {agent_only}; "
               f"only rulelens: {ours_only}")


def interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", default="claude-code,copilot-cli")
    parser.add_argument("--repos", type=Path, default=HERE / "e2e/repos.json")
    parser.add_argument("--cache", type=Path, default=Path("/work/e2e-cache"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=180)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--binary", action="append", default=[], help="AGENT=PATH (default: the pinned one)")
    parser.add_argument("--moments", default="read,edit,create")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--edit-first", action="store_true",
                        help="also edit each repository's first path that exists")
    parser.add_argument("--cached-only", action="store_true",
                        help="the table over the cases already observed; no agent is run")
    args = parser.parse_args()
    # A kill is an interrupt: the copies and the agents' groups are ended on the way out.
    signal.signal(signal.SIGTERM, interrupted)
    with_node_on_path()
    entries: list[dict[str, Any]] = json.loads(args.repos.read_text())
    every = cases(entries, set(args.moments.split(",")), set(args.only), args.edit_first)
    binaries = {a: RELEASED / p for a, p in BINARIES.items()}
    binaries.update({k: Path(v) for k, v in (b.split("=", 1) for b in args.binary)})
    templates = Templates()
    projects: dict[Path, AgentProject] = {}
    lock = threading.Lock()
    out: dict[str, Any] = {}
    try:
        for agent in args.agents.split(","):
            binary = binaries[agent]
            release = version(agent, binary)
            if args.cached_only:
                todo = [c for c in every if cache_file(args.cache, agent, release, c).exists()]
            else:
                todo = every
            results: list[tuple[Case, Comparison]] = []
            seconds: list[float] = []

            def one(case: Case, agent: str = agent, binary: Path = binary) -> tuple[Case, Observation, bool]:
                try:
                    observed, cached = observe(agent, binary, case, args.cache, templates, args.timeout)
                finally:
                    templates.done(case.checkout)
                return case, observed, cached

            began = time.monotonic()
            templates.expect(todo)
            pool = ThreadPoolExecutor(max_workers=max(1, min(2, args.workers)))
            try:
                for n, (case, observed, cached) in enumerate(pool.map(one, todo), 1):
                    with lock:
                        if case.checkout not in projects:
                            repository = RuleRepository(case.checkout, writable=False)
                            projects[case.checkout] = AgentProject(repository)
                    project = projects[case.checkout]
                    predicted = predict(case.checkout, agent, case.path, case.moment, project)
                    results.append((case, compare(observed, predicted, case.checkout)))
                    if not cached:
                        seconds.append(observed.seconds)
                    took = "cached" if cached else f"{observed.seconds:.1f} s"
                    print(f"# {agent} {n}/{len(todo)} {case.repo} {case.path} ({case.moment}) {took}",
                          file=sys.stderr, flush=True)
            finally:
                # On an interrupt the queued runs are dropped; the ones running end by themselves.
                pool.shutdown(wait=True, cancel_futures=True)
            print("\n".join(table(agent, release, results, seconds)))
            print(f"  ({len(seconds)} runs in {time.monotonic() - began:.0f} s, "
                  f"{len(results) - len(seconds)} cached)")
            out[agent] = {"version": release, "cases": [
                {"repo": case.repo, "commit": case.commit, **c.to_json()} for case, c in results]}
    finally:
        templates.remove()
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
