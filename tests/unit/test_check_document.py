"""The core's check of one file as typed: what the editor shows is `check`'s findings for the file,
configured as `check` configures them, with no language server in between. `check_document` is
its one entry; it chooses the check by the document's kind."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from rulelens.agents.base import Agent
from rulelens.agents.project import AgentProject
from rulelens.check_document import DocumentCheck, DocumentSource, check_document
from rulelens.rules.format.reading import read_rule_file
from rulelens.rules.model import Problem, RuleFile
from rulelens.rules.repository import RuleRepository
from rulelens.workspace.filelist import FileList

RULE = ".ai/rules/models.md"
INDEX = ".ai/rules/index.md"
TEXT = "---\npaths:\n  - 'app/Models/**'\n  - 'app/Nowhere/**'\n---\n\n# Models\n\n## Money\nCents.\n"


@dataclass
class Typed:
    """A document as a front holds it: its text as typed (`buffer`), else the file on disk."""

    root: Path
    rel: str
    kind: str
    buffer: str | None = None
    stale: list[Problem] = field(default_factory=list)

    @cached_property
    def repo(self) -> RuleRepository:
        return RuleRepository(self.root)

    @property
    def text(self) -> str:
        return self.buffer if self.buffer is not None else (self.root / self.rel).read_text()

    @property
    def rule(self) -> RuleFile | None:
        raw = self.buffer.encode() if self.buffer is not None else None
        return read_rule_file(self.root / self.rel, self.rel, True, raw=raw)

    def files(self) -> FileList:
        return FileList.for_root(self.root)

    def agents(self) -> AgentProject:
        return AgentProject(self.repo, self.files())

    def owner(self) -> Agent | None:
        return self.agents().owner_of(self.rel)

    def later(self, rule: RuleFile, files: FileList) -> Sequence[Problem]:
        return self.stale


def _check(doc: DocumentSource) -> DocumentCheck:
    checked = check_document(doc)
    assert checked is not None
    return checked


def _checked(root: Path, text: str) -> list[tuple[str, str]]:
    (root / RULE).write_text(text)
    return [(p.code, p.severity) for p in _check(Typed(root, RULE, "rule")).problems]


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
    checked = _check(Typed(root, RULE, "rule", typed))
    assert checked.problems == [] and checked.text == typed
    assert [p.code for p in _check(Typed(root, RULE, "rule")).problems] == ["glob-matches-nothing"]


def test_staleness_found_apart_joins_the_rule_files_findings(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / RULE).write_text(TEXT)
    stale = Problem(RULE, 9, "warning", "stale-path", "app/Gone.php is no longer in the project")
    assert [p.code for p in _check(Typed(root, RULE, "rule", stale=[stale])).problems] == [
        "glob-matches-nothing", "stale-path"]


def test_a_broken_configuration_is_said_and_the_findings_are_kept(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / RULE).write_text(TEXT)
    (root / "rulelens.toml").write_text('[severity]\nglob-matches-nothin = "off"\n')
    checked = _check(Typed(root, RULE, "rule"))
    assert [(p.code, p.severity) for p in checked.problems] == [("glob-matches-nothing", "info")]
    assert checked.config_error and "glob-matches-nothin" in checked.config_error


def test_the_index_as_typed_is_checked_against_the_one_index_writes(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / RULE).write_text(TEXT)
    assert [p.code for p in _check(Typed(root, INDEX, "index")).problems] == ["index-missing"]
    written = RuleRepository(root).index_text()
    assert _check(Typed(root, INDEX, "index", written)).problems == []


def test_another_agents_file_gets_its_agents_findings_and_a_source_file_none(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / ".cursor/rules").mkdir(parents=True)
    mdc = ".cursor/rules/models.mdc"
    (root / mdc).write_text("---\nglobs: app/Nowhere/**\n---\nUse cents.\n")
    checked = _check(Typed(root, mdc, "agent"))
    assert checked.text.startswith("---\nglobs:") and checked.problems, checked
    assert check_document(Typed(root, "app/Models/User.php", "source")) is None
