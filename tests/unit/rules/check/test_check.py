"""`check`: every code of SPEC §6 on small projects."""

from __future__ import annotations

from rulelens.rules.check.rules_check import check_rules
from rulelens.rules.repository import RuleRepository
from rulelens.workspace.filelist import FileList
from tests.conftest import ProjectFactory


def run_check(root, files: list[str]) -> dict[str, list[tuple[str, int]]]:  # type: ignore[no-untyped-def]
    found: dict[str, list[tuple[str, int]]] = {}
    for p in check_rules(RuleRepository(root), FileList(files)):
        found.setdefault(p.code, []).append((p.file, p.line))
    return found


def test_clean_project_has_only_the_no_paths_hint(project: ProjectFactory) -> None:
    root = project({
        ".ai/rules/models.md": "---\npaths:\n  - 'app/Models/**'\n---\n\n# Models\n\n## Cents\nInteger cents.\n",
        ".ai/rules/glossary.md": "# Glossary\n\n## Money\nCents.\n",
    })
    RuleRepository(root).write_index()
    assert run_check(root, ["app/Models/User.php"]) == {"no-paths": [(".ai/rules/glossary.md", 0)]}


def test_every_code(project: ProjectFactory) -> None:
    root = project({
        ".ai/rules/a.md": (
            "---\npaths:\n  - 'app/**'\n  - 'app/**'\n  - 'nothing/**'\n  - '*.php'\n"
            "  - 'x/**, y/**'\n  - '../up/**'\n---\n\n# A\n\n## Empty\n\n## Full\nnote\n"
        ),
        ".ai/rules/b.md": "---\npaths:\n  - **/*.js\n---\n# B\n",
        ".ai/rules/c.md": "---\npaths:\n  key: 1\n---\n# C\n",
        ".ai/rules/d.md": "# D has no paths\n",
    })
    found = run_check(root, ["app/User.php", "x/a", "y/b", "s/x.js"])
    assert found["glob-duplicate"] == [(".ai/rules/a.md", 3)]
    assert found["glob-matches-nothing"] == [(".ai/rules/a.md", 4)]
    assert (".ai/rules/a.md", 5) in found["glob-dialect"]
    # Cursor trims the spaces around commas (its reader's data), so `x/**, y/**` is no dialect trap.
    assert (".ai/rules/a.md", 6) not in found["glob-dialect"]
    assert found["paths-invalid"] == [(".ai/rules/a.md", 7), (".ai/rules/c.md", 1)]
    assert found["entry-empty"] == [(".ai/rules/a.md", 12)]
    assert found["frontmatter-invalid"] == [(".ai/rules/b.md", 2)]
    assert found["no-paths"] == [(".ai/rules/d.md", 0)]
    assert found["index-missing"] == [(".ai/rules/index.md", 0)]
    assert "glob-matches-nothing" not in {c for c, v in found.items() if (".ai/rules/b.md", 2) in v}


def test_stale_index(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": "---\npaths:\n  - 'a/**'\n---\n", ".ai/rules/index.md": "# old\n"})
    assert run_check(root, ["a/x"])["index-stale"] == [(".ai/rules/index.md", 0)]


def test_severities() -> None:
    from rulelens.rules.check.lint import check_index

    [p] = check_index(".ai/rules/index.md", "x", "y")
    assert p.severity == "warning" and p.to_json()["line"] == 1


def test_a_glob_listed_twice_is_an_info(project: ProjectFactory) -> None:
    """The same glob twice in one file changes no agent's loading (issue 44, third round)."""
    root = project({".ai/rules/a.md": "---\npaths:\n  - 'app/**'\n  - 'app/**'\n---\n# A\n\n## e\nn\n"})
    found = [p for p in check_rules(RuleRepository(root), FileList(["app/x.php"])) if p.code == "glob-duplicate"]
    assert [(p.severity, p.line) for p in found] == [("info", 3)]
