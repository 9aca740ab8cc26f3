"""Concurrent writers (SPEC §5): 8 writers x 50 records through the CLI, MCP and the LSP lose nothing.

The servers are started once per module and reused by every run (each run empties the rules
folder first): a server re-reads the folder under the lock on every record, so a reused server
is as strict a test as a fresh one, and the runs spend their time recording, not importing.
"""

from __future__ import annotations

import shutil
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.reliability.conftest import RULES, assert_consistent, cli, make_root
from tests.reliability.wire import Lsp, Mcp, tool_text

WRITERS = 8
EACH = 50
RUNS = 20
# Measured on the 2-core machine: a run with two CLI writers (one process and four fsyncs per
# record, the slowest route) takes 6-18 s; all 20 runs mixed took 203 s, most of the suite's
# 3-4 minute budget. A run of MCP and LSP writers takes 2-3 s. So three runs mix all three fronts, and the other 17
# mix MCP and LSP writers; every run is 8 writers x 50 records at once.
HEAVY_RUNS = {0, 9, 19}
MIXED = ["cli", "cli", "mcp", "mcp", "mcp", "lsp", "lsp", "lsp"]
LIGHT = ["mcp", "mcp", "mcp", "mcp", "lsp", "lsp", "lsp", "lsp"]


def glob_for(run: int, writer: int, i: int) -> str:
    """Same file, same area, shared new areas, competing file names, and private new files."""
    k = (i + writer + run) % 6
    return [
        "app/Models/**",                      # one shared file
        "app/Models/*.php",                   # same area key: same file, second glob
        "app/Http/Controllers/**",            # a new area every writer races to create
        f"src/W{writer}/Controllers/**",      # new areas whose first name choice collides
        f"lib/Area{i % 7}/**",                # seven shared new areas
        f"routes/w{writer}.php",              # a private new file
    ][k]


def title_for(run: int, writer: int, i: int) -> str:
    return f"Run {run} writer {writer} rule {i}"


def note_for(title: str) -> str:
    return f"Note for {title}.\nA second line with a | pipe and `code`.\n- a list item"


@dataclass
class Fleet:
    root: Path
    mcp: list[Mcp]
    lsp: list[Lsp]


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fleet]:
    base = tmp_path_factory.mktemp("writers")
    root = make_root(base / "project")
    logs = base / "logs"
    logs.mkdir()
    mcps = [Mcp(root, logs / f"mcp{n}.err") for n in range(4)]
    lsps = []
    for n in range(4):
        server = Lsp(root, logs / f"lsp{n}.err")
        server.initialize(root)
        lsps.append(server)
    yield Fleet(root, mcps, lsps)
    for m in mcps:
        m.close()
    for s in lsps:
        s.shutdown()


def _writer(kind: str, fleet: Fleet, slot: int) -> Callable[[str, str, str], str | None]:
    """A function that records one rule and returns an error text, or None on success."""
    if kind == "cli":
        def by_cli(glob: str, title: str, note: str) -> str | None:
            done = cli(fleet.root, "record", "--glob", glob, "--title", title, "--note", note)
            ok = done.returncode == 0 and done.stdout.strip().endswith(f": {title}.")
            return None if ok else f"cli rc={done.returncode} {done.stdout} {done.stderr}"
        return by_cli
    if kind == "mcp":
        server = fleet.mcp[slot]

        def by_mcp(glob: str, title: str, note: str) -> str | None:
            error, text = tool_text(server.record(glob, title, note))
            return None if not error and text.endswith(f": {title}.") else f"mcp {text}"
        return by_mcp
    lsp = fleet.lsp[slot]

    def by_lsp(glob: str, title: str, note: str) -> str | None:
        result = lsp.record(glob, title, note).get("result")
        ok = isinstance(result, dict) and str(result.get("message", "")).endswith(f": {title}.")
        return None if ok else f"lsp {result}"
    return by_lsp


@pytest.mark.parametrize("run", range(RUNS))
def test_eight_writers_lose_no_entry(fleet: Fleet, run: int) -> None:
    root = fleet.root
    shutil.rmtree(root / RULES)
    (root / RULES).mkdir()
    kinds = MIXED if run in HEAVY_RUNS else LIGHT
    slots = Counter[str]()
    writers = []
    for kind in kinds:
        writers.append(_writer(kind, fleet, slots[kind]))
        slots[kind] += 1
    failures: list[str] = []
    start = threading.Barrier(WRITERS)

    def work(w: int) -> None:
        start.wait()
        for i in range(EACH):
            title = title_for(run, w, i)
            error = writers[w](glob_for(run, w, i), title, note_for(title))
            if error:
                failures.append(error)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not any(t.is_alive() for t in threads)
    assert failures == []

    repo = assert_consistent(root)
    entries = [(e.title, e.note) for f in repo.files for e in f.entries]
    assert len(entries) == WRITERS * EACH
    expected = {title_for(run, w, i) for w in range(WRITERS) for i in range(EACH)}
    assert Counter(t for t, _ in entries) == Counter(expected)
    assert all(note == note_for(title) for title, note in entries)
    # Each glob landed in exactly one file, and the shared areas were not split.
    owners = Counter(g for f in repo.files for g in f.strict_paths)
    assert all(n == 1 for n in owners.values()), owners
    models = repo.file(f"{RULES}/models.md")
    assert models is not None
    assert sorted(models.strict_paths) == ["app/Models/**", "app/Models/*.php"]
    assert all(s.alive() for s in [*fleet.mcp, *fleet.lsp])
