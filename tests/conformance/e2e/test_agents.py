"""End-to-end cases for the other agents whose pinned binary runs here: each started at the
project's root, asked to read (or edit) `src/a.ts`, with its own instruction files importing two
others (checked by hand against the requests first)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelens.agent_runs.compare import compare, predict
from rulelens.agent_runs.model import Moment, Observation, Seen, after
from rulelens.agent_runs.runner import run
from rulelens.agents.project import AgentProject
from rulelens.rules.repository import RuleRepository
from tests.conformance.e2e.support import binary, record, with_node_on_path
from tests.conformance.harness import write_project

IMPORTING = "# Project\n\nRoot rules for every file.\n\nSee @docs/conventions.md\n\n@.ai/rules/index.md\n"
SHARED = {
    "docs/conventions.md": "# Conventions\n\nUse tabs for indentation in this project.\n",
    ".ai/rules/index.md": "# Rules index\n\n- api: rules for the API under src.\n",
    "src/a.ts": "export const a = 1;\n",
}
IMPORTS = {Seen("docs/conventions.md", "start"), Seen(".ai/rules/index.md", "start")}


def agrees(observed: Observation, root: Path) -> bool:
    """Whether rulelens's answer is what the binary sent (recorded for CI's closing table)."""
    both = compare(observed, predict(root, observed.agent, observed.path, observed.moment), root)
    record(both)
    return both.agree


def test_codex_sends_the_roots_agents_md_at_start_and_nothing_after(tmp_path: Path) -> None:
    """Started at the root, Codex 0.171.0 sends the root's AGENTS.md (no import expanded) and
    never the one in the read file's folder."""
    root = write_project(tmp_path / "p", {**SHARED, "AGENTS.md": IMPORTING,
                                          "src/AGENTS.md": "# Source\n\nEvery source file exports one thing.\n"})
    observed = run("codex", binary("codex"), root, "src/a.ts", "read", timeout=120)
    assert observed.error is None, observed.error
    assert set(observed.files) == {Seen("AGENTS.md", "start")}
    assert agrees(observed, root)


@pytest.mark.parametrize("moment", ["read", "edit"])
def test_gemini_cli_imports_at_start_and_the_folders_file_after_the_tool(tmp_path: Path, moment: Moment) -> None:
    """A read and an edit alike: the folder's GEMINI.md arrives with the tool's result."""
    with_node_on_path()
    root = write_project(tmp_path / "p", {**SHARED, "GEMINI.md": IMPORTING,
                                          "src/GEMINI.md": "# Source\n\nEvery source file exports one thing.\n"})
    observed = run("gemini-cli", binary("gemini-cli"), root, "src/a.ts", moment, timeout=180)
    assert observed.error is None, observed.error
    assert set(observed.files) == {Seen("GEMINI.md", "start"), *IMPORTS, Seen("src/GEMINI.md", after(moment))}
    assert agrees(observed, root)


def test_qwen_code_imports_at_start_and_its_path_rule_after_the_read(tmp_path: Path) -> None:
    with_node_on_path()
    root = write_project(tmp_path / "p", {
        **SHARED, "QWEN.md": IMPORTING, "src/QWEN.md": "# Source\n\nEvery source file exports one thing.\n",
        ".qwen/rules/api.md": '---\npaths: "src/**"\n---\n\n# API\n\nHandlers return typed results.\n'})
    observed = run("qwen-code", binary("qwen-code"), root, "src/a.ts", "read", timeout=180)
    assert observed.error is None, observed.error
    assert set(observed.files) == {Seen("QWEN.md", "start"), *IMPORTS, Seen(".qwen/rules/api.md", "after-read")}
    assert agrees(observed, root)


def test_qwen_code_refuses_to_edit_a_file_it_has_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Qwen Code 0.24.4's edit tool refuses a file not read in the session, and the refused
    tool brings no path rule: only the start's files, as rulelens says (with why)."""
    with_node_on_path()
    dumps = tmp_path / "dumps"
    monkeypatch.setenv("RULELENS_RUN_DUMP", str(dumps))
    root = write_project(tmp_path / "p", {
        **SHARED, "QWEN.md": IMPORTING,
        ".qwen/rules/api.md": '---\npaths: "src/**"\n---\n\n# API\n\nHandlers return typed results.\n'})
    observed = run("qwen-code", binary("qwen-code"), root, "src/a.ts", "edit", timeout=180)
    assert observed.error is None, observed.error
    assert "has not been read in this session" in (dumps / "qwen-code-edit-src_a.ts.json").read_text()
    assert set(observed.files) == {Seen("QWEN.md", "start"), *IMPORTS}
    assert agrees(observed, root)
    note = AgentProject(RuleRepository(root)).view("src/a.ts", "edit").moment_notes["qwen-code"]
    assert note.startswith("Qwen Code edits only a file it has read in the session")
