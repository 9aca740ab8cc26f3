"""Every git command rulelens runs goes through `run_git`: one timeout policy, one failure shape.

git is optional: outside a work tree, without git installed, or when a command fails or runs
past its timeout, the caller gets None and answers without git (a plain file walk, no history).

What a run learns from git and may reuse (commands started early, answers given at its start,
the roots git found no repository in, the roots that are work trees, where git keeps its files)
lives in a `GitSession`: one per CLI run, one per language-server root, passed down to the
core, never kept in this module. The module functions run git afresh each time.
"""

from __future__ import annotations

import contextlib
from _thread import allocate_lock
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from rulelens.workspace.git_state import Snapshot, commands
from rulelens.workspace.git_state import no_repository as no_repository  # the fast path's too

if TYPE_CHECKING:  # subprocess (with selectors, 4 ms) is imported when a git command runs:
    import subprocess  # outside git, `check` starts none

    from rulelens.workspace.later import Later

# Long enough for `ls-files` or `log` over a 500,000-file repository on a cold disk; short
# enough that a hung git (a network filesystem, a lock) never stalls a command for minutes.
TIMEOUT = 120.0
# The project's file list (workspace/filelist.py), which a command can start early.
LS_FILES = ("ls-files", "-z", "--cached", "--others", "--exclude-standard")

# For a walk over the whole history (`log -p`, `log --name-only`): git maps its packs and keeps
# delta bases as it goes, up to 96 MB of bases and GBs of mapped pack by default, which made its
# resident memory 94-147 MB on the corpus's repositories of 1,400-20,000 commits, above agnix's
# whole run; with these bounds 36-39 MB, for 0-10% more time.
LEAN_HISTORY = ("-c", "core.deltaBaseCacheLimit=8m", "-c", "core.packedGitLimit=16m",
                "-c", "core.packedGitWindowSize=1m")

Key = tuple[str, tuple[str, ...]]


# Commands that fail, before anything else, where git finds no repository, each with the same
# exit code and message.
NEEDS_REPOSITORY = frozenset({"rev-parse", "ls-files", "log", "diff-files"})
_NO_REPOSITORY_MESSAGE = b"fatal: not a git repository"


def completed(root: Path | str, *args: str, input: bytes | None = None,
              timeout: float = TIMEOUT) -> subprocess.CompletedProcess[bytes] | None:
    """`git -C root ARGS` run to the end (for callers that read git's own error), or None when
    git is missing or runs past its timeout."""
    from rulelens.workspace import processes  # here: a run that starts no git loads no subprocess

    return processes.run(["git", "-C", str(root), *args], timeout, input)


def run_git(root: Path | str, *args: str, input: bytes | None = None,
            timeout: float = TIMEOUT) -> bytes | None:
    """git's stdout for `git -C root ARGS`, or None when git is missing, fails or times out (or
    surely would: every command rulelens runs needs a repository)."""
    if no_repository(root):
        return None
    out = completed(root, *args, input=input, timeout=timeout)
    return out.stdout if out is not None and out.returncode == 0 else None


