"""`rulelens review`: prints what rules.review found, in the chosen format."""

from __future__ import annotations

import json
from collections.abc import Callable

from rulelens.rules.model import Match
from rulelens.rules.repository import RuleRepository
from rulelens.rules.review import Review, review, review_annotations, review_markdown, review_text


def review_json(result: Review, rule_json: Callable[[Match], dict[str, object]]) -> list[dict[str, object]]:
    """One object per changed path, shaped as `match --json` objects, plus how the path changed."""
    out: list[dict[str, object]] = []
    for change in result.changes:
        obj: dict[str, object] = {"path": change.path, "status": change.status}
        if change.old is not None:
            obj["from"] = change.old
        obj["rules"] = [rule_json(m) for m in result.matches.get(change.path, [])]
        obj["rule_file"] = change in result.touched
        obj["now_match_nothing"] = [{"file": e.file, "line": e.line + 1, "glob": e.glob}
                                    for e in result.emptied_by(change)]
        out.append(obj)
    return out


def run_review(repo: RuleRepository, base: str, fmt: str,
               rule_json: Callable[[Match], dict[str, object]]) -> int:
    result = review(repo, base)
    if fmt == "json":
        print(json.dumps(review_json(result, rule_json), indent=2, ensure_ascii=False))
    elif fmt == "markdown":
        print(review_markdown(result))
    elif fmt == "github":
        for line in review_annotations(result):
            print(line)
    else:
        print(review_text(result))
    return 0
