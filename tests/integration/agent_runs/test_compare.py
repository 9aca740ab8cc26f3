"""rulelens's prediction in the observation's shape, and the two side by side."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from rulelens.agent_runs.compare import compare, predict
from rulelens.agent_runs.model import Moment, Observation, Seen
from rulelens.agents.model import Load
from tests.conformance.harness import write_project

FILES = {"CLAUDE.md": "# Root\n\nRoot rules.\n", "src/CLAUDE.md": "# Src\n\nSource rules.\n",
         ".claude/rules/api.md": '---\npaths: "src/**"\n---\n\nAPI rules.\n', "src/a.ts": "x\n"}


def test_always_is_start_and_the_rest_arrive_after_the_moments_tool(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", FILES)
    assert predict(root, "claude-code", "src/new.ts", "create") == (
        Seen("CLAUDE.md", "start"), Seen(".claude/rules/api.md", "after-create"),
        Seen("src/CLAUDE.md", "after-create"))


def test_the_comparison_lists_what_only_one_side_has(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", FILES)
    predicted = predict(root, "claude-code", "src/a.ts", "read")
    seen = (Seen("CLAUDE.md", "start"), Seen("docs/imported.md", "start"), Seen("src/CLAUDE.md", "after-read"))
    result = compare(Observation("claude-code", "1", "src/a.ts", "read", seen), predicted)
    assert not result.agree
    assert result.only_agent == (Seen("docs/imported.md", "start"),)
    assert result.only_rulelens == (Seen(".claude/rules/api.md", "after-read"),)
    assert compare(Observation("claude-code", "1", "src/a.ts", "read", predicted), predicted).agree
    failed = Observation("claude-code", "1", "src/a.ts", "read", predicted, error="timed out after 1 s")
    assert not compare(failed, predicted).agree


class Moments:
    """A model whose view takes the moment, as the `nested` branch's does."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, str]] = []

    def view(self, path: str, on: Moment = "read") -> Any:
        self.asked.append((path, on))

        return SimpleNamespace(loads={"claude-code": [Load("CLAUDE.md", "always", (), 1)]})


def test_a_model_that_knows_moments_is_asked_with_the_moment(tmp_path: Path) -> None:
    project = Moments()
    assert predict(tmp_path, "claude-code", "a.ts", "edit", project) == (Seen("CLAUDE.md", "start"),)  # type: ignore[arg-type]
    assert project.asked == [("a.ts", "edit")]


def test_a_link_and_the_file_it_leads_to_are_one_file(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", {".agents/rules/x.md": "Rules.\n", "a.ts": "x\n"})
    (root / ".claude/rules").mkdir(parents=True)
    (root / ".claude/rules/x.md").symlink_to("../../.agents/rules/x.md")
    observed = Observation("claude-code", "1", "a.ts", "read", (Seen(".agents/rules/x.md", "start"),))
    predicted = (Seen(".claude/rules/x.md", "start"),)
    assert compare(observed, predicted, root).agree
    assert not compare(observed, predicted).agree