class GitSession:
    """What git said, or was asked early, during one CLI run or for one language-server root.

    A CLI run makes one (cli/commands/check.py, or `check`'s result cache with git's answers it
    read already: `given`, `views`) and the language server one per root (lsp/workspace/
    roots.py); the core takes it as an argument, through the file list it listed
    (`FileList.git`). Its memory lasts as long as its owner: a run's ends with the run, a root's
    is dropped with the root.
    """

    def __init__(self, remember_missing: bool = False,
                 given: Mapping[Key, Later[bytes | None]] | None = None,
                 views: Mapping[tuple[Path, str], Later[Snapshot | None]] | None = None) -> None:
        """`remember_missing`: for a run that answers one command and exits (`check`): once git
        has said that a root is in no repository, a later command that needs one gets that same
        answer without another `git` (outside git, `check` asked eight times). The language
        server, during whose life a folder may become a repository, asks each time.
        `given`: what `git -C root ARGS` answers (its stdout, or None when git failed: then it is
        asked again), from commands started already (`check`'s result cache asks git before the
        command runs and reads the answers in its own thread), read once each. `views`: git's
        view of the files outside a folder (rules/check/stale/search_cache.py), asked already,
        likewise."""
        self._given: dict[Key, Later[bytes | None]] = dict(given or {})
        self._started: dict[Key, subprocess.Popen[bytes]] = {}
        self._no_repository: dict[str, subprocess.CompletedProcess[bytes]] | None = (
            {} if remember_missing else None)
        self._work_trees: set[str] = set()
        # threading.Lock is _thread's lock: taken from there, so that a run outside git, which
        # starts no thread, does not import threading.
        self._work_tree_lock = allocate_lock()
        self._views: dict[tuple[Path, str], Later[Snapshot | None]] = dict(views or {})
        self._views_lock = allocate_lock()
        self.git_paths: dict[tuple[Path, str], Path] = {}  # workspace/cache_files.py's answers

    def start(self, root: Path | str, *args: str) -> None:
        """Start `git -C root ARGS` now; the next `completed` with the same arguments reads its
        answer. `check` starts its file list before it imports the core, so git walks the work
        tree on the other core meanwhile."""
        key = (str(root), args)
        if key not in self._started and key not in self._given and not no_repository(root):
            from rulelens.workspace import processes

            with contextlib.suppress(OSError):  # no git: the caller's `completed` says so
                self._started[key] = processes.start(["git", "-C", str(root), *args], unread=True)

    def gives(self, root: Path | str, *args: str) -> bool:
        """Whether an answer to `git -C root ARGS` was given at the start and not read yet."""
        return (str(root), args) in self._given

    def completed(self, root: Path | str, *args: str, input: bytes | None = None,
                  timeout: float = TIMEOUT) -> subprocess.CompletedProcess[bytes] | None:
        """`completed`, from what this session was given or started, or remembers."""
        import subprocess

        key = (str(root), args)
        given = self._given.pop(key, None) if input is None else None
        if given is not None and (answer := given.result()) is not None:
            return subprocess.CompletedProcess(["git", "-C", str(root), *args], 0, answer, b"")
        missing = self._no_repository.get(str(root)) if self._no_repository is not None and args \
            and args[0] in NEEDS_REPOSITORY else None
        if missing is not None:
            return subprocess.CompletedProcess(["git", "-C", str(root), *args], missing.returncode, b"",
                                               missing.stderr)
        early = self._started.pop(key, None) if input is None else None
        if early is not None:
            from rulelens.workspace import processes

            return self._noted(root, args, processes.finish(early, timeout))
        return self._noted(root, args, completed(root, *args, input=input, timeout=timeout))

    def _noted(self, root: Path | str, args: tuple[str, ...],
               out: subprocess.CompletedProcess[bytes] | None) -> subprocess.CompletedProcess[bytes] | None:
        if self._no_repository is not None and out is not None and out.returncode == 128 \
                and args and args[0] in NEEDS_REPOSITORY and out.stderr.startswith(_NO_REPOSITORY_MESSAGE):
            self._no_repository[str(root)] = out
        return out

    def run_git(self, root: Path | str, *args: str, input: bytes | None = None,
                timeout: float = TIMEOUT) -> bytes | None:
        """`run_git`, through `completed`."""
        if not self.gives(root, *args) and no_repository(root):
            return None
        out = self.completed(root, *args, input=input, timeout=timeout)
        return out.stdout if out is not None and out.returncode == 0 else None

    def git_text(self, root: Path | str, *args: str, timeout: float = TIMEOUT) -> str | None:
        """`git_text`, through `run_git`."""
        out = self.run_git(root, *args, timeout=timeout)
        return None if out is None else out.decode("utf-8", "surrogateescape")

    def known_work_tree(self, root: Path | str) -> None:
        """Note that git answered a work-tree command at root (its file list): a yes for
        `work_tree` without asking git again."""
        self._work_trees.add(str(root))

    def work_tree(self, root: Path | str) -> bool:
        """`git_work_tree`, with a yes remembered (one `git` less for each later caller, and the
        threads that ask at once wait for one answer); a no is not: the folder may become one."""
        with self._work_tree_lock:
            if str(root) not in self._work_trees:
                if not git_work_tree(root, self):
                    return False
                self._work_trees.add(str(root))
            return True

    def ask_view(self, root: Path, exclude: str, ask: Callable[[], Later[Snapshot | None]]) -> None:
        """git's view of the files outside `exclude` (rules/check/stale/search_cache.py), asked
        now unless it was given or asked already: `ask` starts it."""
        with self._views_lock:
            if (root, exclude) not in self._views:
                self._views[(root, exclude)] = ask()

    def take_view(self, root: Path, exclude: str) -> Later[Snapshot | None] | None:
        """The view given or asked early, taken (it is read once); None when there is none."""
        with self._views_lock:
            return self._views.pop((root, exclude), None)


def run_git_split(root: Path | str, *args: str, parts: list[bytes],
                  timeout: float = TIMEOUT) -> list[bytes] | None:
    """`run_git` once for each part, given as its stdin, all at once (one core each): git's
    stdout for each, in order, or None when any fails. A walk over the whole history (`log -G`
    of every commit's diff) takes one core; split by commits (`--stdin --no-walk`), it takes
    them all."""
    from functools import partial

    from rulelens.workspace.later import in_thread

    if no_repository(root):
        return None
    others = [in_thread(partial(completed, root, *args, input=part, timeout=timeout), daemon=True)
              for part in parts[1:]]
    answers = [completed(root, *args, input=parts[0], timeout=timeout), *(o.result() for o in others)]
    if any(a is None or a.returncode != 0 for a in answers):
        return None
    return [a.stdout for a in answers if a is not None]


