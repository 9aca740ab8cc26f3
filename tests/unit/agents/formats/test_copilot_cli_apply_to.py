"""Copilot CLI's `applyTo` split (agents/formats/copilot_cli.py): commas outside braces, nested
braces counted, as Copilot CLI 1.0.102 read 122sp7/xuanwu-app's instruction file end to end
(tests/agents/released/e2e/test_copilot_cli_apply_to.py)."""

from __future__ import annotations

from rulelens.agents.formats.copilot_cli import split_outside_braces
from rulelens.glob_engines.dialects import GLOBSET, matches

NESTED = "{src/a/**/*.{ts,tsx},src/b/**/*.{ts,js}}"


def test_nested_braces_are_one_pattern() -> None:
    assert split_outside_braces(NESTED) == [NESTED]
    assert split_outside_braces("src/a/*.{ts,js},src/b/**") == ["src/a/*.{ts,js}", "src/b/**"]
    assert split_outside_braces("a/[,]x,b") == ["a/[,]x", "b"]


def test_the_one_pattern_matches_as_the_run_did() -> None:
    assert [p for p in ("src/a/k/x.ts", "src/b/k/x.js", "src/a/k/x.js", "src/c/x.ts")
            if matches(NESTED, p, GLOBSET)] == ["src/a/k/x.ts", "src/b/k/x.js"]
