"""How fast `rulelens serve` settles after a `git checkout` that swaps 5,000 files and the rules.

Usage: python bench/fs_storm.py [--switches N] [--mode watch|poll]
For each checkout it prints: the checkout's own time; the seconds until every open document's
latest diagnostics equal a fresh core's view; the server's CPU ticks spent (/proc/<pid>/stat
utime + stime + cutime + cstime at 100 Hz, so its `git ls-files` children count too); and the
seconds until its CPU went idle (the last 20 ms sample in which its tick count moved).
Figures only; tests/reliability/test_storm.py asserts correctness.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.reliability import storm
from tests.reliability.wire import Lsp

WINDOW = 3.0
SAMPLE = 0.02


def correct(lsp: Lsp, repo: Path, uris: dict[str, str]) -> bool:
    with lsp.lock:
        for rel, uri in uris.items():
            pubs = [n for n in lsp.notifications if n.get("method") == "textDocument/publishDiagnostics"
                    and n["params"]["uri"] == uri]
            if not pubs or storm.seen(rel, pubs[-1]["params"]["diagnostics"]) != storm.expected(repo, rel):
                return False
    return True


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--switches", type=int, default=6)
    ap.add_argument("--mode", choices=["watch", "poll"], default="watch")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "project"
        t0 = time.monotonic()
        storm.build(repo)
        print(f"built 2 branches, {storm.N_SRC + storm.ADDED} files, in {time.monotonic() - t0:.1f}s")
        lsp = Lsp(repo, Path(tmp) / "lsp.err")
        lsp.initialize(repo, watch=args.mode == "watch")
        uris = {rel: lsp.open(repo / rel, text=None if (repo / rel).exists() else "<?php\n")
                for rel in storm.OPEN}
        time.sleep(1.0)
        current = "one"
        print(f"mode={args.mode}  open documents: {len(uris)}")
        print("branch  changes  checkout_s  correct_after_s  cpu_ticks  idle_after_s")
        for n in range(args.switches):
            branch = "two" if n % 2 == 0 else "one"
            events = storm.changes(repo, current, branch)
            c0 = time.monotonic()
            storm.git(repo, "checkout", "-q", branch)
            current = branch
            start = time.monotonic()
            ticks0 = storm.cpu_ticks(lsp.proc.pid)
            if args.mode == "watch":
                for i in range(0, len(events), 500):
                    lsp.notify("workspace/didChangeWatchedFiles", {"changes": events[i:i + 500]})
            else:
                lsp.send_request("textDocument/hover", {"textDocument": {"uri": next(iter(uris.values()))},
                                                        "position": {"line": 0, "character": 0}})
            last_ticks, last_move, correct_at = ticks0, start, None
            while time.monotonic() - start < WINDOW:
                ticks = storm.cpu_ticks(lsp.proc.pid)
                if ticks != last_ticks:
                    last_ticks, last_move = ticks, time.monotonic()
                if correct_at is None and correct(lsp, repo, uris):
                    correct_at = time.monotonic()
                time.sleep(SAMPLE)
            shown = f"{correct_at - start:.3f}" if correct_at else "never"
            print(f"{branch:6}  {len(events):7}  {start - c0:10.2f}  {shown:>15}  "
                  f"{last_ticks - ticks0:9}  {last_move - start:12.3f}")
        lsp.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
