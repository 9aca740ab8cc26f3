"""`check` of a whole project: Boost's rules folder and every other agent's rule files, as data.

It lives above `rules/` and `agents/` because it needs both (the core's one-way layering keeps
`rules/` from importing `agents/`), and below the fronts so that the command line, MCP and the
language server ask the same question and get the same findings. It renders nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulelens.rules.check.stale import DRIFT_AFTER
from rulelens.rules.model import Fix, Problem, RuleError

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from rulelens.agents.traps import Drift
    from rulelens.rules.check.config import Config
    from rulelens.rules.repository import RuleRepository  # not loaded by `warm_up`'s caller
    from rulelens.workspace.filelist import FileList
    from rulelens.workspace.git import GitSession
    from rulelens.workspace.reads import Reads

Progress = Callable[[str], None]


@dataclass(frozen=True)
class RunRecord:
    """What a check took from the project's files besides git's view, for a front that keeps its
    answer (cli/result_cache.py, as ruff's cache keeps its linter's): every path it opened,
    stat'ed or listed itself (absolute; workspace/reads.py), the rules folder and the agents'
    files among them. The text of the other files reaches the findings only through the name
    search, which git's view keys."""

    read: frozenset[str] = frozenset()


@dataclass(frozen=True)
class ProjectCheck:
    """The findings, and what was counted to find them."""

    problems: list[Problem]
    rules_dir: str
    rule_files: int  # Boost's rule files in the rules folder
    # Other agents' rule files: each file once, under the first agent (in registry order) that reads it.
    agent_files: dict[str, list[str]] = field(default_factory=dict)
    has_rules: bool = True
    # What mends each cause that repeats across files (causes.py), for `check --fix`.
    fixes: list[Fix] = field(default_factory=list)
    # Every other agent that reads some of those files, as `map` and `match --agents` list them
    # (`agent_files` names each file once, so it holds fewer agents than read them).
    other_agents: tuple[str, ...] = ()
    record: RunRecord = field(default_factory=RunRecord)

    @property
    def nothing_to_check(self) -> bool:
        return not self.has_rules and not self.agent_files

    @property
    def files_checked(self) -> int:
        return self.rule_files + sum(len(files) for files in self.agent_files.values())


def warm_up(root: Path, git: GitSession, rules: Path | None = None) -> None:
    """Start what a check waits on first, so that it runs on the other core meanwhile: git's
    file list, and, where git runs (subprocess is loaded for it) and the rules folder (`rules`,
    else Boost's `.ai/rules`) is there, `grep --version` (the name search of Boost's rules asks
    whether grep is GNU's; a project without them never searches). `rulelens check` calls it
    before it loads the rest of the core; `check_project` calls it too, so that every front's
    check gets it (a second call starts nothing)."""
    from rulelens.workspace.git import LS_FILES, no_repository
    from rulelens.workspace.root import RULES_DIR

    git.start(root, *LS_FILES)
    if not no_repository(root) and os.path.isdir(rules if rules is not None else root / RULES_DIR):
        from rulelens.rules.check.stale.text_search import probe_grep

        probe_grep()


def check_project(repo: RuleRepository, drift_after: int = DRIFT_AFTER,
                  progress: Progress | None = None, git: GitSession | None = None) -> ProjectCheck:
    """Check the rules folder (lint, index, staleness, drift) and the other agents' files.
    `git`: the run's session (workspace/git.py), with what git answered or was asked
    already; a new one when None."""
    from rulelens.agents.codes import known_agents, known_codes
    from rulelens.rules.check.config import load_config
    from rulelens.workspace.git import GitSession
    from rulelens.workspace.reads import Reads

    if drift_after < 0:
        raise RuleError("--drift-after needs a number of commits, 0 or more.")
    reads = Reads()
    # A broken configuration stops before the work.
    config = load_config(repo.root, known_codes(), reads, known_agents())
    say = progress or (lambda _: None)
    session = git if git is not None else GitSession()
    # after the configuration: a broken one stops before any git starts
    warm_up(repo.root, session, repo.rules_path)
    if repo.frontmatter.git is None:
        repo.frontmatter.git = session  # where git keeps the caches, asked once for all of them
    if os.path.isdir(repo.rules_path):  # the name search of Boost's rules: none without them
        from rulelens.rules.check.stale.search_cache import start_snapshot

        # git stats the files while they are listed and read
        start_snapshot(repo.root, repo.rules_dir, session)
    try:
        return _checked(repo, drift_after, say, session, config, reads)
    finally:
        # git's view asked early that no search took (no name to search) is dropped: a later
        # check through the same session (`check --fix`'s second, the MCP server's next) asks
        # again rather than read the files' state of this one.
        session.take_view(repo.root, repo.rules_dir)


