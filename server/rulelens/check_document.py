"""`check` of one file as typed: the findings an editor shows for a rule file, the index or
another agent's file, configured as `check` configures a project's.

The language server converts these and nothing more, so that what the editor shows for a file is
what `check` says of it. Beside `check_project` for the same reason: it needs both `rules/` and
`agents/`. The configuration is applied here for one file as `check_project._kept` applies it
for a project (the same `configured`); grouping by cause is the project's alone, because the
editor shows each file its own finding.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rulelens.rules.model import Problem, RuleFile

if TYPE_CHECKING:
    from rulelens.agents.base import Agent
    from rulelens.agents.project import AgentProject
    from rulelens.workspace.filelist import FileList


@dataclass(frozen=True)
class DocumentCheck:
    """One file's configured findings; `config_error` when the project's configuration is
    broken (the findings are then kept at their own severities, as `check` would not run)."""

    problems: list[Problem]
    config_error: str | None = None


def check_rule_text(root: Path, rel: str, rule: RuleFile, text: str, files: FileList | None,
                    later: Sequence[Problem] = ()) -> DocumentCheck:
    """A rule file as typed (`rule` parsed from `text`). No `rule-drift`: it reads git history
    (an idle editor would re-read it on every file-list refresh). Staleness is searched apart,
    off the request path; its findings come in as `later`."""
    from rulelens.agents.dialect_words import worded
    from rulelens.rules.check.lint import check_file

    found = worded(check_file(rule, files, drift_after=0, staleness=False))
    return configured_document(root, rel, text, [*found, *later])


def check_index_text(root: Path, rel: str, current: str | None, generated: str,
                     unread: str | None = None) -> DocumentCheck:
    """The index as typed (`current`; None when there is none) against the one `index` writes;
    `unread` names a rule file that could not be read (the index cannot be regenerated as is)."""
    from rulelens.rules.check.lint import check_index

    return configured_document(root, rel, current or "", check_index(rel, current, generated, unread))


def check_agent_text(root: Path, project: AgentProject, agent: Agent, rel: str, text: str,
                     typed: str | None) -> DocumentCheck:
    """Another agent's file: `text` as shown, `typed` the buffer (None: read from disk);
    findings across files come from the files as saved."""
    from rulelens.agents.editing import file_problems

    return configured_document(root, rel, text, file_problems(project, agent, rel, typed))


def configured_document(root: Path, rel: str, text: str, problems: Sequence[Problem]) -> DocumentCheck:
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

    return DocumentCheck(configured(on_generated(mine, text_of, generated_by(root)), config, text_of), error)
