"""Vim 9 with ALE (Debian's vim-ale), headless, with the config of docs/editors.md."""

from __future__ import annotations

from pathlib import Path

from tests.editors.conftest import ENTRY_NOTE, ENTRY_TITLE, HERE, make_project, run_editor


def test_ale_gets_the_diagnostic_and_the_hover(vim: str, editor_base: Path) -> None:
    project = make_project(editor_base)
    run = run_editor([vim, "-N", "-u", str(HERE / "ale_driver.vim"), "-i", "NONE",
                      "--not-a-term"], editor_base, editor_base / "result.json",
                     {"RULELENS_PROJECT": str(project.root)}, cwd=project.root)
    result = run.result
    assert result["filetype"] == "php"
    [diag] = result["diagnostics"]
    assert diag["text"].startswith("1 project rule from 1 rule file")
    assert f".ai/rules/models.md (app/Models/**): {ENTRY_TITLE}" in diag["text"]
    assert diag["code"] == "rules-apply"
    assert diag["type"] != "E"  # ALE shows information as W; never an error
    assert (diag["lnum"], diag["col"]) == (1, 1)
    hover = result["hover"]
    assert ".ai/rules/models.md (matched by app/Models/**)" in hover
    assert f"## {ENTRY_TITLE}" in hover
    assert ENTRY_NOTE in hover
    assert "12,50 €" in hover
