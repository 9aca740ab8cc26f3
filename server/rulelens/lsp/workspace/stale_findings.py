"""Staleness findings (`stale-path`, `stale-name`) computed off the request path.

The name search reads every file of the project (about 1.5 s at 200,000 files the first time),
so a rule file's diagnostics are published at once without these findings, and again with
them when a worker thread has them. The worker starts when there is work and ends when the
queue is empty: an idle server has no thread waiting on a timer.

The first job of a file list searches the names of every rule file at once (`prepare`, as
`check` does), so that opening the next rule file is answered from what was found. Until a
changed text's findings are ready, the previous findings of that file are shown where their
mention is still at the same place, so that typing does not make them blink.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import weakref
from collections.abc import Callable
from pathlib import Path

from rulelens.lsp.wire.positions import lines_of
from rulelens.lsp.workspace.roots import Root
from rulelens.rules.model import Problem, RuleFile
from rulelens.workspace.filelist import FileList
from rulelens.workspace.later import Later, in_thread

log = logging.getLogger(__name__)
KEPT = 256  # finished texts kept per file list (each open rule file's recent versions)

Job = tuple[Root, RuleFile, FileList, bool]  # the bool: whether to write caches in git's folder


class StaleFindings:
    """One per session: `get` answers from finished work or queues the work and returns.

    In a read-only workspace (`keep_caches` False) the core reads the caches it finds in git's
    folder and writes none; what it computes stays in memory with the file list.
    """

    def __init__(self, on_ready: Callable[[Root], None]) -> None:
        self._on_ready = on_ready
        self._lock = threading.Lock()
        self._done: weakref.WeakKeyDictionary[FileList, dict[tuple[str, str], list[Problem]]] = (
            weakref.WeakKeyDictionary())
        self._prepared: weakref.WeakSet[FileList] = weakref.WeakSet()
        self._last: dict[tuple[Path, str], tuple[list[Problem], str]] = {}  # and their text
        self._queue: dict[tuple[Path, str], Job] = {}  # the newest text of each file only
        self._shown: dict[tuple[Path, str], tuple[str, list[Problem]]] = {}  # published meanwhile
        self._worker: Later[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def get(self, root: Root, rule: RuleFile, files: FileList, keep_caches: bool = True) -> list[Problem]:
        """The findings of this text when ready; else the previous ones still in place, and
        the work queued (`on_ready(root)` runs on the server's loop when it is done)."""
        with self._lock:
            done = self._done.get(files, {}).get((rule.rel, rule.text))
            if done is not None:
                return done
            if self._loop is None:
                from rulelens.rules.check.stale.findings import staleness_problems  # see _compute
                try:
                    self._loop = asyncio.get_running_loop()
                except RuntimeError:  # not on the server's loop (a direct call): compute here
                    return staleness_problems(rule, files, drift_after=0, keep_caches=keep_caches)
            self._queue[(root.path, rule.rel)] = (root, rule, files, keep_caches)
            if self._worker is None:
                self._worker = in_thread(self._work, name="rulelens-staleness", daemon=True)
            previous, before = self._last.get((root.path, rule.rel), ([], ""))
            shown = still_in_place(previous, before, rule.text)
            self._shown[(root.path, rule.rel)] = (rule.text, shown)
        return shown

    def _work(self) -> None:
        while True:
            with self._lock:
                if not self._queue:
                    self._worker = None
                    return
                key = next(iter(self._queue))
                root, rule, files, keep_caches = self._queue.pop(key)
            try:
                problems = self._compute(root, rule, files, keep_caches)
            except Exception:  # a broken rule file is no reason to stop the worker or the server
                log.exception("staleness findings of %s", rule.rel)
                problems = []
            with self._lock:
                per_list = self._done.setdefault(files, {})
                if len(per_list) >= KEPT:
                    per_list.pop(next(iter(per_list)))
                per_list[(rule.rel, rule.text)] = problems
                self._last[key] = (problems, rule.text)
                # Publish again only when it says something new (a rule without findings, or
                # one whose findings stayed in place, is already right).
                changed = self._shown.pop(key, (None, None)) != (rule.text, problems)
                loop = self._loop
            if changed and loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(self._on_ready, root)

    def _compute(self, root: Root, rule: RuleFile, files: FileList, keep_caches: bool) -> list[Problem]:
        # Imported here: a session whose first document is a source file never needs the
        # search (or its Markdown parser) before its first diagnostics.
        from rulelens.rules.check.stale.findings import prepare, staleness_problems

        if files not in self._prepared:
            # Every rule file's names in one search, as `check` does.
            prepare(root.repo.files, files, drift_after=0, keep_caches=keep_caches)
            self._prepared.add(files)
        return staleness_problems(rule, files, drift_after=0, keep_caches=keep_caches)


def still_in_place(problems: list[Problem], before: str, text: str) -> list[Problem]:
    """Earlier findings (on `before`) whose mention is still at the same line and columns."""
    if not problems:
        return []
    old, new = lines_of(before), lines_of(text)
    return [p for p in problems if p.line < min(len(old), len(new)) and p.end_col is not None
            and old[p.line][p.col : p.end_col] == new[p.line][p.col : p.end_col]]
