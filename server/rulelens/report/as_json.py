"""The JSON shapes of `match`, `match --agents`, `check` and `review` (docs/cli.md).

Named `as_json` so that `import json` inside this package is still the standard library's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rulelens.report.words import is_cut
from rulelens.rules.model import Match, Problem
from rulelens.rules.path_rules import FileRules, FolderRules

if TYPE_CHECKING:
    from rulelens.agents.observed import AgentSeen
    from rulelens.agents.project import PathView
    from rulelens.rules.review import Review


def dumps(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)


def rule(m: Match) -> dict[str, object]:
    return {
        "file": m.rule.rel,
        "title": m.rule.heading,
        "globs": m.globs,
        "matched": m.matched,
        "agents_see": m.agents_see,
        "agents_miss_because": m.agents_miss_because,
        "cut": is_cut(m.rule),
        "entries": [{"title": e.title, "line": e.line + 1} for e in m.rule.entries],
    }


def path_rules(result: FileRules | FolderRules, view: PathView | None = None,
               seen: Mapping[str, AgentSeen] | None = None) -> dict[str, object]:
    """One element of `match --json`'s array; with `view`, what each agent loads (a file only),
    and with `seen`, what real sessions showed of it (`agents_observed`, by agent id)."""
    if isinstance(result, FolderRules):
        return {"path": result.path, "folder": True, "files": result.files,
                "rules": [{**rule(m), "files": n} for m, n in result.pairs]}
    item: dict[str, object] = {"path": result.path, "rules": [rule(m) for m in result.matches]}
    if view is not None:
        item.update(agent_loads(view))
    if seen:
        item["agents_observed"] = {a: x.to_json() for a, x in seen.items()}
    return item


def agent_loads(view: PathView) -> dict[str, object]:
    """What each agent loads for one file: `match --agents --json`, `review --agents --json`."""
    item: dict[str, object] = {
        "on": view.on,
        "agents": {a: [x.to_json() for x in loads] for a, loads in view.loads.items()},
        "agents_maybe": {a: [x.to_json() for x in m] for a, m in view.maybe.items()},
    }
    if view.over_budget:
        item["agents_over_budget"] = dict(view.over_budget)
    if view.probably:
        item["agents_probably"] = list(view.probably)
    if view.same_text:
        item["agents_same_text"] = {a: [{"file": f, "same_as": first} for f, first in pairs]
                                    for a, pairs in view.same_text.items()}
    if view.confirmed_in:
        item["agents_confirmed_in"] = dict(view.confirmed_in)
    if view.matcher_confirmed_in:
        item["agents_matcher_confirmed_in"] = dict(view.matcher_confirmed_in)
    if view.moment_notes:
        item["agents_moment_notes"] = dict(view.moment_notes)
    return item


def problems(found: Sequence[Problem]) -> list[dict[str, object]]:
    return [p.to_json() for p in found]


def review(result: Review, views: Mapping[str, PathView] | None = None) -> list[dict[str, object]]:
    """One object per changed path, shaped as `match --json` objects, plus how the path changed;
    with `views` (`--agents`), what each agent loads for it."""
    out: list[dict[str, object]] = []
    for change in result.changes:
        obj: dict[str, object] = {"path": change.path, "status": change.status}
        if change.old is not None:
            obj["from"] = change.old
        obj["rules"] = [rule(m) for m in result.matches.get(change.path, [])]
        obj["rule_file"] = change in result.touched
        obj["now_match_nothing"] = [{"file": e.file, "line": e.line + 1, "glob": e.glob}
                                    for e in result.emptied_by(change)]
        if views is not None and change.path in views:
            obj.update(agent_loads(views[change.path]))
        out.append(obj)
    return out
