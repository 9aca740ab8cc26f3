"""`check`'s answer kept between runs, for a pre-commit hook or CI step that runs it again on a
project that has not changed.

A run that finds its answer here prints it and exits with its code before anything else of
rulelens is imported: this module loads only `os`, `sys`, `time` and the ground floor's modules
with `os` alone (workspace/root.py, git_state.py, fast_hash.py: `_blake2`, without the OpenSSL
hashlib loads, spawn.py: git started with `posix_spawn`, not `subprocess`, which costs more to
import than the answer takes). tests/cli/test_result_cache.py holds a hit to a budget of imports.

**What the answer is keyed by.** Everything the output depends on, or else the run is done in full:
- rulelens's version and its source files (name, size, time), the folders Python imports from
  (installing a package changes their time), the command line, the current folder, the
  environment variables that change the output (colour, rulelens's own), and whether stdout is
  a terminal;
- git's view of the project: `HEAD` (the history the drift and deleted-name checks read), the
  shallow-clone marker, `info/exclude`, the packs, the index listing with each file's blob id
  and the files that differ from it (workspace/git_state.py, as the name search's cache
  reads them), and the untracked file list. A tracked file outside `diff-files` holds the
  content its blob id names; a file that differs, or an untracked one, is keyed by its stat
  (type, size, mtime, ctime, inode);
- what the full run read itself: every file and folder below the root it opened, listed or
  stat'ed (the rules folder, the agents' files and settings, the configuration, ignored files a
  rule names), which its run record lists (check_project.RunRecord, noted through
  workspace/reads.py as the core reads), kept with the answer with their stat. A missing path
  is kept with its nearest existing folder, whose time changes when it appears.

Any change of a source file's text is a run in full: git's view keys it. (An answer kept
through such an edit, when the name search's words could not have changed, was tried and
measured: it never served the run a pre-commit hook makes after a commit, whose `HEAD` differs,
and saved about 0.15 s on the runs it served; bench/README.md.)

git runs two to four commands at once, all started before the answer is looked for, and each
is read only when needed: `rev-parse` names the answer's file (read from git's folder itself
where that is a plain one: `plain_git`), and a missing file (a fresh clone, a first run) is a
miss at once; `ls-files -s` and `diff-files` give the tracked files' state, and `ls-files -o`
the untracked files (in a plain repository with a small index, one `ls-files -s -o` lists
both: `split_listing`). git's plumbing (these readings of its folder, the split) is
workspace/git_state.py's. On a miss the full run starts at once and git's answers are handed to it as
it needs them (the name search's view, the file list): it asks git for neither.

**When it is not kept.** A run that failed (exit 2) or was interrupted; when a file or folder the
key stats changed less than RACY_NS before the run began (a second change in the same clock tick
would look the same: git's "racily clean" case); when the folder cannot be written. Outside a
git work tree (no `.git` or `HEAD` in the root or above it: the stat test workspace/
git_state.py's `no_repository` makes) nothing is kept: there is no git folder to keep it in, and
pre-commit hooks and CI, the runs that repeat, run inside git. `--no-cache` or RULELENS_NO_CACHE=1 turns
it off for one run.

Where: `git rev-parse --git-path rulelens/check-<digest of the command line…>`, beside the other
caches; one file per command line, written atomically (a temp file renamed over it).
"""

from __future__ import annotations

import os
import sys
import time

from rulelens.cli.answer_file import FORMAT, MAX_DEPS, Stored, dump, load, printed, signature, write
from rulelens.workspace.fast_hash import blake2b
from rulelens.workspace.git_state import (
    OTHERS,
    commands,
    git_folder,
    git_paths_command,
    no_repository,
    plain_git,
    small_index,
    split_listing,
)
from rulelens.workspace.root import RULES_DIR, is_project, root_text
from rulelens.workspace.spawn import Started, available, collect, spawn
from rulelens.workspace.stat_stamp import MODIFIED, of, text

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (14 ms), as mypy reads it
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import Any, Protocol

    from rulelens.check_project import RunRecord
    from rulelens.cli.common import Output
    from rulelens.workspace.git import GitSession

    class _Lock(Protocol):
        def __enter__(self) -> object: ...
        def __exit__(self, typ: Any, value: Any, tb: Any, /) -> object: ...

