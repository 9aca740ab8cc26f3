"""What the project's history shows about a path or a name a rule mentions and the project lacks.

A rule that names something absent is stale only when that thing belonged to the project: a
path that was committed and then deleted or moved, a class, function, method or constant that
was declared here and whose declaration was deleted. Anything else (a path in another
repository, a file the rule asks for, a method of an installed dependency, a naming-convention
example) is not evidence of staleness, and rulelens says nothing about it.

Two passes of git, both for all mentions at once:
- every path deleted in HEAD's history (`git log --diff-filter=D --no-renames --name-only`:
  trees only, no file contents; a move reads as the deletion of its old path);
- for the names not explained by a deleted file named after them, one `git log -G` for the
  changes that hold any of them, with their patches, whose removed lines are read for a
  declaration of one (`class X`, `function X`, `def X`, …).
Both are kept for the commit HEAD names (`git rev-parse --git-path rulelens/evidence.json`):
what a commit's history says never changes. When HEAD extends the kept commit by up to
MAX_RANGE commits without a merge (`git.linear_range`), only those are read, for deletions and
for the kept names' declarations, and combined with what is kept: the same answer as a read of
the whole history. A shallow clone has no full history: no evidence.
"""

from __future__ import annotations

import bisect
import contextlib
import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rulelens.workspace.cache_files import cache_file, write
from rulelens.workspace.git import (
    LEAN_HISTORY,
    GitSession,
    git_text,
    linear_range,
    run_git,
    run_git_split,
)

CACHE = "rulelens/evidence.json"
VERSION = 1
SUBJECT = 60  # characters of a commit subject quoted in a message
# The `log -G` is split across cores from this many commits (below, starting the processes costs
# more than it saves), into at most this many slices (each git holds up to about 40 MB).
SPLIT_FROM = 64
MAX_SLICES = 4
# Past this many commits since the kept evidence's commit, the history is read whole again: a
# range that long costs about what the whole log of a typical history does.
MAX_RANGE = 1000
# Up to this many names, a patch's lines that hold one are found first (`_changed_lines`).
FEW_NAMES = 32
# Declaration keywords of the common languages (PHP, JS/TS, Python, Ruby, Go, Rust, Java, C#,
# Kotlin, Swift): a line of a patch that declares a name starts the name with one of them.
KEYWORDS = ("class", "interface", "trait", "enum", "struct", "record", "function", "func", "def",
            "fn", "const", "let", "var", "val", "type", "module", "object", "protocol")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Removal:
    """The commit that removed a path or a declaration (the newest one, when several did)."""

    commit: str
    date: str
    subject: str
    path: str  # the path deleted, or the file the declaration was deleted from
    file: bool = True  # the path itself was deleted (not only a declaration in it)

    def when(self) -> str:
        subject = self.subject if len(self.subject) <= SUBJECT else self.subject[: SUBJECT - 1] + "…"
        return f'{self.commit} ({self.date}, "{subject}")'


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def names_pattern(names: Iterable[str]) -> str:
    """A POSIX extended regex (git's `-G`) for a changed line that holds any of the names.

    Only the names: every line that declares one holds it, so the commits and files `-G` keeps
    include every declaration, and `_declares` then reads the declarations out of their patches.
    A regex with the declaration keywords and the word edges in it chose the same declarations
    but took git four times as long (glibc's matcher is slow on a leading `(^|[^…])`)."""
    return "|".join(sorted(set(names)))  # identifiers (`_WORD`): nothing to escape


def _declares(names: set[str]) -> re.Pattern[str]:
    alternation = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    keywords = "|".join(KEYWORDS)
    return re.compile(rf"(?:^|[^A-Za-z0-9_$])(?:{keywords})\s+&?({alternation})(?![A-Za-z0-9_])|"
                      rf"func\s*\([^)]*\)\s*({alternation})(?![A-Za-z0-9_])")


# A line that names a patch's file: `--- a/path` or `+++ b/path` (searched in "\n" + patch).
_FILE_LINE = re.compile(r"\n(?:--- a/|\+\+\+ b/)([^\n]*)")


