"""check_project's run record and git session: what a check read itself comes back with its
findings, and git's answers go in through the session it is given (workspace/git.py), never
through a module's memory."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from rulelens.check_project import check_project, warm_up
from rulelens.rules.check.stale.text_search import gnu_grep
from rulelens.rules.repository import RuleRepository
from rulelens.workspace.git import LS_FILES, GitSession
from rulelens.workspace.later import Later
from tests.conftest import ProjectFactory

RULE = """---
paths:
  - 'app/**'
---
# Billing

Prices go through `app/Money.php`; `Money::fromCents()` builds one, `LegacyPriceHelper` rounds.
"""


def committed(root: Path) -> None:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "PATH": "/usr/bin:/bin"}
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-C", str(root), "commit", "-qm", "start"], check=True, env=env)


@pytest.fixture
def billing(project: ProjectFactory) -> Path:
    root = project({".ai/rules/billing.md": RULE,
                    "app/Money.php": "<?php\nfinal class Money { public static function fromCents() {} }\n",
                    "app/Other.php": "<?php\n// nothing here\n"}, git=True)
    committed(root)
    return root


def test_the_record_lists_what_the_check_read_itself_not_what_grep_searched(billing: Path) -> None:
    """The rule file and the folders listed are in the record; a source file only the name
    search reads (with grep, keyed by git's view) is not; a path a rule names that is not there
    is, as the place it would appear."""
    (billing / ".ai/rules/gone.md").write_text("---\npaths:\n  - 'app/**'\n---\n# G\n\nSee `docs/gone.md`.\n")
    committed(billing)
    read = check_project(RuleRepository(billing), git=GitSession()).record.read
    assert str(billing / ".ai/rules/billing.md") in read and str(billing / ".ai/rules") in read
    assert str(billing / "docs/gone.md") in read
    if gnu_grep() is not None:
        assert str(billing / "app/Other.php") not in read


def test_the_file_list_comes_from_the_session_it_is_given(billing: Path) -> None:
    """An answer given to the session is the file list the check reads: a nested agent folder
    that it leaves out is not found, and the answer is read once."""
    (billing / "web/.cursor/rules").mkdir(parents=True)
    (billing / "web/.cursor/rules/a.mdc").write_text("---\nglobs: app/**\n---\n# A\n")
    committed(billing)
    listed = b"\0".join(p.encode() for p in (".ai/rules/billing.md", "app/Money.php", "app/Other.php")) + b"\0"
    answer: Later[bytes | None] = Later()
    answer.set_result(listed)
    given = GitSession(given={(str(billing), LS_FILES): answer})
    assert given.gives(billing, *LS_FILES)
    assert check_project(RuleRepository(billing), git=given).agent_files == {}
    assert not given.gives(billing, *LS_FILES)
    mine = GitSession()
    assert check_project(RuleRepository(billing), git=mine).agent_files == {"Cursor": ["web/.cursor/rules/a.mdc"]}
    assert mine.work_tree(billing) and not GitSession().gives(billing, *LS_FILES)


def test_sessions_share_nothing(billing: Path, tmp_path: Path) -> None:
    """What one session learnt (a work tree, where git keeps the caches) is not another's."""
    from rulelens.workspace.cache_files import cache_file

    one, other = GitSession(), GitSession()
    assert cache_file(billing, "rulelens/x.json", one) is not None
    assert one.git_paths and not other.git_paths
    plain = tmp_path / "plain"
    plain.mkdir()
    assert cache_file(plain, "rulelens/x.json", other) is None and not other.git_paths


def test_a_view_no_search_took_is_not_left_for_the_next_check(project: ProjectFactory) -> None:
    """git's view asked early (the name search's cache exists) but not taken (no name to search)
    is dropped when the check ends: a later check through the same session (`check --fix`'s
    second, the MCP server's next) does not read the files' state of this one."""
    root = project({".ai/rules/plain.md": "---\npaths:\n  - 'app/**'\n---\n# Plain\n\nNo names.\n",
                    "app/x.php": "", ".git/rulelens/name-search.json": "{}"}, git=True)
    committed(root)
    session = GitSession()
    check_project(RuleRepository(root), git=session)
    assert session.take_view(root, ".ai/rules") is None


class _Started(GitSession):
    """A real session that notes what was started early (`start`) before starting it."""

    def __init__(self) -> None:
        super().__init__()
        self.early: list[tuple[str, ...]] = []

    def start(self, root: Path | str, *args: str) -> None:
        self.early.append(args)
        super().start(root, *args)


def test_every_front_s_check_starts_git_s_file_list_early(billing: Path) -> None:
    """`check_project` itself starts git's file list before it reads (`warm_up`): MCP's check
    gets what `rulelens check` does, and the list started is the one the check reads. Started
    by the front already (the command line, before the core loads), it is not started twice."""
    (billing / "web/.cursor/rules").mkdir(parents=True)
    (billing / "web/.cursor/rules/a.mdc").write_text("---\nglobs: app/**\n---\n# A\n")
    committed(billing)
    session = _Started()
    result = check_project(RuleRepository(billing), git=session)
    assert session.early[0] == LS_FILES  # first: the rest (the name search's view) follows
    assert result.agent_files == {"Cursor": ["web/.cursor/rules/a.mdc"]}
    assert not session._started  # read by the check, none left running
    front = _Started()
    warm_up(billing, front)
    assert front._started  # running before the core is loaded
    assert check_project(RuleRepository(billing), git=front).problems == result.problems
    assert not front._started and front.early[:2] == [LS_FILES, LS_FILES]  # the second started nothing


def test_a_broken_configuration_starts_no_git(billing: Path) -> None:
    """The configuration is read before anything starts: a long-lived front (MCP) is left with
    no started list for its next check to read stale."""
    from rulelens.rules.model import RuleError

    (billing / "rulelens.toml").write_text("[severity]\nno-such-code = 'off'\n")
    session = _Started()
    with pytest.raises(RuleError):
        check_project(RuleRepository(billing), git=session)
    assert session.early == [] and not session._started
