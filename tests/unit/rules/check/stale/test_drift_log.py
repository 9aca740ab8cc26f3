"""`rule-drift`'s history is read from git's log as git writes it (drift.py `_parsed_log`), in
blocks of any size: every cut reads the same commits."""

from __future__ import annotations

import random

import pytest

from rulelens.rules.check.stale import drift
from rulelens.rules.check.stale.drift import _parsed_log


def test_any_cut_of_the_log_into_blocks_reads_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drift, "BULK", 5)
    rnd = random.Random(7)
    for _ in range(2000):
        log, expected = b"", []
        for n in range(rnd.randint(0, 4)):
            paths = [rnd.choice([".ai/rules/", "app/", "x"]) + "ab"[rnd.randint(0, 1)] * rnd.randint(1, 3)
                     for _ in range(rnd.randint(0, 9))]
            log += f"\x012026-01-0{n}\x02h{n}\0".encode() + b"\n" * bool(paths)
            log += b"".join(p.encode() + b"\0" for p in paths)
            kept = paths if len(paths) <= 5 else [p for p in paths if p.startswith(".ai/rules/")]
            expected.append(([f"2026-01-0{n}", f"h{n}"], tuple(kept)))
        size = rnd.randint(1, 24)
        blocks = [log[i : i + size] for i in range(0, len(log), size)]
        assert _parsed_log(iter(blocks), ".ai/rules/") == expected
