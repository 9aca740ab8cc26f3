"""What the next documents' diagnostics need, prepared in the event loop's idle turns.

A lookup compiles the glob buckets it reaches (rules/match/matcher.py), and a rule file's
related information is built the first time it applies (features/diagnostics.py), so the first
diagnostics wait for neither; but then each of the next opens pays for the rule files and
buckets it is the first to reach (at 10,000 globs, most opens of a session's first minutes).
Here they are prepared after the first answer, while the client sends nothing (`QUIET` after
its last message), one rule file or one bucket per turn of the loop: a request that arrives
meanwhile waits for one step at most, and a burst of requests is not slowed by the warm-up at
all. A thread would hold the interpreter lock against the requests instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import Callable

from rulelens.lsp.workspace import collector
from rulelens.lsp.workspace.roots import Root
from rulelens.rules.match.matcher import RuleSet
from rulelens.rules.model import RuleFile

PerRule = Callable[[Root, RuleFile], None]
PerRoot = Callable[[Root], None]
QUIET = 0.05  # seconds without a message from the client before a warm-up step


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
        await self._idle()
        collector.resume()  # the first answers are out (workspace/collector.py)
        for done in self.per_root:
            done(root)
        for rule in list(repo.files):
            await self._idle()
            if repo.built_ruleset is not ruleset:
                return
            rows = repo.committed_rows()
            row = rows.get(rule.rel) if rows is not None else None
            if row is not None:
                row.same_globs(rule)  # what `rules_for` asks of the committed index
            for prepare in self.per_rule:
                prepare(root, rule)
            await asyncio.sleep(0)
        while True:
            await self._idle()
            if repo.built_ruleset is not ruleset or not ruleset.warm_one():
                return
            await asyncio.sleep(0)
