"""What the next documents' diagnostics need, prepared in the event loop's idle turns.

A lookup compiles the glob buckets it reaches (rules/match/matcher.py), and a rule file's
related information is built the first time it applies (features/diagnostics.py), so the first
diagnostics wait for neither; but then each of the next opens pays for the rule files and
buckets it is the first to reach (at 10,000 globs, most opens of a session's first minutes).
Here they are prepared after the first answer, a slice of steps (`SLICE`, or one step) per
turn of the loop, so a request that arrives meanwhile waits for one slice at most. The short
steps (each rule file, the string tests of a bucket of a few globs: tens of µs) run even while
requests keep coming, in the gaps between them (a client working on the last answer, an editor
between files); the longer ones (a large bucket, a regex to compile) and the per-root work wait
until the client has sent nothing for `QUIET`. A thread would hold the interpreter lock against the
requests instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections.abc import Callable, Iterator

from rulelens.lsp.workspace import collector
from rulelens.lsp.workspace.roots import Root
from rulelens.rules.match.matcher import RuleSet
from rulelens.rules.model import RuleFile
from rulelens.rules.repository import RuleRepository

PerRule = Callable[[Root, RuleFile], None]
PerRoot = Callable[[Root], None]
QUIET = 0.05  # seconds without a message from the client before a longer warm-up step
# Globs of a bucket whose string tests are prepared even in a burst (about 0.15 ms at most):
# folder buckets of a large rule set hold 15 to 30 globs, and a bucket left for a quiet moment
# is prepared by the first open that reaches it instead (bench/lsp_open_profile.py).
SMALL = 32
SLICE = 0.0001  # seconds of steps per turn of the loop: a request waits for one slice at most


class Warmup:
    """At most one warm-up per index; an index replaced by a reload stops its own."""

    def __init__(self) -> None:
        self.per_rule: list[PerRule] = []  # what features prepare for each rule file
        self.per_root: list[PerRoot] = []  # what is done once per index, before the rule files
        self._started: weakref.WeakSet[RuleSet] = weakref.WeakSet()
        self._tasks: set[asyncio.Task[None]] = set()  # kept: the loop holds tasks weakly
        self._last_message = 0.0  # the loop's clock when the client last sent something

    def busy(self) -> None:
        """A message from the client came in: steps wait until it has been quiet a while."""
        with contextlib.suppress(RuntimeError):
            self._last_message = asyncio.get_running_loop().time()

    async def _idle(self) -> None:
        loop = asyncio.get_running_loop()
        while (wait := self._last_message + QUIET - loop.time()) > 0:
            await asyncio.sleep(wait)

    def start(self, root: Root) -> None:
        ruleset = root.repo.built_ruleset
        if ruleset is None or ruleset in self._started:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not on the server's loop (a direct call): lookups prepare as they go
            return
        self._started.add(ruleset)
        task = loop.create_task(self._warm(root, ruleset))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _warm(self, root: Root, ruleset: RuleSet) -> None:
        repo = root.repo
        # Short steps first, whether the client is quiet or not: each rule file, then the string
        # tests of the buckets of at most SMALL globs.
        await self._slices(self._rule_files(root, ruleset), quiet=False)
        await self._slices(self._buckets(repo, ruleset, SMALL), quiet=False)
        # The rest when the client is quiet: per root, then larger buckets and the regexes.
        await self._idle()
        collector.resume()  # the first answers are out (workspace/collector.py)
        if repo.built_ruleset is not ruleset:
            return
        for done in self.per_root:
            done(root)
        # What `rules_for` answers of each rule file for one glob (a lookup keeps the ones it
        # makes itself): when quiet, as made during a burst it would lengthen each step.
        await self._slices(self._matches(repo, ruleset), quiet=True)
        await self._slices(self._buckets(repo, ruleset, None), quiet=True)

    async def _slices(self, steps: Iterator[None], quiet: bool) -> None:
        """Run `steps` a slice (`SLICE` seconds, or one step) per turn of the loop, each turn
        after the client has been quiet a while (`quiet`) or right away."""
        clock = time.perf_counter
        while True:
            if quiet:
                await self._idle()
            else:
                await asyncio.sleep(0)
            end = clock() + SLICE
            for _ in steps:
                if clock() >= end:
                    break
            else:
                return

    def _rule_files(self, root: Root, ruleset: RuleSet) -> Iterator[None]:
        repo = root.repo
        rows = repo.committed_rows()
        for rule in list(repo.files):
            if repo.built_ruleset is not ruleset:
                return
            row = rows.get(rule.rel) if rows is not None else None
            if row is not None:
                row.same_globs(rule)  # what `rules_for` asks of the committed index
            for prepare in self.per_rule:
                prepare(root, rule)
            yield

    @staticmethod
    def _matches(repo: RuleRepository, ruleset: RuleSet) -> Iterator[None]:
        for owner in range(len(repo.files)):
            if repo.built_ruleset is not ruleset:
                return
            repo.prepare_matches(owner)
            yield

    @staticmethod
    def _buckets(repo: RuleRepository, ruleset: RuleSet, most: int | None) -> Iterator[None]:
        while repo.built_ruleset is ruleset and ruleset.warm_one(most):
            yield
