"""Crash safety (SPEC §5): SIGKILL at every injected step leaves each file old or new, never torn.

The kill is the core's test hook (`RULELENS_TEST_CRASH_AT=<step>`), not a sleep race, so each
kill lands exactly between two steps of a record. The "new" version of every file is what the
same record writes, uncrashed, into a copy of the folder.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

from rulelens.rules.repository import RuleRepository
from rulelens.rules.write.atomic import TEMP_SUFFIX
from tests.reliability.conftest import RULES, assert_consistent, cli, make_root, snapshot
from tests.reliability.wire import Lsp, Mcp, ServerDied, server_env, tool_text

STEPS = ["mid-write", "before-rename", "before-rule-write", "after-rule-write",
         "before-index-write", "after-index-write"]
# Steps after which the rule file has been renamed into place: the entry is kept.
KEEPS_ENTRY = {"after-rule-write", "before-index-write", "after-index-write"}
ROUNDS = 8  # every step is killed this many times, in a shuffled order with clean records
GLOBS = ["app/Models/**", "app/Models/*.php", "routes/web.php", "app/Http/Controllers/**",
         "resources/js/**/*.vue", "config/billing.php", "app/Billing/**"]


def _state(files: dict[str, bytes], name: str) -> bytes | None:
    return files.get(name)


def _expected_after(root: Path, scratch: Path, glob: str, title: str, note: str) -> dict[str, bytes]:
    """The folder as the same record leaves it when nothing crashes."""
    if scratch.exists():
        shutil.rmtree(scratch)
    shutil.copytree(root, scratch, symlinks=True)
    RuleRepository(scratch).record(glob, title, note)
    return snapshot(scratch)


def test_sigkill_at_random_steps_never_tears_a_file(tmp_path: Path) -> None:
    root = make_root(tmp_path / "project")
    scratch = tmp_path / "scratch"
    rng = random.Random(20261203)
    plan: list[str | None] = [*STEPS * ROUNDS, *[None] * (2 * ROUNDS)]
    rng.shuffle(plan)
    kept: list[str] = []
    lost: list[str] = []
    kills = 0
    for n, step in enumerate(plan):
        glob = rng.choice(GLOBS)
        title, note = f"Rule {n}", f"Note {n}: keep | this\n## not an entry\n---"
        before = snapshot(root)
        after = _expected_after(root, scratch, glob, title, note)
        env = {"RULELENS_TEST_CRASH_AT": step} if step else None
        done = cli(root, "record", "--glob", glob, "--title", title, "--note", note, env=env)
        now = snapshot(root)
        temps = [k for k in now if k.endswith(TEMP_SUFFIX)]
        for k in temps:
            del now[k]
        if done.returncode == -9:
            kills += 1
            assert step is not None
            for name in set(before) | set(after) | set(now):
                if name.endswith(TEMP_SUFFIX):
                    continue
                got = _state(now, name)
                assert got in (_state(before, name), _state(after, name)), (step, name)
            (kept if step in KEEPS_ENTRY else lost).append(title)
            assert len(temps) <= 1 and (not temps or step in ("mid-write", "before-rename"))
        else:
            # The step was not reached (nothing to write at that step): a normal record.
            assert done.returncode == 0, (step, done.stderr)
            assert now == after and not temps, step
            kept.append(title)
    print(f"crash safety: {len(plan)} records, {kills} SIGKILLs, {len(kept)} entries kept")
    assert kills >= len(STEPS) * ROUNDS * 2 // 3, kills

    final = cli(root, "record", "--glob", "app/Models/**", "--title", "After", "--note", "ok")
    assert final.returncode == 0, final.stderr
    repo = assert_consistent(root)  # index current again, temp files cleaned up
    titles = [e.title for f in repo.files for e in f.entries]
    assert sorted(titles) == sorted([*kept, "After"])
    assert not set(lost) & set(titles)


LOCK_HOLDER = """
import os, sys
from pathlib import Path
from rulelens.rules.write.atomic import crash_point, exclusive_lock
with exclusive_lock(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.readline()
    crash_point("before-rename")  # SIGKILL while holding the lock
"""


def test_a_lock_held_by_a_dead_writer_is_taken_over(tmp_path: Path) -> None:
    root = make_root(tmp_path / "project")
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(root / RULES)], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, text=True, env=server_env({"RULELENS_TEST_CRASH_AT": "before-rename"}))
    assert holder.stdout is not None and holder.stdin is not None
    assert holder.stdout.readline().strip() == "held"
    waiter = subprocess.Popen(
        [sys.executable, "-m", "rulelens", "--root", str(root), "record", "--glob", "app/**",
         "--title", "Waited", "--note", "for the lock"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=server_env())
    with pytest.raises(subprocess.TimeoutExpired):
        waiter.wait(timeout=2)  # blocked on the live holder's lock
    holder.stdin.write("die\n")
    holder.stdin.flush()
    assert holder.wait(timeout=30) == -9
    out, err = waiter.communicate(timeout=60)
    assert waiter.returncode == 0, err
    assert out.strip() == "Recorded rule in .ai/rules/app.md: Waited."
    assert_consistent(root)


@pytest.mark.parametrize("front", ["mcp", "lsp"])
def test_a_server_killed_mid_record_does_not_block_the_others(tmp_path: Path, front: str) -> None:
    """A server dies holding the lock (after the rule write); the CLI records next."""
    root = make_root(tmp_path / "project")
    assert cli(root, "record", "--glob", "app/Models/**", "--title", "One", "--note", "1").returncode == 0
    crash = {"RULELENS_TEST_CRASH_AT": "after-rule-write"}
    server: Mcp | Lsp
    if front == "mcp":
        server = Mcp(root, tmp_path / "server.err", env=crash)
    else:
        server = Lsp(root, tmp_path / "server.err", env=crash)
        server.initialize(root)
    with pytest.raises(ServerDied):
        server.record("routes/web.php", "Two", "2", timeout=60)
    server.kill()
    assert server.proc.returncode == -9
    done = cli(root, "record", "--glob", "app/Models/**", "--title", "Three", "--note", "3")
    assert done.returncode == 0, done.stderr
    repo = assert_consistent(root)
    assert sorted(e.title for f in repo.files for e in f.entries) == ["One", "Three", "Two"]


def test_crashes_among_concurrent_writers_lose_only_the_killed_records(tmp_path: Path) -> None:
    """Writers killed at random steps while others record into the same files at the same time:
    every healthy record is kept once, each killed one is kept exactly when its rule write was
    renamed into place, and the folder is whole afterwards."""
    root = make_root(tmp_path / "project")
    rng = random.Random(7)
    healthy = [f"Healthy {w}-{i}" for w in range(4) for i in range(15)]
    doomed = [(f"Doomed {n}", rng.choice(STEPS)) for n in range(24)]
    failures: list[str] = []

    def healthy_writer(w: int) -> None:
        mcp = Mcp(root, tmp_path / f"mcp{w}.err")
        try:
            for i in range(15):
                error, text = tool_text(mcp.record(GLOBS[(w + i) % len(GLOBS)], f"Healthy {w}-{i}", "ok"))
                if error:
                    failures.append(text)
        finally:
            mcp.close()

    def doomed_writer(chunk: list[tuple[str, str]]) -> None:
        for n, (title, step) in enumerate(chunk):
            done = cli(root, "record", "--glob", GLOBS[n % len(GLOBS)], "--title", title,
                       "--note", "doomed", env={"RULELENS_TEST_CRASH_AT": step})
            if done.returncode not in (0, -9):
                failures.append(done.stderr)
            outcome[title] = done.returncode

    outcome: dict[str, int] = {}
    threads = [threading.Thread(target=healthy_writer, args=(w,)) for w in range(4)]
    threads += [threading.Thread(target=doomed_writer, args=(doomed[k::2],)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert failures == []
    assert cli(root, "record", "--glob", "app/Models/**", "--title", "Last", "--note", "ok").returncode == 0
    repo = assert_consistent(root)
    titles = Counter(e.title for f in repo.files for e in f.entries)
    assert all(titles[t] == 1 for t in [*healthy, "Last"]), titles
    for title, step in doomed:
        kept = outcome[title] == 0 or step in KEEPS_ENTRY
        assert titles[title] == (1 if kept else 0), (title, step, outcome[title])
    kills = sum(1 for code in outcome.values() if code == -9)
    print(f"concurrent crashes: {len(healthy)} healthy records, {kills} of {len(doomed)} doomed killed")
    assert kills >= len(doomed) // 2