ENV_OFF = "RULELENS_NO_CACHE"
FLAG_OFF = "--no-cache"
RACY_NS = 2_000_000_000  # a file changed this recently may change again within one clock tick
_RACY_ENV = "RULELENS_TEST_RACY_NS"  # test hook: a test cannot wait two seconds after each edit
KEPT = 8  # answers kept per repository, the most recently written
ENV_KEYS = ("NO_COLOR", "FORCE_COLOR", "TERM")  # and every RULELENS_ variable
_VALUED = ("--root", "--format", "--fail-on", "--drift-after")
_FLAGS = ("-q", "--quiet", "--json", FLAG_OFF)
# In git's folder: where the answers go, then what else the output may depend on: a shallow
# clone's depth (the history), the repository's own ignores (`check-ignore`), the packs (how
# many digits an abbreviated commit id has).
GIT_PATHS = ("rulelens", "shallow", "info/exclude", "objects/pack")
# An index listing past this (about 200,000 files) is not handed to the full run: held from its
# start, it would raise the run's peak memory by its size; the name search asks git again.
HAND_OVER_BYTES = 16 * 1024 * 1024  # workspace/root.py's default: a project's marker
_HAND_OVER_ENV = "RULELENS_TEST_HAND_OVER_BYTES"  # test hook: a small project past the limit


def _parse(args: Sequence[str]) -> tuple[str | None] | None:
    """(--root's value) when `args` is a `check` this cache can answer; None when not, or when
    the command line is not one it reads with certainty (an abbreviated option, --help)."""
    command: str | None = None
    root: str | None = None
    items = iter(args)
    for arg in items:
        name, eq, value = arg.partition("=")
        if name in _VALUED:
            if not eq:
                got = next(items, None)
                if got is None:
                    return None
                value = got
            if name == "--root":
                root = value
        elif arg in _FLAGS:
            if arg == FLAG_OFF:
                return None
        elif arg.startswith("-") or command is not None:
            return None  # an option argparse may read otherwise (an abbreviation), --help, extras
        else:
            command = arg
    return (root,) if command == "check" else None


# -- git, started without subprocess -----------------------------------------------------------
def _spawn(root: str, args: Sequence[str]) -> Started:
    """`git -C root ARGS` started with stdout on a pipe: (pid, read end), or None."""
    return spawn(["git", "-C", root, *args])


def _code(h: blake2b) -> None:
    """rulelens's own source files and the folders Python imports from."""
    import rulelens

    folders = [os.path.dirname(rulelens.__file__)]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as entries:
                found = sorted((e.name, e) for e in entries)
        except OSError:
            continue
        for name, entry in found:
            if entry.is_dir():
                if name != "__pycache__":
                    folders.append(entry.path)
            elif name.endswith(".py"):
                h.update(f"{entry.path}\0{text(of(entry.stat()))}\0".encode(errors="surrogateescape"))
    for folder in sys.path:
        h.update(f"{folder}\0{signature(folder or '.')[0]}\0".encode(errors="surrogateescape"))


def _meta(args: Sequence[str], root: str) -> blake2b:
    from rulelens import __version__

    h = blake2b(FORMAT, digest_size=20)
    env = sorted((k, v) for k, v in os.environ.items() if k in ENV_KEYS or k.startswith("RULELENS_"))
    try:
        tty = sys.stdout.isatty()
    except (AttributeError, ValueError):
        tty = False
    h.update(repr((__version__, list(args), os.getcwd(), root, env, tty)).encode(errors="surrogateescape"))
    _code(h)
    return h


def _save(where: str, data: bytes) -> None:
    """Atomically, as the other caches are written; no trace on failure."""
    if write(where, data):
        try:
            _prune(os.path.dirname(where))
        except OSError:
            return


