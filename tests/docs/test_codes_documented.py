"""Every code a finding can carry is listed (rules/check/codes.py, agents/codes.py) and documented.

The codes are read from the source itself: each string literal that a `Problem(...)` or
`problem(...)` call passes as a code, so a new code with no table entry or no docs fails here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rulelens.agents.codes import AGENT_CODES, known_codes
from rulelens.rules.check.codes import CODES

REPO = Path(__file__).resolve().parents[2]
SERVER = REPO / "server" / "rulelens"
CODE = re.compile(r"^[a-z]+(?:-[a-z]+)+$")
SEVERITIES = {"error", "warning", "info"}


def codes_in_source() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
            if name not in ("Problem", "problem"):
                continue
            for arg in [*node.args, *(k.value for k in node.keywords if k.arg == "code")]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
                        and CODE.match(arg.value) and arg.value not in SEVERITIES:
                    found.setdefault(arg.value, str(path.relative_to(REPO)))
    return found


def documented() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((REPO / "docs").glob("*.md")))


def test_the_scan_finds_codes_of_both_tables() -> None:
    found = codes_in_source()
    assert {"glob-matches-nothing", "stale-name", "kiro-pattern-comma", "agents-disagree"} <= set(found)


def test_every_code_in_the_source_is_in_a_table() -> None:
    missing = {code: where for code, where in codes_in_source().items() if code not in known_codes()}
    assert not missing, f"add these to rules/check/codes.py or agents/codes.py: {missing}"
    assert not set(CODES) & AGENT_CODES


def test_every_code_is_documented() -> None:
    docs = documented()
    missing = sorted(c for c in known_codes() if f"`{c}`" not in docs)
    assert not missing, f"codes documented nowhere in docs/: {missing}"
