"""Emacs 28 with eglot (Debian's elpa-eglot), in batch mode, with the config of docs/emacs.md."""

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
def session(emacs: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("emacs")
    project = make_project(base)
    # no -Q: Debian's site-start puts elpa-eglot on the load path, as it does for a person
    run = run_editor([emacs, "--batch", "-l", str(HERE / "eglot_driver.el")], base,
                     base / "result.json", {"RULELENS_PROJECT": str(project.root)},
                     cwd=project.root)
    assert run.result["server"].startswith("EGLOT (proj/"), run.stderr
    run.result["models_on_disk"] = project.read(".ai/rules/models.md")
    return run.result


def test_eglot_gets_the_rules_diagnostic(session: dict[str, Any]) -> None:
    [diag] = session["diagnostics"]
    assert diag["text"].startswith("rulelens [rules-apply]: 1 project rule from 1 rule file")
    assert f".ai/rules/models.md (app/Models/**): {ENTRY_TITLE}" in diag["text"]
    assert diag["type"] == "eglot-note"  # information, never an error
    assert (diag["line"], diag["column"]) == (0, 0)


def test_eglot_hover_holds_the_entry(session: dict[str, Any]) -> None:
    hover = session["hover"]
    assert ".ai/rules/models.md" in hover
    assert "app/Models/**" in hover
    assert f"## {ENTRY_TITLE}" in hover
    assert ENTRY_NOTE in hover
    assert "12,50 €" in hover


def test_eglot_record_action_places_an_entry_skeleton(session: dict[str, Any]) -> None:
    """eglot cannot prompt, so the action is an edit: the glob and a skeleton entry, unsaved."""
    assert session["action_titles"] == [
        "Record a project rule for app/Models/User.php",
        "Record a project rule for app/Models/**",
        "Record a project rule for app/Models/*.php",
    ]
    assert session["skeleton"] == MODELS.replace(
        "  - 'app/Models/**'\n", "  - 'app/Models/**'\n  - 'app/Models/*.php'\n",
    ) + "\n## New rule title\nWhat an agent must know before editing these files.\n"
    assert session["models_on_disk"] == MODELS  # nothing is written until the person saves
