"""Codex as its released binary reads the `AGENTS.md` chain (agents/formats/codex.py); the binary
itself is compared in tests/conformance/codex."""

from __future__ import annotations

import subprocess
from pathlib import Path

from rulelens.agents.formats.codex import chain_overflow, chain_reads, overflow_words, project_settings
from rulelens.agents.model import Load
from rulelens.agents.project import AgentProject
from rulelens.agents.traps import agent_problems
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory


def _chain(root: Path, path: str) -> list[str]:
    """The chain of Codex started in the path's folder."""
    codex = AgentProject(RuleRepository(root)).agent("codex")
    assert codex is not None
    return [d.file for d in codex.chain(path)]


def test_started_at_the_root_codex_loads_the_roots_file_and_nested_ones_only_when_started_there(
        project: ProjectFactory) -> None:
    """Codex reads its chain once, for the folder it starts in (run end to end: reading, editing
    or creating below `pkg/AGENTS.md` never loads it); rulelens answers for a start at the root."""
    root = project({"AGENTS.md": "# Root\n", "pkg/AGENTS.md": "# Pkg\n", "pkg/deep/AGENTS.md": "# Deep\n",
                    "other/AGENTS.md": "# Other\n", "pkg/deep/d.ts": ""}, git=True)
    for on in ("read", "edit", "create"):
        view = AgentProject(RuleRepository(root)).view("pkg/deep/d.ts", on=on)  # type: ignore[arg-type]
        assert [(x.file, x.how) for x in view.loads["codex"]] == [("AGENTS.md", "always")]
        assert [(m.file, m.how) for m in view.maybe["codex"]] == [
            ("pkg/AGENTS.md", "start-folder"), ("pkg/deep/AGENTS.md", "start-folder")]
    assert _chain(root, "pkg/deep/d.ts") == ["AGENTS.md", "pkg/AGENTS.md", "pkg/deep/AGENTS.md"]


def _codes(root: Path) -> list[tuple[str, str]]:
    return [(p.file, p.code) for p in agent_problems(AgentProject(RuleRepository(root)))]


def test_an_empty_override_claims_its_folder(project: ProjectFactory) -> None:
    root = project({"AGENTS.md": "# Root\n", "a/AGENTS.override.md": " \n", "a/AGENTS.md": "# A\n",
                    "b/AGENTS.md": "\n", "b/c/AGENTS.md": "# C\n", "a/x.ts": "", "b/c/x.ts": ""}, git=True)
    assert _chain(root, "a/x.ts") == ["AGENTS.md"]
    assert _chain(root, "b/c/x.ts") == ["AGENTS.md", "b/c/AGENTS.md"]  # a blank AGENTS.md adds nothing
    codes = _codes(root)
    assert ("a/AGENTS.md", "codex-empty-shadows") in codes
    assert not [c for c in codes if c[0].startswith("b/")]


def test_without_git_only_the_working_folders_file_is_read(project: ProjectFactory) -> None:
    root = project({"AGENTS.md": "# Root\n", "src/AGENTS.md": "# Src\n", "src/lib/a.ts": "", "src/a.ts": ""})
    assert _chain(root, "src/a.ts") == ["src/AGENTS.md"]
    assert _chain(root, "src/lib/a.ts") == []
    assert _chain(root, "a.ts") == ["AGENTS.md"]
    found = {p.file: p.message for p in agent_problems(AgentProject(RuleRepository(root)))
             if p.code == "codex-no-project-root"}
    assert set(found) == {"AGENTS.md", "src/AGENTS.md"}
    assert "does not reach work started in `src/lib/`" in found["src/AGENTS.md"]
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    assert not [c for c in _codes(root) if c[1] == "codex-no-project-root"]


def test_a_nested_repository_starts_its_own_chain(project: ProjectFactory) -> None:
    root = project({"AGENTS.md": "# Root\n", "vendor/lib/AGENTS.md": "# Lib\n", "vendor/AGENTS.md": "# V\n",
                    "vendor/lib/src/a.c": "", "vendor/b.c": ""}, git=True)
    subprocess.run(["git", "init", "-q", str(root / "vendor/lib")], check=True)  # a clone inside
    # git lists no file of the inner repository, so rulelens has not its `AGENTS.md` either
    assert _chain(root, "vendor/lib/src/a.c") == []
    assert _chain(root, "vendor/b.c") == ["AGENTS.md", "vendor/AGENTS.md"]
    plain = root.parent / "plain"  # outside git, every folder is looked at: a submodule's `.git` file
    plain.mkdir()
    for rel in ("AGENTS.md", "lib/AGENTS.md", "lib/src/a.c", "lib/.git"):
        (plain / rel).parent.mkdir(parents=True, exist_ok=True)
        (plain / rel).write_text("gitdir: ../.git/modules/lib\n" if rel.endswith(".git") else "# x\n")
    assert _chain(plain, "lib/src/a.c") == ["lib/AGENTS.md"]


def test_the_project_config_sets_fallback_names_and_the_cap(project: ProjectFactory) -> None:
    root = project({".codex/config.toml": 'project_doc_fallback_filenames = ["CLAUDE.md", ""]\n'
                                          "project_doc_max_bytes = 10\n",
                    "CLAUDE.md": "# Claude root\n", "a/AGENTS.md": "# A\n", "a/CLAUDE.md": "# A claude\n",
                    "a/x.ts": ""}, git=True)
    assert _chain(root, "a/x.ts") == ["CLAUDE.md", "a/AGENTS.md"]
    view = AgentProject(RuleRepository(root)).view("a/x.ts")
    assert view.over_budget["codex"].endswith("`CLAUDE.md` is cut after 10 of its 14 bytes")  # at the root
    codes = _codes(root)
    assert ("a/CLAUDE.md", "codex-shadowed") in codes
    assert ("a/AGENTS.md", "agent-budget-exceeded") in codes