def _changed_lines(patch: str, holding: re.Pattern[str] | None) -> Iterator[tuple[int, str]]:
    """The lines of a patch that may declare a name, with where each starts: those that hold
    one of the names (`holding`), found by the names alone, which Python's matcher does up to 10x
    as fast as the declarations on every line when the names are few; else every line."""
    if holding is None:
        start = 0
        for line in patch.split("\n"):
            yield start, line
            start += len(line) + 1
        return
    at = 0
    while (hit := holding.search(patch, at)) is not None:  # a name never spans lines
        start = patch.rfind("\n", 0, hit.start()) + 1
        end = patch.find("\n", hit.end())
        end = len(patch) if end < 0 else end
        yield start, patch[start:end]
        at = end + 1


def _path_before(files: list[tuple[int, str]], start: int) -> str:
    """The file of the patch line at `start`: the last file line above it."""
    at = bisect.bisect_left(files, (start, "")) - 1
    return files[at][1] if at >= 0 else ""


class Evidence:
    """HEAD's history, read for evidence of what was removed (see the module docstring)."""

    def __init__(self, root: Path, rules_dir: str, head: str, git: GitSession | None = None) -> None:
        self.root, self.rules_dir, self.head = root, rules_dir, head
        self.commits: list[tuple[str, str, str]] = []
        self.deleted: dict[str, int] = {}  # deleted path -> newest commit that deleted it
        self.by_name: dict[str, list[str]] = {}  # last segment -> deleted paths and their folders
        self.folders: dict[str, int] = {}
        self.names: dict[str, Removal | None] = {}
        self._where = cache_file(root, CACHE, git)
        self._dirty = False
        # Kept names whose answer for the kept commit `_since` is to be brought up to HEAD.
        self._since: str | None = None
        self._stale: dict[str, Removal | None] = {}
        self._newer = 0  # how many of the commits are the range's

    @classmethod
    def read(cls, root: Path, rules_dir: str, git: GitSession | None = None) -> Evidence | None:
        """The evidence of this work tree's history; None without git, a commit or full history.
        `git`: the run's session (where git keeps the cache)."""
        head = git_text(root, "rev-parse", "HEAD", "--is-shallow-repository")
        if head is None:
            return None
        parts = head.split()
        if len(parts) != 2 or parts[1] != "false":
            return None
        evidence = cls(root, rules_dir, parts[0], git)
        if not evidence._load() and not evidence._read_deleted():
            return None
        return evidence

    # -- deleted paths ------------------------------------------------------------------
    def _read_deleted(self, since: str | None = None,
                      kept: list[tuple[str, int]] | None = None) -> bool:
        """Read the deleted paths of HEAD's history, or of `since..HEAD` followed by those kept
        for `since` (`kept`, with their commits in `self.commits`): the range's deletions are
        newer than every kept one, so the kept commits' indexes move down by the range's."""
        out = run_git(self.root, *LEAN_HISTORY, "log", "--no-merges", "--diff-filter=D", "--no-renames",
                      "--name-only", "-z", "--format=%x01%h%x02%cs%x02%s",
                      *([f"{since}..HEAD"] if since else []), "--", ".")
        if out is None:
            return False
        commits: list[tuple[str, str, str]] = []
        rows: list[tuple[str, int]] = []
        for chunk in out.decode("utf-8", "surrogateescape").split("\x01")[1:]:
            head, _, rest = chunk.partition("\0")
            commit, date, subject = [*head.split("\x02"), "", ""][:3]
            commits.append((commit, date, subject.strip()))
            rows.extend((p.strip("\n"), len(commits) - 1) for p in rest.split("\0") if p.strip("\n"))
        shift = self._newer = len(commits)
        self.commits = commits + self.commits
        self._index(rows + [(p, n + shift) for p, n in kept or []])
        self._dirty = True
        return True

    def _index(self, rows: list[tuple[str, int]]) -> None:
        for path, n in rows:
            self.deleted.setdefault(path, n)  # newest first: the first is the newest deletion
            folder = path.rpartition("/")[0]
            while folder and folder not in self.folders:
                self.folders[folder] = n
                folder = folder.rpartition("/")[0]
        for path in list(self.deleted) + list(self.folders):
            self.by_name.setdefault(path.rpartition("/")[2], []).append(path)

    def _removal(self, n: int, path: str) -> Removal:
        commit, date, subject = self.commits[n]
        return Removal(commit, date, subject, path)

    def path_removal(self, rel: str, anchored: bool, folder: bool) -> Removal | None:
        """The newest deletion of the path, of a file below it (a folder), or of a longer path
        that ends with it (`Models/User.php` names `app/Models/User.php`) unless it is anchored."""
        best: tuple[int, str] | None = None
        for full in self.by_name.get(rel.rpartition("/")[2], []):
            if full != rel and (anchored or not full.endswith("/" + rel)):
                continue
            n = None if folder else self.deleted.get(full)
            if n is None:
                n = self.folders.get(full)
            if n is not None and (best is None or n < best[0]):
                best = (n, full)
        return self._removal(*best) if best is not None else None

    def files_named(self, names: set[str], newer: int | None = None) -> dict[str, Removal]:
        """The newest deletion of a file named after each name that has one
        (`LegacyPriceHelper.php`), in one pass over the deleted paths; only deletions in the
        `newer` newest commits, when given."""
        best: dict[str, tuple[int, str]] = {}
        for path, n in self.deleted.items():
            if path.startswith(self.rules_dir + "/") or (newer is not None and n >= newer):
                continue
            stem = path.rpartition("/")[2].partition(".")[0]
            if stem in names and (stem not in best or n < best[stem][0]):
                best[stem] = (n, path)
        return {name: self._removal(*found) for name, found in best.items()}

    # -- deleted declarations -------------------------------------------------------------
    def explain(self, names: Iterable[str]) -> None:
        """Look up, in one `git log -G`, where each name's declaration was deleted."""
        self._bring_up()
        todo = sorted({n for n in names if n not in self.names and _WORD.fullmatch(n)})
        if not todo:
            return
        files = self.files_named(set(todo))
        for name in todo:
            self.names[name] = files.get(name)
        ask = [n for n in todo if self.names[n] is None]
        self._dirty = True
        if not ask:
            return
        out = self._removals(names_pattern(ask))
        if out is None:
            return
        for name, removal in self._removed(out, set(ask)).items():
            if self.names.get(name) is None:
                self.names[name] = removal

    def _bring_up(self) -> None:
        """The kept names' answers for the kept commit, brought up to HEAD: a file named after
        the name deleted in the range is the newest deletion (`files_named` wins over a declaration,
        as in `explain`); else the range's newest removal of a declaration, or the kept answer."""
        if self._since is None:
            return
        since, stale = self._since, self._stale
        self._since, self._stale = None, {}
        files = self.files_named(set(stale), self._newer)
        ask = {n for n, kept in stale.items() if n not in files and (kept is None or not kept.file)}
        found: dict[str, Removal] = {}
        if ask:
            out = self._removals(names_pattern(ask), since)
            if out is None:
                return  # the kept names are dropped: each is looked up again when asked
            found = self._removed(out, ask)
        for name, kept in stale.items():
            self.names[name] = files.get(name) or found.get(name) or kept

    @staticmethod
    def _removed(out: bytes, ask: set[str]) -> dict[str, Removal]:
        """Each name's newest removal of its declaration in a `log -G -p` (newest first); a
        commit that both removes and adds a declaration of the name does not remove it."""
        found: dict[str, Removal] = {}
        declares = _declares(ask)
        # Only the lines that hold a name can declare one (past FEW_NAMES, most lines do).
        holding = (re.compile("|".join(re.escape(n) for n in sorted(ask, key=len, reverse=True)))
                   if len(ask) <= FEW_NAMES else None)
        for chunk in out.decode("utf-8", "surrogateescape").split("\x01")[1:]:
            head, _, patch = chunk.partition("\n")
            commit, date, subject = [*head.split("\x02"), "", ""][:3]
            removed: dict[str, str] = {}
            added: set[str] = set()
            files: list[tuple[int, str]] | None = None  # the file lines, read on a first removal
            for start, line in _changed_lines(patch, holding):
                if line[:1] not in ("-", "+") or line.startswith(("--- ", "+++ ")):
                    continue
                for m in declares.finditer(line[1:]):
                    name = m.group(1) or m.group(2)
                    if line[0] == "-":
                        if files is None:
                            files = [(f.start(), f.group(1)) for f in _FILE_LINE.finditer("\n" + patch)]
                        removed.setdefault(name, _path_before(files, start))
                    else:
                        added.add(name)
            for name, where in removed.items():
                if name not in added and name not in found:
                    found[name] = Removal(commit, date, subject.strip(), where, file=False)
        return found

    def _removals(self, pattern: str, since: str | None = None) -> bytes | None:
        """The patches of the commits whose changed lines match `pattern`, newest first: one
        `git log -G`, or where there are cores to spare, one per core over as many slices of
        the commits, newest first, whose outputs joined are that log's (1.6x faster on 2 cores)."""
        spec = ("--", ".", f":(exclude){self.rules_dir}")
        # The root commit only adds: no removal is in it, and on a large import its diff would
        # be most of the work (log.showRoot=false leaves it out).
        log = (*LEAN_HISTORY, "-c", "log.showRoot=false", "log", "--no-merges", "--no-renames",
               "--no-ext-diff", "--no-textconv", "-p", "--unified=0", "--format=%x01%h%x02%cs%x02%s",
               "-G", pattern)
        slices = min(cores(), MAX_SLICES)
        walk = f"{since}..HEAD" if since else "HEAD"
        commits = run_git(self.root, "rev-list", "--no-merges", walk, *spec) if slices > 1 else None
        listed = commits.split() if commits is not None else []
        if len(listed) < SPLIT_FROM:
            return run_git(self.root, *log, walk, *spec)
        size = -(-len(listed) // slices)
        parts = [b"\n".join(listed[at : at + size]) + b"\n" for at in range(0, len(listed), size)]
        outs = run_git_split(self.root, *log, "--stdin", "--no-walk=unsorted", *spec, parts=parts)
        return b"".join(outs) if outs is not None else None

    def name_removal(self, names: Iterable[str]) -> Removal | None:
        found = [self.names.get(n) for n in names]
        return next((r for r in found if r is not None), None)

    # -- the cache --------------------------------------------------------------------------
    def _load(self) -> bool:
        """Read the kept evidence: for HEAD as it is, or for a commit HEAD extends by at most
        MAX_RANGE commits without a merge (`git.linear_range`), brought up to HEAD by reading
        only those commits. False when there is none to use."""
        if self._where is None:
            return False
        with contextlib.suppress(OSError, ValueError, TypeError, KeyError, AttributeError):
            raw = json.loads(self._where.read_bytes())
            if raw["version"] != VERSION or raw["key"][1:] != [str(self.root), self.rules_dir]:
                return False
            commits = [(str(c), str(d), str(s)) for c, d, s in raw["commits"]]
            deleted = [(str(p), int(n)) for p, n in raw["deleted"]]
            names = {str(k): Removal(*v) if v else None for k, v in raw["names"].items()}
            old = str(raw["key"][0])
            if old == self.head:
                self.commits, self.names = commits, names
                self._index(deleted)
                return True
            if linear_range(self.root, old, self.head, MAX_RANGE) is None:
                return False
            self.commits = commits
            if not self._read_deleted(old, deleted):
                self.commits = []
                return False
            self._since, self._stale = old, names
            return True
        return False

    def save(self) -> None:
        if self._where is None or not self._dirty:
            return
        self._bring_up()
        data = json.dumps({
            "version": VERSION, "key": [self.head, str(self.root), self.rules_dir],
            "commits": self.commits, "deleted": list(self.deleted.items()),
            "names": {k: [v.commit, v.date, v.subject, v.path, v.file] if v else None
                      for k, v in self.names.items()}}).encode("utf-8")
        with contextlib.suppress(OSError):
            write(self._where, data)
        self._dirty = False
