"""`rule-drift`: the code a rule file covers kept changing while the rule file did not.

One `git log --name-only` over the last MAX_COMMITS commits (non-merge, below the root) gives,
for every rule file, the commits since it last changed, and for every changed path, the commits
that changed it; a rule file's count is the commits since its last change that touched a path
its globs select. Outside a git work tree, or when git does not answer (workspace/git.py),
there is no hint.

DRIFT_AFTER = 20 commits by default: one pull request is typically one to a handful of commits,
so 20 commits on a rule's files without a look at the rule means several changes of that code
have landed since anyone read it, which is when a convention has usually moved; fewer would
flag ordinary upkeep on busy folders, and the hint is only a hint.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rulelens.glob_engines.boost import patterns_of
from rulelens.rules.check.stale import DRIFT_AFTER
from rulelens.rules.match.matcher import RuleSet
from rulelens.rules.model import Problem, RuleFile
from rulelens.workspace.cache_files import cache_file, write
from rulelens.workspace.filelist import FileList
from rulelens.workspace.git import (
    LEAN_HISTORY,
    GitFailed,
    GitSession,
    git_text,
    linear_range,
    run_git,
    stdout_blocks,
)

MAX_COMMITS = 1000
# A commit that changes more files than this is an import, a mass rename or a reformat, not a
# change of what a rule is about: only its rule files count (so that their last change is known).
BULK = 2000
HISTORY_CACHE = "rulelens/history.json"
TOUCHED_CACHE = "rulelens/drift.json"
TOUCHED_VERSION = 1  # raised when what a glob selects changes (rules/match)
SHOWN = 80


@dataclass(frozen=True)
class Commit:
    """One commit of the history: its date and the paths it changed."""

    date: str  # YYYY-MM-DD, the committer date
    paths: tuple[str, ...]


class History:
    """The recent commits below a root, newest first, with where each path changed."""

    def __init__(self, commits: list[Commit], complete: bool, tracked: frozenset[str],
                 root: Path | None = None, key: list[object] | None = None,
                 extends: tuple[list[object], int, int] | None = None,
                 git: GitSession | None = None) -> None:
        self.commits = commits
        self.git = git  # the run's session: where git keeps the caches
        self.root, self.key = root, key  # what the commits were read for (the kept cover's key)
        # The key of the kept history these commits extend, how many commits came first, and
        # how many the kept history held.
        self.extends = extends
        self.complete = complete  # the whole history fits in the window
        self.tracked = tracked  # rule files git tracks, for files not changed in the window
        self.changed_in: dict[str, list[int]] = defaultdict(list)
        for i, commit in enumerate(commits):
            for path in commit.paths:
                self.changed_in[path].append(i)
        self._paths: FileList | None = None
        self._edited: frozenset[str] | None = None
        self.rules_dir = "."  # where rule files are, for `edited` (`read` names it)
        self._cover: dict[tuple[str, ...], set[str]] = {}
        self._touched: dict[tuple[str, ...], set[int]] = {}

    @property
    def paths(self) -> FileList:
        if self._paths is None:
            self._paths = FileList(list(self.changed_in))
        return self._paths

    @classmethod
    def read(cls, root: Path, rules_dir: str, limit: int = MAX_COMMITS,
             git: GitSession | None = None) -> History | None:
        listed = run_git(root, "ls-files", "-z", "--", rules_dir)
        if listed is None:
            return None
        found = _read_commits(root, rules_dir, limit, git)
        if found is None:
            return None
        commits, complete, key, extends = found
        tracked = frozenset(p for p in listed.decode("utf-8", "surrogateescape").split("\0") if p)
        history = cls(commits, complete, tracked, root, key, extends, git)
        history.rules_dir = rules_dir
        return history

    def since(self, rule: RuleFile) -> int | None:
        """How many commits of the window came after the rule file's last change; None for a
        file git never committed."""
        last = self.changed_in.get(rule.rel)
        if last is None:
            return None if self.complete or rule.rel not in self.tracked else len(self.commits)
        return last[0]

    def edited(self, rel: str) -> bool:
        """Whether the rule file differs from HEAD, staged or not: someone is at it, which is
        what the hint asks for. One `git diff` for the whole rules folder, asked only when a
        hint would be given (a file edited since is the one the person is looking at)."""
        if self._edited is None:
            found: frozenset[str] = frozenset()
            if self.root is not None and self.key is not None:
                out = run_git(self.root, "diff", "--no-renames", "--name-only", "--relative", "-z", "HEAD",
                              "--", self.rules_dir)
                if out is not None:
                    found = frozenset(p for p in out.decode("utf-8", "surrogateescape").split("\0") if p)
            self._edited = found
        return rel in self._edited

    def cover_all(self, rules: Sequence[RuleFile], threshold: int) -> None:
        """What `covered` answers, for many rule files at once: each path changed since the
        oldest of their last changes looked up once in the matcher's index, instead of each
        rule's globs run over every changed path. Files that cannot reach the threshold (fewer
        commits since their last change) are left out."""
        rules = [r for r in rules if r.lenient_paths and (self.since(r) or 0) >= threshold]
        if not rules:
            return
        newest_first = max(self.since(r) or 0 for r in rules)
        globs = [r.lenient_paths for r in rules]
        kept = self._kept_touched(newest_first, globs)
        if kept is not None:
            self._touched.update(kept)
            return
        paths = {p for commit in self.commits[:newest_first] for p in commit.paths}
        ruleset = RuleSet(globs)
        cover: dict[tuple[str, ...], set[str]] = {tuple(r.lenient_paths): set() for r in rules}
        for path in paths:
            for i in ruleset.owners_of(path):
                cover[tuple(rules[i].lenient_paths)].add(path)
        self._cover.update(cover)
        self._keep_touched(newest_first, globs)

    def touched(self, items: list[str]) -> set[int]:
        """The commits (indices) that changed a path a rule file's `paths` select."""
        known = self._touched.get(tuple(items))
        if known is None:
            known = {i for path in self.covered(items) for i in self.changed_in[path]}
            self._touched[tuple(items)] = known
        return known

    # Which commits changed a path the globs select is a function of the commits (named by the
    # history's key) and of the globs: kept beside the history, so that a run on the same commit
    # (a pre-commit hook after an edit) does not look each changed path up again, and one after
    # new commits looks up only their paths.
    def _touched_key(self, newest_first: int, globs: list[list[str]],
                     history: list[object] | None = None) -> list[object] | None:
        from rulelens import __version__

        history = history or self.key
        if history is None or self.root is None:
            return None
        return ["rulelens-drift-touched", TOUCHED_VERSION, __version__, *history, newest_first,
                [list(g) for g in globs]]

    def _kept_touched(self, newest_first: int,
                      globs: list[list[str]]) -> dict[tuple[str, ...], set[int]] | None:
        """The kept answer for these commits, or for the kept history they extend when its
        window reached as far back (`_brought_up`); None when there is none."""
        key = self._touched_key(newest_first, globs)
        where = (cache_file(self.root, TOUCHED_CACHE, self.git)
                 if key is not None and self.root is not None else None)
        if where is None:
            return None
        with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
            raw = json.loads(where.read_bytes())
            if not (isinstance(raw["touched"], list) and len(raw["touched"]) == len(globs)):
                return None
            touched = {tuple(g): set(t) for g, t in zip(globs, raw["touched"], strict=True)}
            if not all(isinstance(i, int) for found in touched.values() for i in found):
                return None
            if raw["key"] == key:
                return touched
            if self.extends is None:
                return None
            history, added, held = self.extends
            # The same older commits looked up: as many after the new ones, or all of both
            # windows (paths changed only in commits that left the window change nothing).
            spans = [newest_first - added] + ([held] if newest_first == len(self.commits) else [])
            if any(raw["key"] == self._touched_key(n, globs, history) for n in spans if n >= 0):
                self._touched.update(self._brought_up(touched, added))
                self._keep_touched(newest_first, globs)
                return self._touched
        return None

    def _brought_up(self, kept: dict[tuple[str, ...], set[int]],
                    added: int) -> dict[tuple[str, ...], set[int]]:
        """`touched` for each glob list from the kept answer of the history these commits extend
        by `added` newer ones, over the same older commits (the window's oldest end moved by as
        many): the kept commits move down by `added` (those past the window drop out), and
        every commit that changed a path one of the new commits changed and the globs select is
        added (a path changed in the kept commits only was looked up already)."""
        paths = {p for commit in self.commits[:added] for p in commit.paths}
        ruleset = RuleSet([list(g) for g in kept])
        lists = list(kept)
        found: dict[tuple[str, ...], set[int]] = {
            g: {i + added for i in old if i + added < len(self.commits)} for g, old in kept.items()}
        for path in paths:
            for at in ruleset.owners_of(path):
                found[lists[at]].update(self.changed_in[path])
        return found

    def _keep_touched(self, newest_first: int, globs: list[list[str]]) -> None:
        key = self._touched_key(newest_first, globs)
        where = (cache_file(self.root, TOUCHED_CACHE, self.git)
                 if key is not None and self.root is not None else None)
        if where is not None:
            data = json.dumps({"key": key, "touched": [sorted(self.touched(g)) for g in globs]})
            with contextlib.suppress(OSError):
                write(where, data.encode("utf-8"))

    def covered(self, items: list[str]) -> set[str]:
        """The changed paths that a rule file's `paths` select (`!` items exclude)."""
        known = self._cover.get(tuple(items))
        if known is not None:
            return known
        selected: set[str] = set()
        for item in items:
            selected.update(self.paths.matching(item))
        for item in items:
            patterns = patterns_of(item)
            if patterns and not any(p.include for p in patterns):
                for p in patterns:
                    selected.difference_update(self.paths.lines_matching(p))
        return selected


