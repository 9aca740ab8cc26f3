"""What agents see: a rule file applies for people, but only the committed index leads agents to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelens.rules.match.visibility import NO_INDEX, NOT_INDEXED, parse_index
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory

SEEN = "---\npaths:\n  - 'app/**'\n---\n\n# Seen\n\n## S\nnote\n"
UNQUOTED = "---\npaths:\n  - **/*.php\n---\n\n# Unquoted\n\n## U\nnote\n"
BOM = "\ufeff---\npaths:\n  - 'app/**'\n---\n\n# Bom\n\n## B\nnote\n"
DUPLICATE = "---\npaths:\n  - app/**\npaths:\n  - b/**\n---\n# Dup\n\n## D\nnote\n"
NUMBER = "---\npaths:\n  - 0o17\n  - 123\n---\n# Num\n\n## N\nnote\n"


def verdicts(root: Path, path: str = "app/A.php") -> dict[str, str | None]:
    return {m.rule.rel: m.agents_miss_because for m in RuleRepository(root).rules_for(path)}


def test_an_indexed_valid_file_is_seen_and_others_say_why_not(project: ProjectFactory) -> None:
    root = project({".ai/rules/seen.md": SEEN, ".ai/rules/unquoted.md": UNQUOTED,
                    ".ai/rules/bom.md": BOM, ".ai/rules/dup.md": DUPLICATE})
    RuleRepository(root).write_index()
    (root / ".ai/rules/late.md").write_text("---\npaths:\n  - 'app/*.php'\n---\n# Late\n\n## L\nnote\n")
    got = verdicts(root)
    assert got[".ai/rules/seen.md"] is None
    assert "quote the glob: - '**/*.php'" in (got[".ai/rules/unquoted.md"] or "")
    assert "byte order mark" in (got[".ai/rules/bom.md"] or "")
    assert "invalid YAML" in (got[".ai/rules/dup.md"] or "") and "keep one" in (got[".ai/rules/dup.md"] or "")
    assert got[".ai/rules/late.md"] == NOT_INDEXED
    seen = [m for m in RuleRepository(root).rules_for("app/A.php") if m.agents_see]
    assert [m.rule.rel for m in seen] == [".ai/rules/seen.md"]


def test_no_index_at_all(project: ProjectFactory) -> None:
    root = project({".ai/rules/seen.md": SEEN})
    assert verdicts(root) == {".ai/rules/seen.md": NO_INDEX}


def test_a_stale_row_that_does_not_cover_the_path(project: ProjectFactory) -> None:
    root = project({".ai/rules/seen.md": SEEN})
    RuleRepository(root).write_index()
    (root / ".ai/rules/seen.md").write_text(SEEN.replace("'app/**'", "'app/**'\n  - 'lib/**'"))
    (root / "lib").mkdir()
    got = verdicts(root, "lib/x.php")
    assert "does not cover this path" in (got[".ai/rules/seen.md"] or "")
    assert verdicts(root, "app/x.php") == {".ai/rules/seen.md": None}


def test_the_index_is_reread_when_it_changes(project: ProjectFactory) -> None:
    root = project({".ai/rules/seen.md": SEEN})
    repo = RuleRepository(root)
    assert not repo.rules_for("app/A.php")[0].agents_see
    repo.write_index()
    assert repo.rules_for("app/A.php")[0].agents_see


def test_paths_that_strict_yaml_reads_as_numbers(project: ProjectFactory) -> None:
    root = project({".ai/rules/num.md": NUMBER})
    RuleRepository(root).write_index()
    assert "No rules recorded yet." in (root / ".ai/rules/index.md").read_text()
    assert RuleRepository(root).rules_for("123") == []  # the lenient reading agrees: no strings


@pytest.mark.parametrize(("row", "file", "cell"), [
    ("| app/**, routes/** | .ai/rules/a.md |", ".ai/rules/a.md", "app/**, routes/**"),
    ("| app/a\\|b/** | .ai/rules/p.md |", ".ai/rules/p.md", "app/a|b/**"),
])
def test_rows_are_parsed_with_their_escapes(row: str, file: str, cell: str) -> None:
    text = f"# Project Rules Index\n\nx\n\n| Applies to | Rule file |\n| --- | --- |\n{row}\n"
    rows = parse_index(text)
    assert list(rows) == [file] and rows[file].cell == cell


def test_matched_names_the_alternative_that_matched(project: ProjectFactory) -> None:
    root = project({".ai/rules/b.md": "---\npaths:\n  - 'app/{Models/User.php,Http/**},config/billing.php,routes/web.php'\n---\n# B\n"})
    [m] = RuleRepository(root).rules_for("routes/web.php")
    assert m.matched == ["routes/web.php"]
    assert m.globs == ["app/{Models/User.php,Http/**},config/billing.php,routes/web.php"]
