"""Codex started at the project root (agents/formats/codex.py): the root's `AGENTS.md` loads at
start; a nested one is a `start-folder` maybe, worded with its folder. Run end to end in
tests/conformance/e2e/test_codex_start_folder.py."""

from __future__ import annotations

from pathlib import Path

from rulelens.agents.formats.codex import Codex
from rulelens.agents.formats.folder_chain import FolderChain
from rulelens.agents.formats.gemini_cli import GeminiCli
from rulelens.agents.project import AgentProject
from rulelens.report.words import maybe_words
from rulelens.rules.repository import RuleRepository


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_without_git_codex_started_at_the_root_reads_the_roots_file(tmp_path: Path) -> None:
    """No `.git`: Codex reads the folder it starts in alone, which at the root is the root's file;
    started in `a/` it would read `a/AGENTS.md` alone."""
    root = _write(tmp_path / "p", {"AGENTS.md": "# Root\n", "a/AGENTS.md": "# A\n", "a/x.ts": ""})
    project = AgentProject(RuleRepository(root))
    view = project.view("a/x.ts")
    assert [(x.file, x.how) for x in view.loads["codex"]] == [("AGENTS.md", "always")]
    assert [(m.file, m.how) for m in view.maybe["codex"]] == [("a/AGENTS.md", "start-folder")]
    codex = project.agent("codex")
    assert isinstance(codex, Codex)
    assert [x.file for x in codex.chain("a/x.ts")] == ["a/AGENTS.md"]


def test_the_words_name_the_folder() -> None:
    assert maybe_words("start-folder", "pkg/deep/AGENTS.md", "Codex") == (
        "only when Codex is started in pkg/deep/ or below")
    assert maybe_words("manual", "x.md", "Windsurf") == "on request"


def test_codex_and_gemini_cli_share_the_folder_chain_not_each_other() -> None:
    """Issue 46: no agent module imports another; the shared part is its own module."""
    assert issubclass(Codex, FolderChain) and issubclass(GeminiCli, FolderChain)
    assert not issubclass(GeminiCli, Codex)