def drift_problem(rule: RuleFile, history: History, threshold: int = DRIFT_AFTER,
                  files: FileList | None = None) -> Problem | None:
    """The hint for one rule file, or None (no globs, a new file, or below the threshold). A count
    of commits alone is no evidence: none for a rule younger than DRIFT_DAYS, whatever
    the repository's pace, nor for a rule whose globs select most of the project (`**` drifts
    with every commit); `files` is the project's list, for that share."""
    if threshold <= 0 or not rule.lenient_paths:
        return None
    last = history.changed_in.get(rule.rel)
    since = history.since(rule)
    if since is None or since < threshold:
        return None  # never committed, or too few commits since: nothing can have drifted enough
    changed = {i for i in history.touched(rule.lenient_paths) if i < since}
    if len(changed) < threshold or history.edited(rule.rel):
        return None  # too few, or the file is being edited: any edit resets the count
    days = _days(history.commits[since].date if last else history.commits[-1].date,
                 history.commits[0].date) if history.commits else 0
    if last and days < DRIFT_DAYS:
        return None  # a busy repository makes `threshold` commits in a day: too young to have drifted
    if files is not None and _broad(rule.lenient_paths, files):
        return None  # a rule for (nearly) everything: every commit counts, which says nothing of it
    globs = ", ".join(rule.lenient_paths)
    if len(globs) > SHOWN:
        globs = globs[: SHOWN - 1] + "…"
    if last:
        when = f"since this file last changed on {history.commits[since].date} ({days} days ago)"
        message = f"{globs} changed in {len(changed)} commits {when}: review it."
    else:
        oldest = history.commits[-1].date if history.commits else "?"
        message = (f"{globs} changed in {len(changed)} of the last {len(history.commits)} commits "
                   f"(back to {oldest}), and this file in none of them: review it.")
    return Problem(rule.rel, rule.heading_line or 0, "info", "rule-drift", message)