def _prune(folder: str) -> None:
    """Keep the KEPT answers written last (each command line, and each version of rulelens's
    code, has its own file: without this they would pile up)."""
    import contextlib

    with os.scandir(folder) as entries:
        answers = [(of(e.stat())[MODIFIED], e.path) for e in entries
                   if e.name.startswith("check-") and "." not in e.name]
    for _, path in sorted(answers)[:-KEPT]:
        with contextlib.suppress(OSError):
            os.unlink(path)


# -- the two paths -----------------------------------------------------------------------------
def lookup(args: Sequence[str]) -> int | Pending | None:
    """The exit code after printing the kept answer; else a Pending that keeps the full run's
    answer; None when this run cannot use the cache at all."""
    if os.environ.get(ENV_OFF, "") not in ("", "0") or not available():
        return None
    parsed = _parse(args)
    if parsed is None:
        return None
    began = time.time_ns()
    root = root_text(os.getcwd(), parsed[0])
    if not os.path.isdir(root):
        return None
    if parsed[0] is None and not is_project(root):
        return None  # no project here: `check` refuses
    if no_repository(root):  # git surely finds none: a stat test, no git process
        return None
    listing_cmd, changed_cmd = commands()
    plain = plain_git(root, GIT_PATHS)
    started = [None if plain is not None else _spawn(root, git_paths_command(GIT_PATHS))]
    merged = plain is not None and small_index(root)
    if merged:  # one git for both listings (others first): one process fewer to start and run
        started += [_spawn(root, [*listing_cmd, *OTHERS[2:]]), _spawn(root, changed_cmd), None]
    else:
        started += [_spawn(root, cmd) for cmd in (listing_cmd, changed_cmd, OTHERS)]
    h = _meta(args, root)  # while git runs
    where_of = h.hexdigest()[:24]
    if plain is None:
        rev = collect(started[0])
        lines = [] if rev is None else rev.decode("utf-8", "surrogateescape").split("\n")
    else:
        lines = plain
    if len(lines) < len(GIT_PATHS) + 1:  # outside git, or no commit yet
        for other in started[1:]:
            collect(other)
        return None
    folder, *kept, head = lines[:len(GIT_PATHS) + 1]
    where = os.path.join(folder, f"check-{where_of}")
    for path in kept:
        h.update(f"{signature(path)[0]}\0".encode())
    h.update(f"{head}\0".encode(errors="surrogateescape"))
    racy = int(os.environ.get(_RACY_ENV) or RACY_NS)
    pending = Pending(root, where, h, began, racy, started[1], started[2], started[3], merged)
    stored = load(where)
    if stored is None:  # a fresh clone, a first run: the run starts without waiting for git
        return pending
    same = stored.tracked == pending.tracked()
    read = stored.read_unchanged()
    if not same and not read:
        return pending  # known before git's slower walk for untracked files: start at once
    key = pending.key()
    if not read:
        return pending if key is not None else None
    if same and key is not None and stored.key == key:
        return _print(stored)
    if key is None:
        return None if same else pending
    return pending


def _print(stored: Stored) -> int:
    """The kept answer on stdout; its exit code (0 when the reader had gone)."""
    return stored.code if printed(stored) else 0


class _Unlocked:
    """The lock of a lookup with no thread yet: a hit never starts one, nor imports threading
    (3 ms on a small project's 30 ms hit)."""

    def __enter__(self) -> object:
        return self

    def __exit__(self, typ: object, value: object, tb: object, /) -> None:
        return None


