"""Gemini CLI as its released code (0.61.0) loads context: the root's files at start, the rest
just in time for the paths below them, files git ignores too, `@path` imports with their file;
and the finding for an `@` text it cannot import."""

from __future__ import annotations

from pathlib import Path

from rulelens.agents.formats.gemini_imports import imports, target
from rulelens.agents.project import AgentProject
from rulelens.agents.traps import agent_problems
from rulelens.rules.repository import RuleRepository
from rulelens.workspace.reads import Reads
from tests.conftest import ProjectFactory


def _loads(root: Path, path: str) -> dict[str, str]:
    view = AgentProject(RuleRepository(root)).view(path)
    return {x.file: x.how for x in view.loads.get("gemini-cli", [])}


def test_imports_are_read_as_gemini_cli_reads_them() -> None:
    text = ("Read @.ai/rules/index.md and @./a.md.\nmail a@b.io, `@code` and (@paren.md)\n"
            "```\n@fenced.md\n```\n\t@tab.md @9.md @-x.md")
    assert [i.path for i in imports(text)] == [".ai/rules/index.md", "./a.md.", "tab.md"]
    [first, *_] = imports(text)
    assert text[first.start:first.end] == "@.ai/rules/index.md"


def test_an_import_resolves_inside_the_project_only(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/a.md").write_text("a\n")
    assert target(tmp_path, "sub/GEMINI.md", "../docs/a.md", Reads()) == ("docs/a.md", None)
    assert target(tmp_path, "GEMINI.md", "docs/b.md", Reads()) == (None, "missing")
    assert target(tmp_path, "GEMINI.md", "docs", Reads()) == (None, "missing")  # a folder is no file
    assert target(tmp_path, "GEMINI.md", "../x.md", Reads()) == (None, "outside")
    assert target(tmp_path, "GEMINI.md", "https://example.com/a.md", Reads()) == (None, "outside")


def test_the_root_loads_at_start_and_a_folder_for_the_paths_below(project: ProjectFactory) -> None:
    root = project({"a/b/c.py": "", "GEMINI.md": "# Root\n", "a/GEMINI.md": "# A\n", "z/GEMINI.md": "# Z\n"})
    assert _loads(root, "a/b/c.py") == {"GEMINI.md": "always", "a/GEMINI.md": "directory"}
    assert _loads(root, "z/x.py") == {"GEMINI.md": "always", "z/GEMINI.md": "directory"}


def test_files_git_ignores_still_load(project: ProjectFactory) -> None:
    root = project({".gitignore": "GEMINI.md\nlocal/\n", "GEMINI.md": "# Mine\n", "local/GEMINI.md": "# Local\n",
                    "local/a.py": "", "src/a.py": ""})
    assert _loads(root, "local/a.py") == {"GEMINI.md": "always", "local/GEMINI.md": "directory"}
    assert _loads(root, "src/a.py") == {"GEMINI.md": "always"}


def test_imported_files_load_with_the_file_that_imports_them(project: ProjectFactory) -> None:
    root = project({
        "GEMINI.md": "# Root\n@.ai/rules/index.md\n", ".ai/rules/index.md": "@../../docs/more.md\n",
        "docs/more.md": "more\n", "app/GEMINI.md": "@../docs/api.md and `@../docs/no.md`\n",
        "docs/api.md": "api\n", "docs/no.md": "no\n", "app/a.php": "",
    })
    assert _loads(root, "app/a.php") == {"GEMINI.md": "always", ".ai/rules/index.md": "always",
                                         "docs/more.md": "always", "app/GEMINI.md": "directory",
                                         "docs/api.md": "directory"}
    assert "docs/api.md" not in _loads(root, "README.md")


def test_imports_stop_five_levels_down(project: ProjectFactory) -> None:
    chain = {f"d/f{i}.md": f"@f{i + 1}.md\n" for i in range(1, 8)}
    root = project({"GEMINI.md": "@d/f1.md\n", **chain, "x.py": ""})
    assert sorted(_loads(root, "x.py")) == ["GEMINI.md", "d/f1.md", "d/f2.md", "d/f3.md", "d/f4.md", "d/f5.md"]


def test_an_at_text_gemini_cli_cannot_import_is_a_finding(project: ProjectFactory) -> None:
    root = project({"GEMINI.md": "# Rules\nWe use @angular/core, `@keep` and @docs/a.md.\nSee @../up.md\n",
                    "docs/a.md": "a\n"})
    found = [p for p in agent_problems(AgentProject(RuleRepository(root))) if p.code == "gemini-cli-import-failed"]
    assert [(p.line, p.col, p.end_col) for p in found] == [(1, 7, 21), (1, 34, 45), (2, 4, 13)]
    assert "`angular/core,`, which the project does not have" in found[0].message
    assert "`docs/a.md.`" in found[1].message  # punctuation is part of the path Gemini CLI reads
    assert "outside the project" in found[2].message
    assert all(p.severity == "warning" and p.file == "GEMINI.md" for p in found)


def test_a_settings_file_gemini_cli_refuses_says_it_does_not_start(project: ProjectFactory) -> None:
    root = project({"GEMINI.md": "# Root\n", ".gemini/settings.json": '{"context": {"fileName": 3}}'})
    [found] = [p for p in agent_problems(AgentProject(RuleRepository(root))) if p.code == "gemini-settings-invalid"]
    assert "does not start" in found.message
    (root / ".gemini/settings.json").write_text('{"context": "GEMINI.md"}')
    [found] = [p for p in agent_problems(AgentProject(RuleRepository(root))) if p.code == "gemini-settings-invalid"]
    assert "warns" in found.message and "does not start" not in found.message


def test_a_flat_import_format_reads_the_roots_imports_at_every_depth(project: ProjectFactory) -> None:
    chain = {f"d/f{i}.md": f"@f{i + 1}.md\n" for i in range(1, 8)}
    root = project({".gemini/settings.json": '{"context": {"importFormat": "flat"}}', "GEMINI.md": "@d/f1.md @gone\n",
                    "sub/GEMINI.md": "@../d/f3.md @gone\n", **chain, "sub/x.py": ""})
    assert len(_loads(root, "sub/x.py")) == 2 + 7  # f1 to f7 (f8 is missing) through the root's file
    found = [p.file for p in agent_problems(AgentProject(RuleRepository(root))) if p.code == "gemini-cli-import-failed"]
    assert found == ["sub/GEMINI.md"]  # the root's `@gone` stays as written; the folder's is read "tree"
