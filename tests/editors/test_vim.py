"""Vim 9 with ALE (Debian's vim-ale), headless, with the config of docs/vim.md."""

from __future__ import annotations

from typing import Any

import pytest

from tests.editors.conftest import (
    ENTRY_NOTE,
    ENTRY_TITLE,
    HERE,
    MODELS,
    make_project,
    run_editor,
)


@pytest.fixture(scope="module")
def session(vim: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("vim")
    project = make_project(base)
    run = run_editor([vim, "-N", "-u", str(HERE / "ale_driver.vim"), "-i", "NONE",
                      "--not-a-term"], base, base / "result.json",
                     {"RULELENS_PROJECT": str(project.root)}, cwd=project.root)
    assert run.result["filetype"] == "php"
    return run.result


def test_ale_gets_the_rules_diagnostic(session: dict[str, Any]) -> None:
    [diag] = session["diagnostics"]
    assert diag["text"].startswith("1 project rule from 1 rule file")
    assert f".ai/rules/models.md (app/Models/**): {ENTRY_TITLE}" in diag["text"]
    assert diag["code"] == "rules-apply"
    assert diag["type"] != "E"  # ALE shows information as W; never an error
    assert (diag["lnum"], diag["col"]) == (1, 1)


def test_ale_hover_holds_the_entry(session: dict[str, Any]) -> None:
    hover = session["hover"]
    assert ".ai/rules/models.md" in hover
    assert "app/Models/**" in hover
    assert f"## {ENTRY_TITLE}" in hover
    assert ENTRY_NOTE in hover
    assert "12,50 €" in hover


def test_ale_offers_the_record_action(session: dict[str, Any]) -> None:
    menu = session["action_menu"]
    assert "1) Record a project rule for app/Models/User.php" in menu
    assert "2) Record a project rule for app/Models/**" in menu
    assert "3) Record a project rule for app/Models/*.php" in menu


def test_ale_record_action_places_an_entry_skeleton(session: dict[str, Any]) -> None:
    """ALE cannot prompt or show documents: the action is an edit with no command (ALE runs
    only the command of an action that has both), applied to the rule file's buffer."""
    assert session["skeleton"] == MODELS.replace(
        "  - 'app/Models/**'\n", "  - 'app/Models/**'\n  - 'app/Models/*.php'\n",
    ) + "\n## New rule title\nWhat an agent must know before editing these files.\n"