def _checked(repo: RuleRepository, drift_after: int, say: Progress, session: GitSession,
             config: Config, reads: Reads) -> ProjectCheck:
    from rulelens.agents.dialect_words import worded
    from rulelens.agents.project import AgentProject
    from rulelens.agents.traps import agent_check
    from rulelens.rules.check.config import disk_reader
    from rulelens.rules.check.rule_kit import as_kit, kit_sign
    from rulelens.workspace.filelist import FileList

    say("listing the project's files")
    files = FileList.for_root(repo.root, session, reads)
    say(f"reading the agents' rule files ({len(files):,} project files)")
    agents = AgentProject(repo, files)
    repo.frontmatter.save()  # every frontmatter is parsed by now: the next run reads them back
    others = agents.others
    has_rules = reads.exists(repo.rules_path)
    counted: dict[str, list[str]] = {}
    seen: set[str] = set()
    for agent in others:
        for f in agent.files:
            if f.rel not in seen:
                seen.add(f.rel)
                counted.setdefault(agent.name, []).append(f.rel)
    if not has_rules and not others:
        return ProjectCheck([], repo.rules_dir, 0, {}, has_rules=False, record=_record(files, repo))
    rules = "1 rule file" if len(repo.files) == 1 else f"{len(repo.files):,} rule files"
    say(f"checking {rules} against {len(files):,} project files")
    problems: list[Problem] = []
    if has_rules:  # Boost's findings (and the modules that make them) only where its rules are
        from rulelens.rules.check.boost_signs import boost_sign, without_boost
        from rulelens.rules.check.rules_check import check_rules

        problems = check_rules(repo, files, drift_after)
    readers = [a for a in others if a.keys] or None  # None: every agent, as no file names them
    problems = worded(problems, readers)
    if has_rules and boost_sign(repo.root, repo.rules_dir, reads) is None:
        problems = without_boost(problems)
    say("checking the other agents' rule files")
    found, drifts = agent_check(agents)
    problems += found
    agent_files = [f.rel for a in others for f in a.files]
    rule_files = [*(r.rel for r in repo.files), *agent_files]
    read = disk_reader(repo.root, reads=reads)
    problems += _plugin_problems(repo, files, agent_files, reads)
    kit = kit_sign(files.paths, read, rule_files)
    if kit is not None:
        problems = as_kit(problems, kit)
    problems = _planned(repo, files, rule_files, problems, session, read)
    kept, fixes = _kept(repo, problems, config, drifts, reads, read)
    return ProjectCheck(kept, repo.rules_dir, len(repo.files) if has_rules else 0, counted, has_rules, fixes,
                        other_agents=tuple(a.name for a in others if a.files), record=_record(files, repo))


def _planned(repo: RuleRepository, files: FileList, rule_files: list[str], problems: list[Problem],
             session: GitSession, read: Callable[[str], str | None]) -> list[Problem]:
    """Dead globs that name a folder the project plans, as `info` (rules/check/planned.py); git's
    history is asked only for such a glob, which most projects have none of."""
    from rulelens.rules.check.planned import as_planned

    def ever_committed(folder: str) -> bool | None:
        out = session.run_git(repo.root, "log", "--all", "--format=%h", "-1", "--", folder)
        return None if out is None else bool(out.strip())

    return as_planned(problems, files.paths, rule_files, read, ever_committed)


def _plugin_problems(repo: RuleRepository, files: FileList, agent_files: list[str],
                     reads: Reads) -> list[Problem]:
    """`claude-plugin-extensions`: the Claude Code plugin `init --claude` wrote maps fewer file
    extensions than the rules reach now, so Claude Code runs no language server for the others."""
    from rulelens.rules.check.plugin_map import MANIFEST, RERUN, ruled_paths, unmapped_extensions

    if not reads.is_file(repo.root / MANIFEST):
        return []
    found = unmapped_extensions(repo.root, ruled_paths(repo.root, files, agent_files, repo.files), reads)
    if found is None:
        return []
    where, missing = found
    more = f" and {len(missing) - 6} more" if len(missing) > 6 else ""
    shown = ", ".join(f"`{e}`" for e in missing[:6]) + more
    return [Problem(where, 0, "warning", "claude-plugin-extensions",
                    f"The rules now reach {shown} files, which this plugin's language server does not "
                    f"map, so Claude Code starts no rulelens server for them and their rules never "
                    f"show. Run `{RERUN}` again to map them.")]


def _record(files: FileList, repo: RuleRepository) -> RunRecord:
    return RunRecord(frozenset({*files.reads.paths, *map(str, repo.read_paths())}))


def _kept(repo: RuleRepository, problems: list[Problem], config: Config, drifts: Sequence[Drift],
          reads: Reads, read: Callable[[str], str | None]) -> tuple[list[Problem], list[Fix]]:
    """The one place where findings are filtered before any front sees them: the project's
    configuration (severities, excluded paths) and the inline directives in the rule files; then
    one finding per cause that repeats across files (causes.py), with its fix."""
    from rulelens.causes import by_cause
    from rulelens.rules.check.boost_block import RULES_FOLDER, without_boost_imports
    from rulelens.rules.check.config import configured
    from rulelens.rules.check.generated import at_sources, on_generated
    from rulelens.rules.check.generators import generated_by

    problems = without_boost_imports(problems, read, reads.exists(repo.root / RULES_FOLDER))
    writer = generated_by(repo.root, reads)
    problems = [*on_generated(problems, read, writer), *at_sources(problems, read, writer)]
    return by_cause(configured(problems, config, read), drifts, read)
