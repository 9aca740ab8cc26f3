"""`check` of one file as typed: the findings an editor shows for a rule file, the index or
another agent's file, configured as `check` configures a project's.

One entry, `check_document`, chooses the check by the document's kind and asks the document
(`DocumentSource`: the language server's snapshot) for what that check reads. The language server
converts the findings and nothing more, so that what the editor shows for a file is what `check`
says of it. Beside `check_project` for the same reason: it needs both `rules/` and
`agents/`. The configuration is applied here for one file as `check_project._kept` applies it
for a project (the same `configured`); grouping by cause is the project's alone, because the
editor shows each file its own finding.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from rulelens.rules.model import Problem, RuleFile

if TYPE_CHECKING:
    from rulelens.agents.base import Agent
    from rulelens.agents.project import AgentProject
    from rulelens.rules.repository import RuleRepository
    from rulelens.workspace.filelist import FileList


class DocumentSource(Protocol):
    """What the check of one document asks of the front that holds it (the language server's
    `DocumentSnapshot`): where it is, its text, and, for its kind, what that check reads."""

    @property
    def rel(self) -> str: ...
    @property
    def kind(self) -> str: ...  # "rule", "index", "agent" (anything else has no check)
    @property
    def buffer(self) -> str | None: ...  # the text as typed; None when read from disk
    @property
    def text(self) -> str: ...  # the text as shown: the buffer, else the disk
    @property
    def repo(self) -> RuleRepository: ...
    @property
    def rule(self) -> RuleFile | None: ...  # a rule file as typed
    def files(self) -> FileList: ...
    def agents(self) -> AgentProject: ...
    def owner(self) -> Agent | None: ...  # the agent whose file it is
    def later(self, rule: RuleFile, files: FileList) -> Sequence[Problem]: ...  # staleness


@dataclass(frozen=True)
class DocumentCheck:
    """One file's configured findings, placed in `text`; `config_error` when the project's
    configuration is broken (the findings are then kept at their own severities, as `check`
    would not run)."""

    problems: list[Problem]
    config_error: str | None = None
    text: str = ""


def check_document(doc: DocumentSource) -> DocumentCheck | None:
    """The findings of one document by its kind; None when it has nothing to check (a source
    file, or a rule file that cannot be read)."""
    root = doc.repo.root
    if doc.kind == "rule":
        rule = doc.rule
        if rule is None:
            return None
        files = doc.files()
        return _rule(root, doc.rel, rule, doc.text, files, doc.later(rule, files))
    if doc.kind == "index":
        repo = doc.repo
        current = doc.buffer if doc.buffer is not None else repo.current_index()
        return _index(root, doc.rel, current, repo.index_text(), repo.first_blocking())
    if doc.kind == "agent":
        agent = doc.owner()
        if agent is None:
            return DocumentCheck([], text=doc.text)
        return _agent(root, doc.agents(), agent, doc.rel, doc.text, doc.buffer)
    return None


def _rule(root: Path, rel: str, rule: RuleFile, text: str, files: FileList | None,
          later: Sequence[Problem] = ()) -> DocumentCheck:
    """A rule file as typed (`rule` parsed from `text`). No `rule-drift`: it reads git history
    (an idle editor would re-read it on every file-list refresh). Staleness is searched apart,
    off the request path; its findings come in as `later`."""
    from rulelens.agents.dialect_words import worded
    from rulelens.rules.check.lint import check_file

    found = worded(check_file(rule, files, drift_after=0, staleness=False))
    return _configured(root, rel, text, [*found, *later])


def _index(root: Path, rel: str, current: str | None, generated: str,
           unread: str | None = None) -> DocumentCheck:
    """The index as typed (`current`; None when there is none) against the one `index` writes;
    `unread` names a rule file that could not be read (the index cannot be regenerated as is)."""
    from rulelens.rules.check.lint import check_index

    return _configured(root, rel, current or "", check_index(rel, current, generated, unread))


def _agent(root: Path, project: AgentProject, agent: Agent, rel: str, text: str,
           typed: str | None) -> DocumentCheck:
    """Another agent's file: `text` as shown, `typed` the buffer (None: read from disk);
    findings across files come from the files as saved."""
    from rulelens.agents.editing import file_problems

    return _configured(root, rel, text, file_problems(project, agent, rel, typed))


def _configured(root: Path, rel: str, text: str, problems: Sequence[Problem]) -> DocumentCheck:
    """The file's own findings with the project's configuration and the inline directives of
    the text as typed."""
    from rulelens.agents.codes import known_agents, known_codes
    from rulelens.rules.check.boost_signs import BOOST_ONLY, boost_sign, without_boost
    from rulelens.rules.check.config import Config, ConfigError, configured, load_config
    from rulelens.rules.check.generated import on_generated
    from rulelens.rules.check.generators import generated_by
    from rulelens.workspace.reads import Reads

    mine = [p for p in problems if p.file == rel]
    if any(p.code in BOOST_ONLY for p in mine) and boost_sign(root, posixpath.dirname(rel), Reads()) is None:
        mine = without_boost(mine)
    error = None
    try:
        config = load_config(root, known_codes(), agent_ids=known_agents())
    except ConfigError as exc:
        config, error = Config(), str(exc)
    def text_of(path: str) -> str | None:
        return text if path == rel else None

    return DocumentCheck(configured(on_generated(mine, text_of, generated_by(root)), config, text_of), error,
                         text)
