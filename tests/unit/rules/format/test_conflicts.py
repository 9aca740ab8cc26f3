"""Merge conflict markers in rule files and the index (rules/format/conflicts.py)."""

from __future__ import annotations

import pytest

from rulelens.rules.check.rules_check import check_rules
from rulelens.rules.format.conflicts import conflict_lines
from rulelens.rules.model import RuleError
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory
from tests.stale_rules import CONFLICT, codes, rule_text


def test_conflict_markers_and_what_is_not_one() -> None:
    assert conflict_lines("# T\n\n" + CONFLICT) == [2]
    assert conflict_lines("<<<<<<< HEAD\nA\n||||||| base\nO\n=======\nB\n>>>>>>> x\n") == [0]
    assert conflict_lines("Title\n=======\n\nText\n") == []  # a heading underline
    assert conflict_lines("```text\n" + CONFLICT + "```\n") == []  # an example in a code block
    assert conflict_lines("<<<<<<< HEAD\nno middle or end\n") == []
    assert conflict_lines(CONFLICT.replace("\n", "\r\n")) == [0]


def test_check_reports_rule_and_index_conflicts(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": rule_text("x") + CONFLICT,
                    ".ai/rules/index.md": "# Project Rules Index\n" + CONFLICT})
    found = codes(check_rules(RuleRepository(root)), "rule-conflict", "index-conflict", "index-stale")
    assert [(c, line) for c, line, _ in found] == [("rule-conflict", 10), ("index-conflict", 2)]


def test_index_regenerates_a_conflicted_index(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": rule_text("x"), ".ai/rules/index.md": CONFLICT})
    repo = RuleRepository(root)
    assert repo.write_index() is True
    assert repo.current_index() == repo.index_text()
    assert "<<<<<<<" not in (root / ".ai/rules/index.md").read_text()


def test_index_refuses_while_a_rule_file_has_markers_and_writes_nothing(project: ProjectFactory) -> None:
    root = project({".ai/rules/a.md": rule_text("x"), ".ai/rules/b.md": rule_text("y") + CONFLICT,
                    ".ai/rules/index.md": CONFLICT})
    with pytest.raises(RuleError, match=r"\.ai/rules/b\.md has merge conflict markers \(line 10\)"):
        RuleRepository(root).write_index()
    assert (root / ".ai/rules/index.md").read_text() == CONFLICT