class Pending:
    """A miss: run the command in full, recording what it reads, and keep its answer.

    git's answers are read when first needed, each once (`_lock`: the name search's view is
    read in a thread): the index listing and the files that differ (`ls-files -s`,
    `diff-files`), then the untracked files (`ls-files -o`). The key grows with each."""

    def __init__(self, root: str, where: str, h: blake2b, began: int, racy: int,
                 listed: Started, changed: Started, others: Started, merged: bool = False) -> None:
        self.root, self.where, self.began, self.racy = root, where, began, racy
        self._h = h  # the key so far
        self._latest = 0  # the latest time of a file the key stats
        self._lock: _Lock = _Unlocked()  # a real lock once hand_over starts a thread
        # The listing's own lock: may be taken while `_lock` is held, never the other way round.
        self._listing_lock: _Lock = _Unlocked()
        self._started: tuple[Started, Started, Started] | None = (listed, changed, others)
        self._merged = merged  # `listed` is `ls-files -s -o`: the untracked files, then the index
        # git's index listing and its untracked files, read apart from the files that differ:
        # the file list needs only these, and `diff-files` can take long (`_read`). Held until
        # the key is made and both the file list and the name search's view have taken them.
        self._listing_read = False
        self._listed: bytes | None = None
        self._others: bytes | None = None
        self._holders = {"files", "view"}
        self._answers: tuple[bytes, bytes] | None = None  # git's index listing, the files that differ
        self._tracked: str | None = None  # the key of the tracked files' state
        self._key: str | None = None

    def _read_listing(self) -> None:
        """Read git's index listing and the untracked files, once."""
        with self._listing_lock:
            if self._listing_read or self._started is None:
                return
            self._listing_read = True
            listed, _, others = self._started
            self._listed, self._others = collect(listed), collect(others)
            if self._merged:
                self._listed, self._others = split_listing(self.root, self._listed)

    def _read(self) -> None:
        """Read git's answers (under `_lock`), once: the listing, then the files that differ.

        In a fresh clone each file is as new as the index, so `diff-files` reads every one to
        tell whether it changed (git's racy-clean check): 0.1 s at 700 files. The file list,
        which needs only the listing, does not wait for it."""
        if self._started is None:
            return
        self._read_listing()
        changed = collect(self._started[1])
        with self._listing_lock:
            self._started = None
            listed, others = self._listed, self._others
        if listed is None or changed is None:
            return
        from rulelens.workspace.git_state import Snapshot

        snap = Snapshot(listed, changed)
        h = self._h
        h.update(f"{snap.digest}\0".encode())
        h.update(changed)
        h.update(b"\1")
        for rel in sorted(snap.dirty):
            sig, when = signature(os.path.join(self.root, rel))
            self._latest = max(self._latest, when)
            h.update(f"{rel}\0{sig}\0".encode(errors="surrogateescape"))
        self._answers, self._tracked = (listed, changed), h.hexdigest()
        if others is None:
            return
        h.update(others)
        for rel in sorted(others.decode("utf-8", "surrogateescape").split("\0")):
            if rel:
                sig, when = signature(os.path.join(self.root, rel))
                self._latest = max(self._latest, when)
                h.update(f"{rel}\0{sig}\0".encode(errors="surrogateescape"))
        self._key = h.hexdigest()

    def _release(self, holder: str) -> None:
        """`holder` has what it needs of the listing: dropped once both have."""
        with self._listing_lock:
            self._holders.discard(holder)
            if not self._holders and self._started is None:
                self._listed = self._others = None

    def settled(self) -> bool:
        """No file the key stats changed within `racy` of the run's start."""
        return self._latest < self.began - self.racy

    def tracked(self) -> str | None:
        with self._lock:
            self._read()
            return self._tracked

    def key(self) -> str | None:
        with self._lock:
            self._read()
            return self._key

    def hand_over(self) -> GitSession:
        """The full run's git session, given what git answers here, read as the run needs it:
        the name search would ask the same about the files outside the rules folder, and the
        file list (`ls-files --cached --others`) is the index's paths and the untracked files,
        so git does not walk the work tree twice. Past HAND_OVER_BYTES the full run asks git
        itself."""
        import threading
        from pathlib import Path

        self._lock = threading.Lock()  # before any thread reads git's answers
        self._listing_lock = threading.Lock()

        from rulelens.workspace.git import LS_FILES, GitSession
        from rulelens.workspace.git_state import AskGitAgain, Snapshot, outside
        from rulelens.workspace.later import Later, in_thread

        def answers() -> tuple[bytes, bytes] | None:
            with self._lock:
                self._read()
                got = self._answers
                limit = int(os.environ.get(_HAND_OVER_ENV) or HAND_OVER_BYTES)
                if got is not None and len(got[0]) > limit:
                    got = None
                self._answers = None  # not held through the run (35 MB at 500,000 files)
                self._release("view")
                return got

        def file_list() -> bytes | None:
            # The order differs from git's; the file list sorts it (workspace/filelist.py).
            self._read_listing()  # not under `_lock`: only the listing, not diff-files
            with self._listing_lock:
                listed, others = self._listed, self._others
            self._release("files")
            limit = int(os.environ.get(_HAND_OVER_ENV) or HAND_OVER_BYTES)
            if listed is None or others is None or len(listed) > limit:
                return None  # as the view: the full run asks git itself
            return b"".join((others, *(e[e.index(b"\t") + 1:] + b"\0" for e in listed.split(b"\0") if e)))

        files: Later[bytes | None] = Later()
        view: Later[Snapshot | None] = Later()

        def read() -> None:
            """The file list first (the index listing and the untracked files), then the name
            search's view, which waits for `diff-files` too: in a fresh clone that reads every
            file again, and the file list does not wait for it."""
            listed = False
            try:
                files.set_result(file_list())
                listed = True
                got = answers()
            except BaseException:
                if not listed:
                    files.set_result(None)  # the full run asks git itself
                view.set_exception(AskGitAgain())
                raise
            if got is None:
                # git failed here, or its listing is too long to hold: the name search asks git
                # again when it gets there, as a run without the cache does (asked here, at the
                # run's start, it would hold a second listing while the file list is built)
                view.set_exception(AskGitAgain())
                return
            view.set_result(outside(*got, RULES_DIR))

        in_thread(read, name="rulelens-git-answers", daemon=True)
        return GitSession(remember_missing=True, given={(self.root, LS_FILES): files},
                          views={(Path(self.root), RULES_DIR): view})

    def run(self, command: Callable[[GitSession, list[RunRecord], Output], int]) -> int:
        """`command` given the run's git session, a list for its records and an output (cli/
        app.py's `main`): what it printed and its exit code are kept with what its records say
        it read."""
        from rulelens.cli.common import Output

        git = self.hand_over()
        records: list[RunRecord] = []
        output = Output()
        code = command(git, records, output)
        try:  # what was written is on its way: a reader that has gone is known now
            sys.stdout.flush()
        except (OSError, ValueError):
            output.complete = False
        key = self.key()
        if (code in (0, 1) and output.complete and records and key is not None
                and self._tracked is not None and self.settled()):
            self.keep(code, output.text(), self._paths_read(records))
        return code

    def _paths_read(self, records: list[RunRecord]) -> set[str]:
        """The paths below the root, outside `.git`, that the check read itself."""
        prefix, git = self.root.rstrip(os.sep) + os.sep, git_folder(self.root)
        return {path for run in records for path in run.read
                if (path == self.root or path.startswith(prefix))
                and path != git and not path.startswith(git + os.sep)}

    def keep(self, code: int, output: str, paths: Iterable[str]) -> None:
        key = self.key()
        if key is None:
            return
        deps: dict[str, str] = {}
        todo = sorted({*paths, self.root})
        if len(todo) > MAX_DEPS:
            return
        for path in todo:
            while path not in deps:
                sig, when = signature(path)
                if when >= self.began - self.racy:
                    return  # changed during the run, or just before it
                deps[path] = sig
                if sig != "-" or path == self.root:
                    break
                path = os.path.dirname(path)  # missing: its folder's time says when it appears
        tracked = self.tracked()
        if tracked is None:
            return
        _save(self.where, dump(Stored(tracked, key, code, sorted(deps.items()), output)))
