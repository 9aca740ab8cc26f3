"""The index format (SPEC §4), with and without rows."""

from __future__ import annotations

from rulelens.rules.format.index_render import HEADER
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory

EXPECTED_HEADER = (
    "# Project Rules Index\n\n"
    "Before planning or editing, find the row whose globs match the file's path and read that rule file.\n\n"
)


def test_empty_index(project: ProjectFactory) -> None:
    root = project({".ai/rules/notes.md": "# Notes without paths\n"})
    assert RuleRepository(root).index_text() == EXPECTED_HEADER + "No rules recorded yet.\n"


def test_rows_sorted_by_path_bytes_including_boost(project: ProjectFactory) -> None:
    root = project({
        ".ai/rules/chat.md": "---\npaths:\n  - 'app/Chat/**'\n  - \"config/chat.php\"\n---\n",
        ".ai/rules/Zeta.md": "---\npaths: z/**\n---\n",
        ".ai/rules/boost/models.md": "---\npaths:\n  - 'app/Models/**'\n---\n## M\n",
        ".ai/rules/broken.md": "---\npaths:\n  - **/*.php\n---\n",
        ".ai/rules/pipe.md": "---\npaths:\n  - 'a|b/**'\n---\n",
        ".ai/rules/commas.md": "---\npaths:\n  - 'a/**,b/**'\n---\n",
    })
    assert HEADER == EXPECTED_HEADER
    assert RuleRepository(root).index_text() == EXPECTED_HEADER + (
        "| Applies to | Rule file |\n"
        "| --- | --- |\n"
        "| z/** | .ai/rules/Zeta.md |\n"
        "| app/Models/** | .ai/rules/boost/models.md |\n"
        "| app/Chat/**, config/chat.php | .ai/rules/chat.md |\n"
        "| a/**,b/** | .ai/rules/commas.md |\n"
        "| a\\|b/** | .ai/rules/pipe.md |\n"
    )


def test_write_index_is_idempotent(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": "---\npaths:\n  - 'a/**'\n---\n"})
    repo = RuleRepository(root)
    assert repo.write_index() is True
    assert repo.write_index() is False
    assert repo.index_is_current()
