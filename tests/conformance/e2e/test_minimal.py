"""Issue 42's minimal case run end to end through the pinned binaries: what each sent its
model, at start and after the tool's result, for a read of `src/a.ts` and a creation of
`src/sub/new.ts` (checked by hand against the requests first: $RULELENS_RUN_DUMP keeps them)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from rulelens.agent_runs.compare import compare, predict
from rulelens.agent_runs.model import Moment, Seen
from rulelens.agent_runs.runner import run
from tests.conformance.e2e.cases import MINIMAL
from tests.conformance.e2e.support import binary
from tests.conformance.harness import write_project

START = ("CLAUDE.md", "docs/conventions.md", ".ai/rules/index.md")
NESTED = (".claude/rules/api.md", "src/CLAUDE.md")


def snapshot(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and ".git" not in p.parts}


def seen(start: tuple[str, ...], later: tuple[str, ...], moment: Moment) -> set[Seen]:
    return {Seen(f, "start") for f in start} | {Seen(f, f"after-{moment}") for f in later}  # type: ignore[arg-type]


@pytest.mark.parametrize(("path", "moment"), [("src/a.ts", "read"), ("src/a.ts", "edit"),
                                              ("src/sub/new.ts", "create")])
def test_claude_code_imports_at_start_nested_after_the_tool(tmp_path: Path, path: str, moment: Moment) -> None:
    root = write_project(tmp_path / "p", MINIMAL)
    before = snapshot(root)
    observed = run("claude-code", binary("claude-code"), root, path, moment, timeout=120)
    assert observed.error is None, observed.error
    assert set(observed.files) == seen(START, NESTED, moment)
    assert snapshot(root) == before  # the scratch copy took the edit or the creation
    # Today's model lists neither import: the comparison names them as the agent's alone.
    result = compare(observed, predict(root, "claude-code", path, moment))
    assert {s.file for s in result.only_agent} >= {"docs/conventions.md", ".ai/rules/index.md"} - {
        s.file for s in result.predicted}


def test_copilot_cli_attaches_nested_files_after_a_view_only(tmp_path: Path) -> None:
    """Copilot CLI 1.0.102 inlines the imports at start, and attaches the nested CLAUDE.md and
    the .claude/rules file after `view`; after `edit` and `create` it attaches nothing."""
    root = write_project(tmp_path / "p", MINIMAL)
    exe = binary("copilot-cli")
    read = run("copilot-cli", exe, root, "src/a.ts", "read", timeout=180)
    assert read.error is None, read.error
    assert set(read.files) == seen(START, NESTED, "read")
    created = run("copilot-cli", exe, root, "src/sub/new.ts", "create", timeout=180)
    assert created.error is None, created.error
    assert set(created.files) == seen(START, (), "create")
    edited = run("copilot-cli", exe, root, "src/a.ts", "edit", timeout=180)
    assert edited.error is None, edited.error
    assert set(edited.files) == seen(START, (), "edit")
    for observed in (read, created, edited):
        assert compare(observed, predict(root, "copilot-cli", observed.path, observed.moment), root).agree