# A rule younger than this is not reported however many commits its files saw: a busy
# repository makes 20 commits in a day, and a rule written this week has not drifted.
DRIFT_DAYS = 14
# A rule whose globs select at least this share of the project's files covers (nearly)
# everything: every commit changes its files, so the count says nothing about this rule.
BROAD = 0.5


def _days(first: str, last: str) -> int:
    """Whole days from one YYYY-MM-DD date to another (0 when either cannot be read)."""
    from datetime import date

    try:
        return (date.fromisoformat(last) - date.fromisoformat(first)).days
    except ValueError:
        return 0


def _broad(items: list[str], files: FileList) -> bool:
    if not len(files):
        return False
    selected: set[str] = set()
    for item in items:
        if not item.startswith("!"):
            selected.update(files.matching(item))
    return len(selected) >= BROAD * len(files)


def _read_commits(root: Path, rules_dir: str, limit: int, git: GitSession | None = None) -> tuple[
        list[Commit], bool, list[object] | None, tuple[list[object], int, int] | None] | None:
    """The window's commits, newest first, whether it holds the whole history, what names
    them (None when HEAD does not: an empty repository), and when they extend a kept history,
    its key, how many commits came first and how many it held.

    What `git log` says about a commit never changes, so the result is kept for the commit HEAD
    names (`git rev-parse --git-path rulelens/history.json`, beside the name search's cache):
    a second `check` on the same commit does not read the log again, and after new commits on
    top of the kept one (`git.linear_range`), only theirs are read. A cache that cannot be
    read is ignored and rewritten."""
    state = (git_text(root, "rev-parse", "HEAD", "--is-shallow-repository") or "").split()
    head = state[0] if len(state) == 2 else ""
    key: list[object] = [head, str(root), rules_dir, limit, BULK]
    where = cache_file(root, HISTORY_CACHE, git) if head else None
    kept = _kept_commits(where) if where is not None else None
    if kept is not None and kept[0] == key:
        return kept[1], kept[2], key, None
    rules = rules_dir.rstrip("/") + "/"
    since = None
    # A shallow clone's history grows at its far end when it is deepened: read it whole.
    if kept is not None and state[1] == "false" and kept[0][1:] == key[1:] and isinstance(kept[0][0], str):
        added = linear_range(root, kept[0][0], head, limit)
        since = kept[0][0] if added is not None else None
    try:
        commits = _logged(root, rules, limit, since)
    except (GitFailed, ValueError):
        return None
    extends = None
    if since is not None and kept is not None:
        complete = kept[2] and len(commits) + len(kept[1]) < limit
        extends = (kept[0], len(commits), len(kept[1]))
        commits = (commits + kept[1])[:limit]
    else:
        complete = len(commits) < limit
    if where is not None:
        data = json.dumps({"key": key, "complete": complete,
                           "commits": [[c.date, list(c.paths)] for c in commits]}).encode("utf-8")
        with contextlib.suppress(OSError):
            write(where, data)
    return commits, complete, key if head else None, extends


