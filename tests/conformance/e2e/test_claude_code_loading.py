"""What Claude Code 2.1.337 loads, as the end-to-end runs on real repositories showed it, each
case in a small project of its own (every assertion checked against the requests first):
the loading rulelens's model must follow, and does, except where a test says why not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulelens.agent_runs.compare import compare, predict
from rulelens.agent_runs.model import Seen
from rulelens.agent_runs.runner import run
from tests.conformance.e2e.support import binary, record
from tests.conformance.harness import write_project

AGENTS = "# Agents\n\nShared guidance for every agent here.\n"
OWN = "# Claude\n\nClaude's own guidance for this project.\n"
NESTED = "# Tests\n\nGuidance for the tests folder only.\n"


def seen(tmp_path: Path, files: dict[str, str], path: str = "tests/unit/a.py",
         links: dict[str, str] | None = None, modelled: bool = True) -> set[Seen]:
    """What the binary sent for a read of `path`; with `modelled`, rulelens predicts the same."""
    root = write_project(tmp_path / "p", {path: "x = 1\n", **files})
    for link, target in (links or {}).items():
        (root / link).parent.mkdir(parents=True, exist_ok=True)
        (root / link).symlink_to(target)
    observed = run("claude-code", binary("claude-code"), root, path, "read", timeout=120)
    assert observed.error is None, observed.error
    if modelled:
        both = compare(observed, predict(root, "claude-code", path, "read"), root)
        record(both)
        assert both.agree, (both.only_agent, both.only_rulelens)
    return set(observed.files)


def test_claude_local_md_loads_at_start(tmp_path: Path) -> None:
    assert seen(tmp_path, {"CLAUDE.local.md": OWN, "AGENTS.md": AGENTS}) == {Seen("CLAUDE.local.md", "start")}


@pytest.mark.parametrize("blank", ["CLAUDE.md", ".claude/CLAUDE.md"])
def test_a_blank_own_file_falls_back_to_agents_md(tmp_path: Path, blank: str) -> None:
    assert seen(tmp_path, {blank: "\n", "AGENTS.md": AGENTS}) == {Seen("AGENTS.md", "start")}


def test_a_claude_md_link_that_leads_nowhere_falls_back_to_agents_md(tmp_path: Path) -> None:
    assert seen(tmp_path, {"AGENTS.md": AGENTS}, links={"CLAUDE.md": "/nonexistent/AGENTS.md"}) == {
        Seen("AGENTS.md", "start")}


def test_a_denied_read_keeps_claude_md_out(tmp_path: Path) -> None:
    settings = '{"permissions": {"deny": ["Read(CLAUDE.md)"]}}\n'
    assert seen(tmp_path, {"CLAUDE.md": OWN, ".claude/settings.json": settings}) == set()


DENIED = {"CLAUDE.md": OWN + "\nSee @docs/conventions.md\n", "docs/conventions.md": AGENTS,
          "tests/CLAUDE.md": NESTED, ".claude/rules/t.md": '---\npaths: "tests/**"\n---\n\nTest rules.\n'}


@pytest.mark.parametrize(("settings", "rule", "expected"), [
    # without a slash, at any depth: the nested file too; the import is never read
    (".claude/settings.local.json", "Read(./CLAUDE.md)", {Seen(".claude/rules/t.md", "after-read")}),
    # anchored at the root: the root's file and what it imports stay out, the nested file loads
    (".claude/settings.json", "Read(/CLAUDE.md)", {Seen("tests/CLAUDE.md", "after-read"),
                                                   Seen(".claude/rules/t.md", "after-read")}),
    # the path itself: nothing loads after the tool (an edit or a create of it: the same, run)
    (".claude/settings.json", "Read(tests/unit/a.py)", {Seen("CLAUDE.md", "start"),
                                                         Seen("docs/conventions.md", "start")}),
])
def test_read_deny_rules_in_the_project_settings(tmp_path: Path, settings: str, rule: str,
                                                 expected: set[Seen]) -> None:
    files = {**DENIED, settings: json.dumps({"permissions": {"deny": [rule]}})}
    assert seen(tmp_path, files) == expected


def test_a_nested_agents_md_is_not_read_under_the_fallback(tmp_path: Path) -> None:
    assert seen(tmp_path, {"AGENTS.md": AGENTS, "tests/unit/AGENTS.md": NESTED}) == {Seen("AGENTS.md", "start")}


def test_a_linked_rule_is_named_by_the_file_it_leads_to(tmp_path: Path) -> None:
    rule = '---\npaths: "tests/**"\n---\n\nTest rules for every test file.\n'
    assert seen(tmp_path, {"CLAUDE.md": OWN, ".agents/rules/t.md": rule},
                links={".claude/rules/t.md": "../../.agents/rules/t.md"}) == {
        Seen("CLAUDE.md", "start"), Seen(".agents/rules/t.md", "after-read")}
