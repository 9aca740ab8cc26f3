"""RuleRepository, the one class every front talks to: paths, reloading, search, plans and guards."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulelens.rules.check.rules_check import check_rules
from rulelens.rules.model import RuleError
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory

MODELS = "---\npaths:\n  - 'app/Models/**'\n---\n\n# Models\n\n## Cents\nStore integer cents.\n"


def test_rel_is_root_relative_and_none_outside(project: ProjectFactory) -> None:
    root = project()
    repo = RuleRepository(root)
    assert repo.rel(root / "app/x.php") == "app/x.php"
    assert repo.rel("app/../routes/web.php") == "routes/web.php"
    assert repo.rel(root.parent / "elsewhere.php") is None
    assert repo.rel(root) is None


def test_rule_files_are_the_folder_and_boost_only(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": MODELS, ".ai/rules/boost/b.md": MODELS,
                    ".ai/rules/deep/c.md": MODELS, ".ai/rules/index.md": "# x\n", ".ai/rules/n.txt": "x"})
    repo = RuleRepository(root)
    assert [f.rel for f in repo.files] == [".ai/rules/a.md", ".ai/rules/boost/b.md"]
    assert repo.is_rule_file(".ai/rules/a.md") and repo.is_rule_file(".ai/rules/boost/x.md")
    assert not repo.is_rule_file(".ai/rules/index.md") and not repo.is_rule_file(".ai/rules/deep/c.md")
    assert repo.is_index(".ai/rules/index.md")


def test_refresh_reloads_only_what_changed(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": MODELS})
    repo = RuleRepository(root)
    first = repo.files[0]
    assert repo.refresh() is False and repo.files[0] is first
    path = root / ".ai/rules/a.md"
    path.write_text(MODELS.replace("Cents", "Dollars"))
    os.utime(path, ns=(1, 1))
    assert repo.refresh() is True
    assert repo.files[0].entries[0].title == "Dollars"
    path.unlink()
    assert repo.refresh() is True and repo.files == []


def test_search_is_case_insensitive_over_titles_and_notes(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": MODELS})
    repo = RuleRepository(root)
    assert [e.title for _, e in repo.search("INTEGER")] == ["Cents"]
    assert repo.search("   ") == []


@pytest.mark.parametrize(("path", "globs"), [
    ("app/Models/User.php", ["app/Models/User.php", "app/Models/**", "app/Models/*.php"]),
    ("composer.json", ["composer.json", "*.json"]),
    ("Makefile", ["Makefile"]),
])
def test_suggest_globs_in_order(path: str, globs: list[str]) -> None:
    assert RuleRepository.suggest_globs(path) == globs


def test_plan_record_writes_nothing_and_honours_an_unsaved_buffer(project: ProjectFactory) -> None:
    root = project({".ai/rules/models.md": MODELS})
    repo = RuleRepository(root)
    buffer = MODELS + "\n## Unsaved\nIn the editor only.\n"
    plan = repo.plan_record("app/Models/User.php", "New", "note", text_of=lambda p: buffer)
    assert plan.old == buffer and "## Unsaved" in plan.new and plan.new.endswith("## New\nnote\n")
    assert (root / ".ai/rules/models.md").read_text() == MODELS
    assert not (root / ".ai/rules/index.md").exists()


def test_a_record_lands_with_its_line_and_rebuilds_the_index(project: ProjectFactory) -> None:
    root = project({".ai/rules/models.md": MODELS})
    result = RuleRepository(root).record("app/Models/**", "Dates", "Immutable.")
    assert (result.file, result.created) == (".ai/rules/models.md", False)
    assert (root / ".ai/rules/models.md").read_text().splitlines()[result.line] == "## Dates"
    assert RuleRepository(root).index_is_current()


def test_a_repository_that_is_not_a_project_refuses_writes_but_reads(tmp_path: Path) -> None:
    repo = RuleRepository(tmp_path, writable=False)
    with pytest.raises(RuleError, match="open a project or pass --root"):
        repo.record("app/**", "t", "n")
    with pytest.raises(RuleError, match="open a project"):
        repo.write_index()
    assert repo.rules_for("app/x.php") == [] and list(tmp_path.iterdir()) == []


def test_check_reports_a_rules_path_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / ".ai").mkdir()
    (tmp_path / ".ai/rules").write_text("x")
    [problem] = check_rules(RuleRepository(tmp_path))
    assert problem.code == "rules-folder-invalid"


def test_rel_by_string_answers_as_relative_to_does(tmp_path: Path) -> None:
    """`rel`'s POSIX string path against the Path one it stands for, on awkward inputs."""
    root = tmp_path / "proj"
    root.mkdir()
    repo = RuleRepository(root)
    outside = str(tmp_path)
    cases = [root, root / "a.py", root / "a" / ".." / "b.py", f"{root}/./c/d.py", f"{root}//e.py",
             f"{root}x/f.py", f"{root}/..", f"{root}/../proj/g.py", "h.py", "./i/../j.py", "",
             ".", "..", "../k.py", outside, "/", f"{outside}/proj", f"{root}/", "l/m/", "//n"]
    for case in cases:
        assert repo.rel(case) == repo._rel_by_path(case), case
    top = RuleRepository(Path("/"), writable=False)
    for case in ["/", "/usr/lib", "usr/../etc", "//x", "/../y"]:
        assert top.rel(case) == top._rel_by_path(case), case
