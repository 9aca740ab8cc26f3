"""Emacs 28 with eglot (Debian's elpa-eglot), in batch mode, with the config of docs/editors.md."""

from __future__ import annotations

from pathlib import Path

from tests.editors.conftest import ENTRY_NOTE, ENTRY_TITLE, HERE, make_project, run_editor


def test_eglot_gets_the_diagnostic_and_the_hover(emacs: str, editor_base: Path) -> None:
    project = make_project(editor_base)
    # no -Q: Debian's site-start puts elpa-eglot on the load path, as it does for a person
    run = run_editor([emacs, "--batch", "-l", str(HERE / "eglot_driver.el")], editor_base,
                     editor_base / "result.json", {"RULELENS_PROJECT": str(project.root)},
                     cwd=project.root)
    result = run.result
    assert result["server"].startswith("EGLOT (proj/"), run.stderr
    [diag] = result["diagnostics"]
    assert diag["text"].startswith("rulelens [rules-apply]: 1 project rule from 1 rule file")
    assert f".ai/rules/models.md (app/Models/**): {ENTRY_TITLE}" in diag["text"]
    assert diag["type"] == "eglot-note"  # information, never an error
    assert (diag["line"], diag["column"]) == (0, 0)
    hover = result["hover"]
    assert ".ai/rules/models.md (matched by app/Models/**)" in hover
    assert f"## {ENTRY_TITLE}" in hover
    assert ENTRY_NOTE in hover
    assert "12,50 €" in hover
