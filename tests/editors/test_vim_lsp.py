"""Vim 9 with vim-lsp (../shared/editors/vim-lsp), headless, with the configuration of docs/vim.md.

vim-lsp cannot prompt, so the record action is an edit that places an entry skeleton in the
rule file's buffer. vim-lsp opens that buffer to the server (didOpen, version 1) with the text
from before the edit, applies the edit, and sends no didChange until the file is saved; it
advertises no `documentChanges` and ignores their versions. A second record before saving
must not be computed from that stale text: every entry the person has must survive (the
server refuses the second record, or applies a fresh edit).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from tests.editors.conftest import (
    ENTRY_TITLE,
    HERE,
    MODELS,
    SHARED_EDITORS,
    make_project,
    run_editor,
)

VIM_LSP = SHARED_EDITORS / "vim-lsp"
SKELETON_TITLE = "## New rule title"
SKELETON_NOTE = "What an agent must know before editing these files."
MODELS_NOTE = MODELS.split(f"## {ENTRY_TITLE}\n", 1)[1].rstrip("\n")


@pytest.fixture(scope="module")
def session(vim9: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if not VIM_LSP.is_dir():
        pytest.skip(f"{VIM_LSP} is absent (../shared/editors)")
    base = tmp_path_factory.mktemp("vimlsp")
    project = make_project(base)
    run = run_editor([vim9, "-N", "-u", str(HERE / "vim_lsp_driver.vim"), "-i", "NONE",
                      "--not-a-term"], base, base / "result.json",
                     {"RULELENS_PROJECT": str(project.root), "RULELENS_VIM_LSP": str(VIM_LSP)},
                     cwd=project.root)
    assert run.result["filetype"] == "php"
    run.result["saved"] = project.read(".ai/rules/models.md")
    return run.result


def entries(text: str) -> list[tuple[str, str]]:
    """The `## ` entries of a rule file with their notes, in order."""
    body = text.split("\n---\n", 1)[1]
    parts = re.split(r"^(## .*)$", body, flags=re.M)
    return [(parts[i], parts[i + 1].strip("\n")) for i in range(1, len(parts), 2)]


def test_vim_lsp_offers_the_record_actions(session: dict[str, Any]) -> None:
    menu = session["menus"][0]
    for glob in ("app/Models/User.php", "app/Models/**", "app/Models/*.php"):
        assert f"[rulelens] Record a project rule for {glob} (source.rulelens.record)" in menu


def test_first_record_places_a_skeleton_in_the_buffer(session: dict[str, Any]) -> None:
    text = session["after_first"] + "\n"
    assert text == MODELS.replace(
        "  - 'app/Models/**'\n", "  - 'app/Models/**'\n  - 'app/Models/*.php'\n",
    ) + f"\n{SKELETON_TITLE}\n{SKELETON_NOTE}\n"


def test_recording_twice_without_saving_keeps_every_entry(session: dict[str, Any]) -> None:
    saved = session["saved"]
    found = entries(saved)
    # the entry that was there and the first skeleton are intact, each with its note
    assert found[0] == (f"## {ENTRY_TITLE}", MODELS_NOTE)
    assert found[1] == (SKELETON_TITLE, SKELETON_NOTE)
    # the second record either added a second intact skeleton or was refused; nothing else
    assert found[2:] in ([], [(SKELETON_TITLE, SKELETON_NOTE)])
    frontmatter = yaml.safe_load(saved.split("---\n", 2)[1])
    paths = frontmatter["paths"]
    assert paths[:2] == ["app/Models/**", "app/Models/*.php"]
    assert paths[2:] == (["app/Models/User.php"] if found[2:] else [])
    # the heading survived too
    assert "\n# Models\n" in saved
