"""`rulelens match --agents`: every agent's view of each path, after the rules as today.

It wraps the plain `match` output rather than rebuilding it, so the `rules` part stays exactly
what `match` prints without `--agents`.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable

from rulelens.agents.facts import PROBABLY_NOTE
from rulelens.agents.project import AgentProject, PathView
from rulelens.rules.repository import RuleRepository

MatchFn = Callable[[RuleRepository, list[str], bool], int]


def match_with_agents(repo: RuleRepository, paths: list[str], as_json: bool, match: MatchFn) -> int:
    """`match`'s own output with each file's agents added; folders and bad paths as `match` has them."""
    project = AgentProject(repo)
    if as_json:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = match(repo, paths, True)
        items = json.loads(out.getvalue() or "[]")
        for item in items:
            if item.get("folder"):
                continue
            view = project.view(str(item["path"]))
            item["agents"] = {a: [x.to_json() for x in loads] for a, loads in view.loads.items()}
            item["agents_maybe"] = {a: [x.to_json() for x in m] for a, m in view.maybe.items()}
            if view.over_budget:
                item["agents_over_budget"] = dict(view.over_budget)
            probably = [a.id for a in project.present if not a.confirmed]
            if probably:  # agents whose answer rests on a claim neither code nor docs confirm
                item["agents_probably"] = probably
        print(json.dumps(items, indent=2, ensure_ascii=False))
        return code
    code = 0
    for i, raw in enumerate(paths):
        probe = io.StringIO()
        with contextlib.redirect_stdout(probe), contextlib.redirect_stderr(io.StringIO()):
            ok = match(repo, [raw], True) == 0
        if i:
            print()
        code = max(code, match(repo, [raw], False))
        [item] = json.loads(probe.getvalue()) if ok else [{}]
        if ok and not item.get("folder"):
            print_agents(project, project.view(str(item["path"])))
    return code


def print_agents(project: AgentProject, view: PathView) -> None:
    if not project.present:
        print("\n  No agent's rule files in this project.")
        return
    print(f"\n  What each agent loads for {view.path}:")
    for agent in project.present:
        loads = view.loads.get(agent.id, [])
        total = view.bytes_of(agent.id)
        note = "" if agent.confirmed else f"  ({PROBABLY_NOTE})"
        count = "1 file" if len(loads) == 1 else f"{len(loads)} files"
        print(f"\n  {agent.id}: {count}, {total:,} bytes{note}")
        for load in loads:
            why = f"  by {', '.join(load.patterns)}" if load.patterns else ""
            print(f"    {load.how:<9} {load.file}  {load.bytes:,} B{why}")
        for m in view.maybe.get(agent.id, []):
            how = "the model decides" if m.how == "agent-decides" else "only when asked for"
            print(f"    maybe     {m.file}  ({how})")
        if agent.id in view.over_budget:
            print(f"    ! over budget: {view.over_budget[agent.id]}")