def git_text(root: Path | str, *args: str, timeout: float = TIMEOUT) -> str | None:
    """`run_git` decoded as UTF-8 (undecodable bytes kept as surrogates), or None."""
    out = run_git(root, *args, timeout=timeout)
    return None if out is None else out.decode("utf-8", "surrogateescape")


class GitFailed(Exception):
    """git was missing, failed, or ran past its timeout while its output was read in blocks."""


def stdout_blocks(root: Path | str, *args: str, size: int = 1 << 20,
                  timeout: float = TIMEOUT) -> Iterator[bytes]:
    """git's stdout for `git -C root ARGS` in blocks as git writes them, for an answer too large
    to hold whole (a log of a commit that adds 500,000 files); raises GitFailed after the last
    block when git did not succeed, so the caller drops what it read. subprocess.run holds
    the whole output and its decoding at once; a pipe read in blocks is all this needs."""
    import subprocess

    from rulelens.workspace.later import after

    if no_repository(root):
        raise GitFailed(str(root))
    try:
        # stderr is not read while stdout is: left unread in a pipe, it could stall git.
        from rulelens.workspace import processes

        proc = processes.start(["git", "-C", str(root), *args], stderr=subprocess.DEVNULL)
    except OSError as error:
        raise GitFailed(str(error)) from error
    cancel = after(timeout, proc.kill, name="rulelens-git-timeout")
    finished = False
    try:
        assert proc.stdout is not None
        while block := proc.stdout.read(size):
            yield block
        finished = True
    finally:
        if not finished:
            proc.kill()  # the caller stopped reading
        cancel()
        if proc.stdout is not None:
            proc.stdout.close()
        proc.wait()
    if proc.returncode != 0:
        raise GitFailed(f"git {' '.join(args)} exited with {proc.returncode}")


def snapshot(root: Path, exclude: str | None = None, git: GitSession | None = None) -> Snapshot | None:
    """The index listing of the files outside `exclude`, and which of them are not clean.

    `ls-files -s` reads only the index; `diff-files` stats the files (in parallel threads, and
    honouring fsmonitor) to say which differ from it. Both run at once. None when git cannot
    answer.
    """
    session = git if git is not None else GitSession()
    listing_cmd, changed_cmd = commands(exclude)
    session.start(root, *listing_cmd)
    session.start(root, *changed_cmd)
    listed, changed = session.run_git(root, *listing_cmd), session.run_git(root, *changed_cmd)
    if listed is None or changed is None:
        return None
    return Snapshot(listed, changed)


def git_work_tree(root: Path | str, git: GitSession | None = None) -> bool:
    """Whether root is inside a git work tree (for what only git knows: ignores, history), asked
    through `git` when given (GitSession.work_tree remembers a yes)."""
    ask = git.git_text if git is not None else git_text
    return (ask(root, "rev-parse", "--is-inside-work-tree") or "").strip() == "true"


def linear_range(root: Path | str, old: str, head: str, most: int) -> int | None:
    """How many commits `old..head` holds when they are a chain of single-parent commits from
    head down to a child of old (old is an ancestor, no merge between) and at most `most`;
    None otherwise (a rebase, a reset, another branch, a merge, a missing commit, or too many).

    On such a chain, git's walk from head meets the chain's commits one by one and then walks
    from old exactly as it does from old: head's log is the range's log followed by old's, in
    the same order and with the same history simplification, so a history read for old can be
    extended instead of read again. A merge breaks this: its sides interleave by date, and a
    merge TREESAME to one parent hides the other side's commits. One `rev-list --parents`
    checks ancestry, merges and the size at once."""
    if old == head:
        return 0
    if not (len(old) in (40, 64) and all(c in "0123456789abcdef" for c in old)):
        return None  # a kept name that is no commit id is never given to git as an argument
    out = git_text(root, "rev-list", "--parents", f"-n{most + 1}", f"{old}..{head}", "--")
    if not out:
        return None  # git failed, or head is an ancestor of old (a reset)
    rows = [line.split() for line in out.splitlines()]
    if len(rows) > most or rows[0][0] != head or any(len(r) != 2 for r in rows):
        return None
    chain = all(rows[i][1] == rows[i + 1][0] for i in range(len(rows) - 1)) and rows[-1][1] == old
    return len(rows) if chain else None
