"""`check` of Boost's rules folder: every rule file, then the index against the rule files.

A function over the repository rather than a method of it, so that `RuleRepository` stays what
Boost's is (read, match, record, index) and checking stays with the checks.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rulelens.rules.check.hand_index import hand_globs, stale_message, with_hand_globs
from rulelens.rules.check.lint import check_all, check_index
from rulelens.rules.check.stale import DRIFT_AFTER
from rulelens.rules.model import Problem
from rulelens.workspace.filelist import FileList

if TYPE_CHECKING:
    from rulelens.rules.repository import RuleRepository


def check_rules(repo: RuleRepository, files: FileList | None = None,
                drift_after: int = DRIFT_AFTER) -> list[Problem]:
    """Every problem in the rules and the index; files=None skips match-nothing checks."""
    if repo.rules_path.exists() and not repo.rules_path.is_dir():
        # Another tool's file at Boost's path (an `.ai/rules` of its own convention): a fact about
        # what rulelens reads, not a mistake of the team's, so `info`.
        said = (f"{repo.rules_dir} is a file, not Boost's rules folder: no Boost rules are read here. "
                "If this project keeps Boost's rules, move the file away and create the folder.")
        return [Problem(repo.rules_dir, 0, "info", "rules-folder-invalid", said)]
    problems = check_all(repo.files, files, drift_after)
    if repo.rules_path.is_dir():
        unread = repo.first_blocking()
        current = repo.current_index()
        hand = hand_globs(current, repo.files)
        problems = with_hand_globs(problems, hand)
        problems += [replace(p, message=stale_message(hand)) if hand and p.code == "index-stale" else p
                     for p in check_index(f"{repo.rules_dir}/index.md", current, repo.index_text(), unread)]
    return problems
