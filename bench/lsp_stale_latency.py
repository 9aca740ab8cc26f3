"""First diagnostics of a rule file in `rulelens serve` on a large project, and when its
staleness findings arrive (the name search runs off the request path).

Usage: python bench/lsp_stale_latency.py PROJECT [--against TREE] [--runs N]
PROJECT is a git project with file contents, such as the one `bench/check_stale.py --project DIR`
builds (200,000 files). For each server (this checkout, and TREE's with `--against`, e.g.
/work/main for "before") and each state of the name-search cache (none; written by a run
before), it starts the server over stdio, opens one rule file that names stale paths and names,
sends a hover at once, and prints: start to the first publication for the rule file, start to
the publication with `stale-name` in it, and how long the hover took. Figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pytest_lsp import client_capabilities

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lsp_latency import server_env

RULE = ".ai/rules/rule-0000.md"


def drop_cache(root: Path) -> None:
    where = subprocess.run(["git", "-C", str(root), "rev-parse", "--path-format=absolute", "--git-path",
                            "rulelens"], capture_output=True, text=True, check=True).stdout.strip()
    shutil.rmtree(where, ignore_errors=True)


async def session(root: Path, tree: Path | None) -> dict[str, float]:
    lsp = LanguageClient("rulelens-bench", "1")
    times: list[tuple[float, bool]] = []
    uri = (root / RULE).as_uri()
    done = asyncio.get_running_loop().create_future()

    @lsp.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(ls: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        if params.uri != uri:
            return
        stale = any(d.code == "stale-name" for d in params.diagnostics)
        times.append((time.perf_counter(), stale))
        if stale and not done.done():
            done.set_result(None)

    @lsp.feature(types.WORKSPACE_CONFIGURATION)
    def configuration(ls: LanguageClient, params: types.ConfigurationParams) -> list[Any]:
        return [None for _ in params.items]

    @lsp.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(ls: LanguageClient, params: types.RegistrationParams) -> None:
        return None

    t0 = time.perf_counter()
    await lsp.start_io(sys.executable, "-m", "rulelens", "serve", env=server_env(tree))
    await lsp.initialize_async(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), process_id=os.getpid(),
        root_uri=root.as_uri(), workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="p")]))
    lsp.initialized(types.InitializedParams())
    lsp.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="markdown", version=1, text=(root / RULE).read_text())))
    sent = time.perf_counter()
    await lsp.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=0)))
    hover = time.perf_counter() - sent
    await asyncio.wait_for(done, 120)
    await lsp.shutdown_async(None)
    lsp.exit(None)
    await lsp.stop()
    first = times[0][0]
    stale = next(t for t, s in times if s)
    return {"first": (first - t0) * 1000, "stale": (stale - t0) * 1000, "hover": hover * 1000}


async def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("project", type=Path)
    ap.add_argument("--against", type=Path)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    root = args.project.resolve()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    servers: list[tuple[str, Path | None]] = [("after", None)]
    if args.against:
        servers.insert(0, ("before", args.against.resolve()))
    rows: dict[tuple[str, str], list[dict[str, float]]] = {}
    for _ in range(args.runs):
        for name, tree in servers:
            for cache in ("no cache", "cache"):
                if cache == "no cache":
                    drop_cache(root)
                elif name == "before":
                    continue  # the server before had no cache
                rows.setdefault((name, cache), []).append(await session(root, tree))
    print(f"load average after: {os.getloadavg()[0]:.1f}; medians of {args.runs} runs, interleaved")
    print("| server | name-search cache | first diagnostics ms | with staleness ms | hover sent with "
          "the open, ms |")
    print("| --- | --- | ---: | ---: | ---: |")
    for (name, cache), runs in rows.items():
        med = {k: statistics.median(r[k] for r in runs) for k in ("first", "stale", "hover")}
        print(f"| {name} | {cache} | {med['first']:.0f} | {med['stale']:.0f} | {med['hover']:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