def test_a_config_codex_cannot_read_is_a_finding_and_the_defaults_hold(project: ProjectFactory) -> None:
    root = project({".codex/config.toml": "project_doc_max_bytes = \"big\"\n", "AGENTS.md": "# Root\n",
                    "CLAUDE.md": "# C\n"}, git=True)
    assert _chain(root, "x.ts") == ["AGENTS.md"]
    [found] = [p for p in agent_problems(AgentProject(RuleRepository(root))) if p.code == "codex-config-invalid"]
    assert found.file == ".codex/config.toml" and "`project_doc_max_bytes`" in found.message
    assert project_settings("project_doc_fallback_filenames = [\"X.md\"\n")[2] is not None
    assert project_settings("project_doc_fallback_filenames = [\"X.md\"]\n") == (("X.md",), 32 * 1024, None)


def test_the_file_crossing_the_cap_is_cut_and_the_rest_not_read() -> None:
    loads = [Load("AGENTS.md", "directory", (), 6), Load("a/AGENTS.md", "directory", (), 6),
             Load("a/b/AGENTS.md", "directory", (), 3)]
    assert chain_reads(loads, 10) == [6, 4, 0]
    assert chain_reads(loads, 12) == [6, 6, 0]  # exactly spent: the next file is not read at all
    assert chain_overflow(loads, 15) == (15, [])
    assert chain_overflow(loads, 12) == (15, ["a/b/AGENTS.md"])
    assert overflow_words(loads, 12) == "`a/b/AGENTS.md` is not read"
    assert overflow_words(loads, 10) == ("`a/AGENTS.md` is cut after 4 of its 6 bytes and `a/b/AGENTS.md` is "
                                         "not read")


def test_git_init_marks_the_root(tmp_path: Path) -> None:
    """The marker is `.git` itself: a repository made by `git init` is found without a commit."""
    root = tmp_path / "p"
    (root / "a").mkdir(parents=True)
    (root / "AGENTS.md").write_text("# Root\n")
    (root / "a/x.ts").write_text("")
    assert _chain(root, "a/x.ts") == []
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    assert _chain(root, "a/x.ts") == ["AGENTS.md"]


def test_a_link_leading_nowhere_does_not_claim_its_folder(project: ProjectFactory) -> None:
    root = project({"CLAUDE.md": "# Shared\n", "a/AGENTS.md": "# A\n", "a/x.ts": ""}, git=True)
    (root / "AGENTS.md").symlink_to("CLAUDE.md")
    (root / "a/AGENTS.override.md").symlink_to("missing.md")
    assert _chain(root, "a/x.ts") == ["AGENTS.md", "a/AGENTS.md"]
    assert not [c for c in _codes(root) if c[1].startswith("codex-")]


def test_an_ignored_override_is_read(project: ProjectFactory) -> None:
    root = project({".gitignore": "AGENTS.override.md\n", "AGENTS.md": "# Root\n", "a/AGENTS.md": "# A\n",
                    "a/AGENTS.override.md": "# Mine\n", "a/x.ts": ""}, git=True)
    assert _chain(root, "a/x.ts") == ["AGENTS.md", "a/AGENTS.override.md"]
    assert ("a/AGENTS.md", "codex-shadowed") in _codes(root)


def test_a_cap_of_nothing_reads_no_project_file(project: ProjectFactory) -> None:
    root = project({".codex/config.toml": "project_doc_max_bytes = 0\n", "AGENTS.md": "# Root\n", "a/x.ts": ""},
                   git=True)
    note = AgentProject(RuleRepository(root)).view("a/x.ts").over_budget["codex"]
    assert note.startswith("7 bytes exceed Codex's 0-byte cap") and note.endswith("`AGENTS.md` is not read")
    [found] = [p for p in agent_problems(AgentProject(RuleRepository(root))) if p.code == "agent-budget-exceeded"]
    assert "stops adding files at 0 bytes" in found.message and "this file is not read" in found.message


def test_the_config_finding_follows_the_buffer(project: ProjectFactory) -> None:
    from rulelens.agents.editing import file_problems

    root = project({".codex/config.toml": "project_doc_max_bytes = 4096\n", "AGENTS.md": "# Root\n"}, git=True)
    agents = AgentProject(RuleRepository(root))
    codex = agents.agent("codex")
    assert codex is not None
    assert file_problems(agents, codex, ".codex/config.toml") == []
    [typed] = file_problems(agents, codex, ".codex/config.toml", "project_doc_max_bytes = [\n")
    assert typed.code == "codex-config-invalid" and "not valid TOML" in typed.message


def test_a_cut_that_is_all_blank_is_passed_over(project: ProjectFactory) -> None:
    root = project({".codex/config.toml": "project_doc_max_bytes = 10\n", "AGENTS.md": "ROOT1\n",
                    "a/AGENTS.md": "\n" * 6 + "AAA\n", "a/b/AGENTS.md": "BBBBBBB\n", "a/b/x.ts": ""}, git=True)
    codex = AgentProject(RuleRepository(root)).agent("codex")
    assert codex is not None
    loads = codex.chain("a/b/x.ts")
    assert overflow_words(loads, 10, codex.blank_starts(loads)) == (
        "`a/b/AGENTS.md` is cut after 4 of its 8 bytes and `a/AGENTS.md` is not read")