def _kept_commits(where: Path) -> tuple[list[object], list[Commit], bool] | None:
    """The kept history's key, commits and completeness, or None when there is none to read."""
    with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
        raw = json.loads(where.read_bytes())
        kept = [Commit(date, tuple(paths)) for date, paths in raw["commits"]]
        if isinstance(raw["key"], list) and all(
                isinstance(c.date, str) and all(isinstance(p, str) for p in c.paths) for c in kept):
            return raw["key"], kept, bool(raw["complete"])
    return None


def _logged(root: Path, rules: str, limit: int, since: str | None) -> list[Commit]:
    """The last `limit` commits below the root, newest first, of HEAD's history or of
    `since..HEAD`; raises GitFailed or ValueError when git fails."""
    # A root commit's diff is its whole tree, which git holds at once (150 MB for 500,000
    # files): git leaves it out (log.showRoot=false) and `ls-tree` lists that tree instead.
    log = stdout_blocks(root, *LEAN_HISTORY, "-c", "log.showRoot=false", "log", "-z", "--no-merges",
                        "--no-renames", "--relative", "--name-only", "--format=%x01%cs%x02%H%x02%P",
                        f"-n{limit}", *([f"{since}..HEAD"] if since else []), "--", ".")
    commits = []
    for (date, commit, parents), paths in _parsed_log(log, rules):
        if not parents:
            tree = stdout_blocks(root, "ls-tree", "-r", "-z", "--name-only", commit, "--", ".")
            [(_, paths)] = _parsed_log(itertools.chain((b"\x01\0",), tree), rules)
        commits.append(Commit(date, paths))
    return commits


def _parsed_log(blocks: Iterable[bytes], rules: str) -> list[tuple[list[str], tuple[str, ...]]]:
    """Each commit's header fields (`%x02` apart) and paths, from `git log -z --name-only
    --format=%x01…`, read as git writes them: a commit past BULK paths keeps only its rule files
    from there on, so that a commit of 500,000 files never holds them all at once."""
    commits: list[tuple[list[str], tuple[str, ...]]] = []
    header: list[str] | None = None
    paths: list[bytes] = []
    seen = 0  # the commit's paths so far
    first = False  # git writes a newline before a commit's first path
    prefix = rules.encode("utf-8", "surrogateescape")

    def add(run: list[bytes]) -> None:
        nonlocal paths, seen, first
        if header is None or not run:
            return
        if first:
            run[0], first = run[0].lstrip(b"\n"), False
        run = [t for t in run if t]
        if seen <= BULK:
            seen += len(run)
            if seen <= BULK:
                paths.extend(run)
                return
            paths = [t for t in paths if t.startswith(prefix)]
        paths.extend(t for t in run if t.startswith(prefix))

    def close() -> None:
        if header is not None:
            commits.append((header, tuple(p.decode("utf-8", "surrogateescape") for p in paths)))

    carry = b""
    for block in itertools.chain(blocks, (b"\0",)):  # the last one ends the last path
        tokens = (carry + block).split(b"\0")
        carry = tokens.pop()
        start = 0
        for at in [i for i, t in enumerate(tokens) if t[:1] == b"\x01" or t[:2] == b"\n\x01"]:
            add(tokens[start:at])
            close()
            fields = tokens[at].lstrip(b"\n")[1:].decode("utf-8", "surrogateescape").split("\x02")
            header, paths, seen, first = [f.strip() for f in fields], [], 0, True
            start = at + 1
        add(tokens[start:])
    close()
    return commits
