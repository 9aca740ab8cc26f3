"""`check --format sarif`: the findings as a SARIF 2.1.0 log (GitHub code scanning reads it)."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import quote

from rulelens import __version__
from rulelens.agents.codes import code_words
from rulelens.rules.check.codes import CODES
from rulelens.rules.model import Problem

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def _rule(code: str) -> dict[str, object]:
    info = code_words(code)
    return {
        "id": code,
        "name": "".join(part.capitalize() for part in code.split("-")),
        "shortDescription": {"text": info.summary},
        "fullDescription": {"text": info.help},
        "help": {"text": info.help, "markdown": info.help},
    }


def to_sarif(problems: Sequence[Problem], prefix: str = "") -> dict[str, object]:
    """One run of tool `rulelens`: a rule per known code, a result per finding.

    Lines are 1-based; columns are counted in code points, and the run says so. `prefix`: the
    project's folder in its repository (`services/web/`): code scanning names files from the
    repository's root.
    """
    codes = list(CODES) + sorted({p.code for p in problems} - set(CODES))
    index = {code: i for i, code in enumerate(codes)}
    results = []
    for p in problems:
        region: dict[str, int] = {"startLine": p.line + 1, "startColumn": p.col + 1}
        if p.end_col is not None and p.end_col > p.col:
            region["endColumn"] = p.end_col + 1
        results.append({
            "ruleId": p.code,
            "ruleIndex": index[p.code],
            "level": LEVELS[p.severity],
            "message": {"text": p.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": quote(prefix + p.file), "uriBaseId": "%SRCROOT%"},
                "region": region,
            }}],
        })
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "rulelens",
                "version": __version__,
                "rules": [_rule(code) for code in codes],
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
