"""The core's check of one file as typed: what the editor shows is `check`'s findings for the file,
configured as `check` configures them, with no language server in between."""

from __future__ import annotations

from pathlib import Path

from rulelens.check_document import check_index_text, check_rule_text, configured_document
from rulelens.rules.format.reading import read_rule_file
from rulelens.rules.model import Problem
from rulelens.workspace.filelist import FileList

RULE = ".ai/rules/models.md"
TEXT = "---\npaths:\n  - 'app/Models/**'\n  - 'app/Nowhere/**'\n---\n\n# Models\n\n## Money\nCents.\n"


def _checked(root: Path, text: str) -> list[tuple[str, str]]:
    (root / RULE).write_text(text)
    rule = read_rule_file(root / RULE, RULE, True)
    found = check_rule_text(root, RULE, rule, text, FileList.for_root(root))
    return [(p.code, p.severity) for p in found.problems]


def _project(tmp_path: Path) -> Path:
    (tmp_path / ".ai/rules").mkdir(parents=True)
    (tmp_path / "app/Models").mkdir(parents=True)
    (tmp_path / "app/Models/User.php").write_text("<?php\n")
    return tmp_path


def test_a_rule_file_as_typed_gets_the_configured_severity(tmp_path: Path) -> None:
    root = _project(tmp_path)
    # A dead glob beside a live one is `info` (issue 44); the project's configuration raises it.
    assert _checked(root, TEXT) == [("glob-matches-nothing", "info")]
    (root / "rulelens.toml").write_text('[severity]\nglob-matches-nothing = "warning"\n')
    assert _checked(root, TEXT) == [("glob-matches-nothing", "warning")]


def test_the_directives_of_the_text_as_typed_apply_not_those_on_disk(tmp_path: Path) -> None:
    root = _project(tmp_path)
    typed = TEXT.replace("  - 'app/Nowhere/**'",
                         "  # rulelens-disable-next-line glob-matches-nothing\n  - 'app/Nowhere/**'")
    (root / RULE).write_text(TEXT)
    rule = read_rule_file(root / RULE, RULE, True, raw=typed.encode())
    assert check_rule_text(root, RULE, rule, typed, FileList.for_root(root)).problems == []
    rule = read_rule_file(root / RULE, RULE, True)
    assert [p.code for p in check_rule_text(root, RULE, rule, TEXT, FileList.for_root(root)).problems] == [
        "glob-matches-nothing"]


def test_a_broken_configuration_is_said_and_the_findings_are_kept(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "rulelens.toml").write_text('[severity]\nglob-matches-nothin = "off"\n')
    problem = Problem(RULE, 4, "warning", "glob-matches-nothing", "x")
    checked = configured_document(root, RULE, TEXT, [problem, Problem("other.md", 1, "warning", "x-y", "z")])
    assert checked.problems == [problem] and checked.config_error and "glob-matches-nothin" in checked.config_error


def test_the_index_as_typed_is_checked_against_the_one_index_writes(tmp_path: Path) -> None:
    root = _project(tmp_path)
    found = check_index_text(root, ".ai/rules/index.md", None, "| a | b |\n")
    assert [p.code for p in found.problems] == ["index-missing"]
