"""rulelens's Claude Code against Claude Code's own released code, case by case."""

from __future__ import annotations

from tests.conformance import harness
from tests.conformance.claude_code import cases


def test_rulelens_loads_claude_code_rules_as_its_released_code_does() -> None:
    result = harness.check_agreement("claude_code")
    harness.assert_goal(result, cases.EXPLAINED)


def test_the_cases_the_code_showed() -> None:
    """The issue's five cases, as the released code answered them (the probe, above), held in
    rulelens's own reading too: gitignore-style, any depth, case-insensitive, `./` never."""
    assert cases.core_answer("*.md", "docs/a.md") is True
    assert cases.core_answer("app/**", "lib/app/x.ts") is True
    assert cases.core_answer("x/*", "x/y/z.ts") is True
    assert cases.core_answer("SRC/*.TS", "src/a.ts") is True
    assert cases.core_answer("./src/*.ts", "src/a.ts") is False
    assert cases.core_answer("**", "src/a.ts") == "always"
