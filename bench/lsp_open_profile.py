"""Where a didOpen's time goes inside the language server, 10 globs against 10,000 globs.

Usage: python bench/lsp_open_profile.py [--opens N] [--skip N] [--pause S] [--cprofile]
                                        [--cache DIR] [--tree TREE]

Runs the real server over stdio (bench/lsp_latency.py's client and workspaces, VS Code's
capabilities) with timers put around the steps of a source file's diagnostic, inside the
server: the thread's CPU time of each step per open, and of the whole didOpen, for the opens
after the first `--skip` (the very first loads the rules). `--pause` waits that long after the
first diagnostics, so that the warm-up between requests is done before the opens (the steady
state); without it the opens race the warm-up, as an editor's first minutes do. `--cprofile`
also profiles the same opens (the 25 functions with the most own time). The client's "bytes
read" latency (bench/lsp_latency.py) is printed beside them.

A step's figure includes the steps nested in it (indented), and only what runs inside a didOpen
(the warm-up between requests calls some of the same functions). Timers cost about 0.3 µs a
call: compare sizes with each other, not with bench/flat_cost.py's figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

# (module, owner in it or "", function, label): the steps timed, outermost first.
STEPS = [
    ("rulelens.lsp.session", "Session", "target", "which document it is (Session.target)"),
    ("pygls.workspace.workspace", "Workspace", "put_text_document", "pygls keeps the document"),
    ("rulelens.lsp.features.diagnostics", "", "rules_json", "the diagnostic as JSON"),
    ("rulelens.rules.repository", "RuleRepository", "rules_for", "  rules_for"),
    ("rulelens.rules.match.matcher", "RuleSet", "selecting", "    which globs match (RuleSet.selecting)"),
    ("rulelens.rules.repository", "RuleRepository", "_match", "    a rule file's Match, not kept"),
    ("rulelens.lsp.features.diagnostics", "", "_pieces", "  a rule file's pieces, first reach"),
    ("rulelens.lsp.features.diagnostics", "", "_said", "  a rule file's part, first reach"),
    ("rulelens.lsp.wire.protocol", "RulelensProtocol", "notify_json", "writing the notification"),
    ("rulelens.lsp.workspace.warmup", "Warmup", "start", "starting the warm-up"),
]


# -- inside the server ----------------------------------------------------------------------
def serve(out: str, skip: int, cprofile: bool) -> None:
    """`rulelens serve`, with the didOpen steps timed; the figures go to `out` (JSON) on exit."""
    import atexit
    import cProfile
    import importlib
    import pstats

    from rulelens.lsp import main
    from rulelens.lsp.wire import protocol

    sums: dict[str, float] = {}
    opens: list[float] = []
    seen = [0]
    inside = [False]  # in a didOpen: the warm-up calls some of the same steps between requests
    profile = cProfile.Profile()

    def timed(fn: Callable[..., Any], label: str) -> Callable[..., Any]:
        def step(*args: Any, **kwargs: Any) -> Any:
            if not inside[0]:
                return fn(*args, **kwargs)
            t0 = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                sums[label] = sums.get(label, 0.0) + time.thread_time() - t0
        return step

    for module, owner, name, label in STEPS:
        holder: Any = importlib.import_module(module)
        if owner:
            holder = getattr(holder, owner)
        if hasattr(holder, name):  # another checkout (`--tree`) may not have every step
            setattr(holder, name, timed(getattr(holder, name), label))

    handle = protocol.RulelensProtocol.handle_message

    def handle_message(self: protocol.RulelensProtocol, message: Any) -> None:
        if getattr(message, "method", None) != "textDocument/didOpen":
            handle(self, message)
            return
        seen[0] += 1
        if seen[0] == skip + 1:
            sums.clear()
        counted = seen[0] > skip
        t0 = time.thread_time()
        if counted and cprofile:
            profile.enable()
        inside[0] = True
        try:
            handle(self, message)
        finally:
            inside[0] = False
        if counted and cprofile:
            profile.disable()
        if counted:
            opens.append(time.thread_time() - t0)

    protocol.RulelensProtocol.handle_message = handle_message  # type: ignore[method-assign]

    def dump() -> None:
        top = ""
        if cprofile and opens:
            with tempfile.TemporaryFile("w+") as text:
                pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(25)
                text.seek(0)
                top = text.read()
        n = max(1, len(opens))
        Path(out).write_text(json.dumps({
            "opens": len(opens), "open_us": sorted(opens)[len(opens) // 2] * 1e6 if opens else 0.0,
            "steps": {label: sums.get(label, 0.0) / n * 1e6 for _, _, _, label in STEPS},
            "profile": top}))

    atexit.register(dump)
    main.serve(None, False, "", 0)


# -- the client -----------------------------------------------------------------------------
async def session(root: Path, sample: list[str], skip: int, pause: float, cprofile: bool,
                  tree: Path | None) -> dict[str, Any]:
    from lsprotocol import types
    from pytest_lsp import client_capabilities

    import lsp_latency as lsp

    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        env = {**lsp.server_env(tree), "PYTHONPATH": str((tree or Path(__file__).resolve().parents[1])
                                                       / "server")}
        c = lsp.Client()
        args = ["--serve", out.name, "--skip", str(skip)] + (["--cprofile"] if cprofile else [])
        await c.lsp.start_io(sys.executable, str(Path(__file__).resolve()), *args, env=env)
        c.stamp_reads()
        await c.lsp.initialize_async(types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"), process_id=os.getpid(),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)]))
        c.lsp.initialized(types.InitializedParams())
        reads = []
        for n, rel in enumerate(sample):
            uri = (root / rel).as_uri()
            fut = c.expect(uri)
            sent = time.perf_counter()
            c.open(uri, "x\n")
            await asyncio.wait_for(fut, 60)
            c.arrived.pop(uri, None)
            reads.append((c.read.pop(uri) - sent) * 1000)
            if n == 0:
                await asyncio.sleep(pause)
        await lsp.stop(c)
        for _ in range(100):  # the server writes its figures as it exits
            if Path(out.name).stat().st_size:
                break
            await asyncio.sleep(0.05)
        figures: dict[str, Any] = json.loads(Path(out.name).read_text())
    figures["read_ms"] = lsp.pct(reads[skip:], 0.5)
    return figures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--opens", type=int, default=200)
    ap.add_argument("--skip", type=int, default=1, help="opens not counted, the first of them included")
    ap.add_argument("--pause", type=float, default=0.0,
                    help="seconds of quiet after the first diagnostics (the warm-up finishes)")
    ap.add_argument("--cprofile", action="store_true")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/rulelens-bench"))
    ap.add_argument("--tree", type=Path, help="another checkout's server")
    ap.add_argument("--serve", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.serve, args.skip, args.cprofile)
        return 0
    import lsp_latency as lsp
    from generate import file_paths

    sample = random.Random(1).sample(file_paths(10_000), args.opens + 1)
    print(f"load average {os.getloadavg()[0]:.1f}; thread CPU µs per open, opens {args.skip + 1}"
          f" to {args.opens + 1} of a session (median for the whole didOpen, mean for each step)")
    sides = [("10 globs", lsp.workspace(args.cache, 10, 10, 10_000)),
             ("10,000 globs", lsp.workspace(args.cache, 1_000, 10_000, 10_000))]
    found = {name: asyncio.run(session(root, sample, args.skip, args.pause, args.cprofile, args.tree))
             for name, root in sides}
    print("| step | " + " | ".join(name for name, _ in sides) + " |\n| --- | ---: | ---: |")
    print("| the whole didOpen (median) | "
          + " | ".join(f"{found[name]['open_us']:.0f}" for name, _ in sides) + " |")
    for _, _, _, label in STEPS:
        print(f"| {label} | " + " | ".join(f"{found[name]['steps'][label]:.1f}" for name, _ in sides)
              + " |")
    print("| the client's bytes read, p50 (ms) | "
          + " | ".join(f"{found[name]['read_ms']:.2f}" for name, _ in sides) + " |")
    if args.cprofile:
        for name, _ in sides:
            print(f"\ncProfile, {name} (the same opens; own time first):\n{found[name]['profile']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
