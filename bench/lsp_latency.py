"""Latency of `rulelens serve` over stdio on generated workspaces, with lookup references.

Usage: python bench/lsp_latency.py [--quick] [--sizes R:G:F,...] [--opens N] [--cache DIR]
                                  [--against TREE] [--where] [--no-agents]

For each workspace (R rule files holding G globs, F files) it starts the real server over
stdio (VS Code's capabilities from pytest-lsp, so file watchers are registered) and prints:
start to first diagnostics; p50/p95 of didOpen→publishDiagnostics and of hover; glob
completion latency in a rule file; the server's peak RSS. didOpen is also measured with
Neovim's capabilities (no file watching: every request first polls the rules folder).

Every agent's files: at the first size, the same workspace plus every other agent's rule files
(bench/generate.py `write_agents`) is measured beside the Boost-only one, sessions interleaved:
didOpen→diagnostics and hover of source files as a ratio to the Boost-only figures, and
didOpen→diagnostics of the agents' own rule files (their findings).

In the same run it times the lookup "which rule files match this path" in-process three ways:
the core's RuleSet (what the server calls), the naive baseline (one pathspec per rule file,
tested in turn) and the floor (all globs in one compiled `re` alternation answering only
"does any glob match"). Figures only: nothing here asserts on time.

`--against TREE` runs the same sessions, in the same run, with the server of another checkout
(`TREE/server` on PYTHONPATH, e.g. `/work/main` for "before") and prints after/before ratios:
on a shared machine absolute figures drift with the load, ratios much less. `--where` prints
where start-up time goes (`python -X importtime`, the 15 slowest imports) and where memory goes
at the largest size (tracemalloc, by file, after the same work as a session).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pathspec
from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pytest_lsp import client_capabilities

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import file_paths, write_agents, write_project
from rulelens.glob_engines.boost import expand, patterns_of
from rulelens.rules.repository import RuleRepository

QUICK = [(10, 1_000, 10_000), (100, 1_000, 10_000), (1_000, 10_000, 10_000)]
DEFAULT = [*QUICK, (1_000, 1_000, 200_000), (1_000, 10_000, 200_000)]


# -- workspaces ---------------------------------------------------------------------------
def workspace(cache: Path, rules: int, globs: int, files: int) -> Path:
    """A generated project, cached between runs (generation dominates otherwise)."""
    root = cache / f"ws-{rules}-{globs}-{files}"
    marker = root / ".generated"
    if not marker.exists():
        t0 = time.perf_counter()
        write_project(root, files, rules, globs)
        RuleRepository(root).write_index()
        marker.write_text("ok\n")
        print(f"  (generated {root.name} in {time.perf_counter() - t0:.1f}s)", flush=True)
    return root


def git_workspace(cache: Path, rules: int, globs: int, files: int) -> Path:
    """The generated project as a git clone whose parsed frontmatters were kept (in
    `.git/rulelens/`, by a `check`, as the server keeps them after its first answers): the start
    of a server on a project it has seen before."""
    root = cache / f"ws-{rules}-{globs}-{files}-git"
    marker = root / ".generated"
    if not marker.exists():
        write_project(root, files, rules, globs)
        RuleRepository(root).write_index()
        env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.com",
               "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.com"}
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "generated"]):
            subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)
        marker.write_text("ok\n")
    subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "check"],
                   capture_output=True, check=False)  # leaves .git/rulelens/frontmatter.json
    return root


def workspace_with_agents(cache: Path, rules: int, globs: int, files: int) -> tuple[Path, list[str]]:
    """The same generated project plus every other agent's rule files."""
    root = cache / f"ws-{rules}-{globs}-{files}-agents"
    marker = root / ".generated"
    if not marker.exists():
        write_project(root, files, rules, globs)
        RuleRepository(root).write_index()
        write_agents(root, max(1, files // 1000))
        marker.write_text("ok\n")
    return root, write_agents(root, max(1, files // 1000))


# -- the client ---------------------------------------------------------------------------
class Client:
    """A minimal editor: answers the server's requests, times notifications."""

    def __init__(self) -> None:
        self.lsp = LanguageClient("rulelens-bench", "1")
        self.waiting: dict[str, asyncio.Future[float]] = {}
        # When each publishDiagnostics arrived, read and parsed as JSON but before pygls' client
        # converts it into lsprotocol objects (cattrs; 0.4 ms for a dozen rule files' related
        # information on this machine): the server's latency without this client's own cost.
        self.arrived: dict[str, float] = {}
        # When its bytes had been read, before the client decodes the JSON at all: pygls' client
        # decodes with a Python hook on every JSON object (2 µs each here; 0.5 ms for the ~250
        # objects of a dozen rule files' related information), which an editor does not pay.
        self.read: dict[str, float] = {}
        self._last_read = 0.0
        protocol = self.lsp.protocol
        structure = protocol.structure_message

        def arrival(data: dict[str, Any]) -> Any:
            if data.get("method") == types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS:
                uri = data.get("params", {}).get("uri")
                if isinstance(uri, str) and uri in self.waiting:
                    self.arrived[uri] = time.perf_counter()
                    self.read[uri] = self._last_read
            return structure(data)

        protocol.structure_message = arrival  # type: ignore[method-assign]

        @self.lsp.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(ls: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
            fut = self.waiting.pop(params.uri, None)
            if fut is not None and not fut.done():
                fut.set_result(time.perf_counter())

        @self.lsp.feature(types.WORKSPACE_CONFIGURATION)
        def configuration(ls: LanguageClient, params: types.ConfigurationParams) -> list[Any]:
            return [None for _ in params.items]

        @self.lsp.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(ls: LanguageClient, params: types.RegistrationParams) -> None:
            return None

        @self.lsp.feature(types.WINDOW_LOG_MESSAGE)
        def log(ls: LanguageClient, params: types.LogMessageParams) -> None:
            return None

    def stamp_reads(self) -> None:
        """Note when each message body has been read (the server's stdout, once started)."""
        server = self.lsp._server
        assert server is not None and server.stdout is not None
        stdout = server.stdout
        readexactly = stdout.readexactly

        async def timed(n: int) -> bytes:
            body = await readexactly(n)
            self._last_read = time.perf_counter()
            return body

        stdout.readexactly = timed  # type: ignore[method-assign]

    def expect(self, uri: str) -> asyncio.Future[float]:
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.waiting[uri] = fut
        return fut

    def open(self, uri: str, text: str) -> None:
        self.lsp.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="text", version=1,
                                                 text=text)))

    def close(self, uri: str) -> None:
        self.lsp.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))

    @property
    def pid(self) -> int:
        server = self.lsp._server
        assert server is not None
        return server.pid


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def server_env(tree: Path | None) -> dict[str, str]:
    """The environment that runs the server of `tree` (this checkout when None)."""
    here = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str((tree or here) / "server")}
    # An installed rulelens has its bytecode; without it every start compiles the sources.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


async def session(root: Path, caps_name: str, sample: list[str], opens: int,
                  full: bool, tree: Path | None = None,
                  samples: dict[str, list[float]] | None = None) -> dict[str, float]:
    """One server: start, opens, hovers, completions; returns the figures (ms, MB), and puts
    each didOpen's times into `samples` ("open", "arrive", "read") when given."""
    c = Client()
    out: dict[str, float] = {}
    t0 = time.perf_counter()
    await c.lsp.start_io(sys.executable, "-m", "rulelens", "serve", env=server_env(tree))
    c.stamp_reads()
    await c.lsp.initialize_async(types.InitializeParams(
        capabilities=client_capabilities(caps_name), process_id=os.getpid(),
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)]))
    c.lsp.initialized(types.InitializedParams())
    first = (root / sample[0]).as_uri()
    fut = c.expect(first)
    c.open(first, "x\n")
    out["start_ms"] = (await asyncio.wait_for(fut, 60) - t0) * 1000

    latencies, arrivals, reads = [], [], []
    for rel in sample[1 : opens + 1]:
        uri = (root / rel).as_uri()
        fut = c.expect(uri)
        sent = time.perf_counter()
        c.open(uri, "x\n")
        latencies.append((await asyncio.wait_for(fut, 60) - sent) * 1000)
        arrivals.append((c.arrived.pop(uri) - sent) * 1000)
        reads.append((c.read.pop(uri) - sent) * 1000)
    out["open_p50"], out["open_p95"] = pct(latencies, 0.5), pct(latencies, 0.95)
    out["arrive_p50"], out["arrive_p95"] = pct(arrivals, 0.5), pct(arrivals, 0.95)
    out["read_p50"], out["read_p95"] = pct(reads, 0.5), pct(reads, 0.95)
    if samples is not None:
        samples.update(open=latencies, arrive=arrivals, read=reads)
    out["rss_first_mb"] = peak_rss_mb(c.pid)
    if not full:
        await stop(c)
        return out

    hovers = []
    for rel in sample[1 : opens + 1]:
        sent = time.perf_counter()
        await c.lsp.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=(root / rel).as_uri()),
            position=types.Position(line=0, character=0)))
        hovers.append((time.perf_counter() - sent) * 1000)
    out["hover_p50"], out["hover_p95"] = pct(hovers, 0.5), pct(hovers, 0.95)
    for rel in sample[1 : opens + 1]:
        c.close((root / rel).as_uri())

    out.update(await completions(c, root))
    out["rss_mb"] = peak_rss_mb(c.pid)
    await stop(c)
    return out


async def agent_file_opens(root: Path, first: str, agent_files: list[str]) -> dict[str, float]:
    """didOpen→diagnostics of each agent rule file (its findings), after one source file."""
    c = Client()
    await c.lsp.start_io(sys.executable, "-m", "rulelens", "serve", env=server_env(None))
    await c.lsp.initialize_async(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), process_id=os.getpid(),
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)]))
    c.lsp.initialized(types.InitializedParams())
    fut = c.expect((root / first).as_uri())
    c.open((root / first).as_uri(), "x\n")
    await asyncio.wait_for(fut, 60)
    times = []
    for rel in agent_files:
        uri = (root / rel).as_uri()
        fut = c.expect(uri)
        sent = time.perf_counter()
        c.open(uri, (root / rel).read_text())
        times.append((await asyncio.wait_for(fut, 60) - sent) * 1000)
    await stop(c)
    return {"first": times[0], "p50": pct(times[1:], 0.5), "p95": pct(times[1:], 0.95), "n": len(times)}


def agents_row(cache: Path, size: tuple[int, int, int], sample: list[str], opens: int,
               repeat: int) -> dict[str, Any]:
    """Boost-only against every agent's files, same size, sessions interleaved; medians."""
    plain = workspace(cache, *size)
    with_agents, agent_files = workspace_with_agents(cache, *size)
    bases, afters = [], []
    for _ in range(repeat):
        bases.append(asyncio.run(session(plain, "visual-studio-code", sample, opens, full=True)))
        afters.append(asyncio.run(session(with_agents, "visual-studio-code", sample, opens, full=True)))
    own = asyncio.run(agent_file_opens(with_agents, sample[0], agent_files))
    return {"size": size, "base": medians(bases), "agents": medians(afters), "own": own}


def print_agents(row: dict[str, Any]) -> None:
    r, g, f = row["size"]
    base, after, own = row["base"], row["agents"], row["own"]
    print(f"\nEvery agent's files present ({r:,} rule files / {g:,} globs / {f:,} files; VS Code "
          "capabilities; medians of interleaved sessions; ratio = with agents / Boost only)")
    print("| | Boost only | with every agent | ratio |\n|---|---:|---:|---:|")
    for key, label in (("open_p50", "didOpen→diagnostics p50 (source files)"),
                       ("open_p95", "didOpen→diagnostics p95 (source files)"),
                       ("hover_p50", "hover p50 (with the agents section)"),
                       ("hover_p95", "hover p95 (with the agents section)"),
                       ("start_ms", "start→1st diagnostics")):
        print(f"| {label} | {base[key]:.2f} | {after[key]:.2f} | {after[key] / base[key]:.2f} |")
    print(f"| didOpen→diagnostics of the {own['n']} agent rule files: first (reads every agent, "
          f"checks budgets and disagreements) | | {own['first']:.1f} | |")
    print(f"| … then p50 / p95 | | {own['p50']:.2f} / {own['p95']:.2f} "
          f"| {own['p95'] / base['open_p95']:.2f} (p95 / Boost-only source p95) |")


async def completions(c: Client, root: Path) -> dict[str, float]:
    """Completion at several folder depths inside a rule file's `paths`."""
    prefixes = ["", "pkg1/", "pkg3/mod7/", "pkg0/mod0/", "pkg2/", "pkg5/mod49/"]
    text = "---\npaths:\n" + "".join(f"  - '{p}'\n" for p in prefixes) + "---\n\n# B\n\n## B\nB\n"
    path = root / ".ai" / "rules" / "zz-bench.md"
    uri = path.as_uri()
    fut = c.expect(uri)
    c.open(uri, text)
    await asyncio.wait_for(fut, 60)
    times = []
    first = 0.0
    for rnd in range(12):
        for n, p in enumerate(prefixes):
            sent = time.perf_counter()
            result = await c.lsp.text_document_completion_async(types.CompletionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                position=types.Position(line=2 + n, character=5 + len(p))))
            took = (time.perf_counter() - sent) * 1000
            assert result is not None and len(result.items) > 0, p
            if rnd == 0 and n == 0:
                first = took
            else:
                times.append(took)
    c.close(uri)
    return {"compl_first": first, "compl_p50": pct(times, 0.5), "compl_p95": pct(times, 0.95)}


async def stop(c: Client) -> None:
    await c.lsp.shutdown_async(None)
    c.lsp.exit(None)
    await c.lsp.stop()


# -- the lookup and its references ----------------------------------------------------------
def per_lookup_us(fn: Callable[[str], object], paths: list[str]) -> float:
    t0 = time.perf_counter()
    for p in paths:
        fn(p)
    return (time.perf_counter() - t0) / len(paths) * 1e6


def lookups(root: Path, sample: list[str], naive_sample: int) -> dict[str, float]:
    repo = RuleRepository(root)
    ruleset = repo.ruleset
    items = [rule.lenient_paths for rule in repo.files]
    specs = [pathspec.PathSpec.from_lines("gitignore", [g if inc else "!" + g
                                                        for item in its
                                                        for g, inc in expand(item)])
             for its in items]
    regexes = [p.regex.pattern for its in items for item in its for p in patterns_of(item)
               if p.include]
    floor = re.compile("|".join(f"(?:{r})" for r in regexes))
    few = sample[:naive_sample]
    # Same answers first: the index and the naive baseline must agree.
    for path in few[:200]:
        naive = [i for i, spec in enumerate(specs) if spec.match_file(path)]
        assert ruleset.owners_of(path) == naive, path
    ruleset.warm()  # like the floor below, compiled before it is timed
    return {
        "lookup_us": per_lookup_us(ruleset.owners_of, sample),
        "naive_us": per_lookup_us(lambda p: [s.match_file(p) for s in specs], few),
        "floor_us": per_lookup_us(floor.match, sample),
    }


# -- main --------------------------------------------------------------------------------
def parse_sizes(text: str) -> list[tuple[int, int, int]]:
    out = []
    for part in text.split(","):
        r, g, f = (int(x.replace("_", "")) for x in part.split(":"))
        out.append((r, g, f))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="10,000-file workspaces only")
    ap.add_argument("--sizes", help="rule_files:globs:files,... (overrides --quick)")
    ap.add_argument("--opens", type=int, default=300, help="didOpen/hover samples per run")
    ap.add_argument("--lookups", type=int, default=5_000, help="paths timed per lookup method")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/rulelens-bench"))
    ap.add_argument("--against", type=Path, help="another checkout whose server is the baseline")
    ap.add_argument("--repeat", type=int, default=3, help="baseline/after pairs with --against")
    ap.add_argument("--where", action="store_true", help="import-time and memory breakdowns")
    ap.add_argument("--no-agents", action="store_true", help="skip the every-agent row")
    args = ap.parse_args()
    sizes = parse_sizes(args.sizes) if args.sizes else (QUICK if args.quick else DEFAULT)
    args.cache.mkdir(parents=True, exist_ok=True)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; "
          f"pathspec {pathspec.__version__}; load average {os.getloadavg()[0]:.1f}", flush=True)
    rows = []
    baselines: list[Any] = []
    agents: dict[str, Any] | None = None
    for rules, globs, files in sizes:
        root = workspace(args.cache, rules, globs, files)
        rng = random.Random(1)
        paths = file_paths(files)
        sample = rng.sample(paths, min(len(paths), max(args.opens + 1, args.lookups)))
        lk = lookups(root, sample, naive_sample=200 if globs > 1_000 else 1_000)
        vs = asyncio.run(session(root, "visual-studio-code", sample, args.opens, full=True))
        nv = asyncio.run(session(root, "neovim", sample, args.opens, full=False))
        rows.append(((rules, globs, files), lk, vs, nv))
        if args.against is not None:
            bases, afters = [], [vs]
            for _ in range(args.repeat):  # interleaved, so that load changes hit both alike
                bases.append(asyncio.run(session(root, "visual-studio-code", sample, args.opens,
                                                 full=True, tree=args.against)))
                afters.append(asyncio.run(session(root, "visual-studio-code", sample, args.opens,
                                                  full=True)))
            baselines.append(((rules, globs, files), medians(bases), medians(afters)))
        if agents is None and not args.no_agents:
            agents = agents_row(args.cache, (rules, globs, files), sample, args.opens, args.repeat)
        print(f"  done {rules} rule files / {globs} globs / {files} files", flush=True)
    print_tables(rows)
    if agents is not None:
        print_agents(agents)
    if baselines:
        print_against(baselines, args.against)
    if args.where:
        print_where(workspace(args.cache, *sizes[-1]), file_paths(sizes[-1][2]))
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (other work on the machine "
          "inflates the tails)")
    return 0


def print_tables(rows: list[Any]) -> None:
    print("\nServer over stdio (ms; VS Code capabilities unless marked nvim = polling)")
    print("| rule files | globs | files | start→1st diag | didOpen p50 | didOpen p95 "
          "| nvim didOpen p95 | hover p50 | hover p95 | completion first | completion p50 "
          "| completion p95 | peak RSS MB |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (r, g, f), _lk, vs, nv in rows:
        print(f"| {r:,} | {g:,} | {f:,} | {vs['start_ms']:.0f} | {vs['open_p50']:.2f} "
              f"| {vs['open_p95']:.2f} | {nv['open_p95']:.2f} | {vs['hover_p50']:.2f} "
              f"| {vs['hover_p95']:.2f} | {vs['compl_first']:.0f} | {vs['compl_p50']:.2f} "
              f"| {vs['compl_p95']:.2f} | {vs['rss_mb']:.0f} |")
    print("\nLookup \"which rule files match this path\" (µs per path, in-process)")
    print("| rule files | globs | files | rulelens | naive pathspec per file | re floor "
          "| speed-up vs naive | x floor |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (r, g, f), lk, _vs, _nv in rows:
        print(f"| {r:,} | {g:,} | {f:,} | {lk['lookup_us']:.1f} | {lk['naive_us']:.0f} "
              f"| {lk['floor_us']:.1f} | {lk['naive_us'] / lk['lookup_us']:.0f}x "
              f"| {lk['lookup_us'] / lk['floor_us']:.2f} |")
    print(f"\nmedian start across runs: "
          f"{statistics.median(vs['start_ms'] for _, _, vs, _ in rows):.0f} ms")


def medians(runs: list[dict[str, float]]) -> dict[str, float]:
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def print_against(rows: list[Any], tree: Path) -> None:
    """This checkout against `tree`: same workspaces, same run, sessions interleaved, medians."""
    print(f"\nAgainst {tree} (VS Code capabilities; medians of interleaved sessions; "
          "ratio = this checkout / baseline, < 1 is better)")
    print("| rule files | globs | files | start→1st diag base | after | ratio | didOpen p50 ratio "
          "| hover p50 ratio | RSS at 1st diag base MB | after MB | peak RSS base MB | after MB |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (r, g, f), base, med in rows:
        def after(key: str, med: dict[str, float] = med) -> float:
            return med[key]

        print(f"| {r:,} | {g:,} | {f:,} | {base['start_ms']:.0f} | {after('start_ms'):.0f} "
              f"| {after('start_ms') / base['start_ms']:.2f} "
              f"| {after('open_p50') / base['open_p50']:.2f} "
              f"| {after('hover_p50') / base['hover_p50']:.2f} "
              f"| {base['rss_first_mb']:.0f} | {after('rss_first_mb'):.0f} "
              f"| {base['rss_mb']:.0f} | {after('rss_mb'):.0f} |")


def print_where(root: Path, paths: list[str]) -> None:
    """Where start-up time and memory go (figures only)."""
    import subprocess
    import tracemalloc

    # As `rulelens serve` starts: collector paused and kept compiled code installed first.
    probe = ("from rulelens.lsp.main import prepare; prepare(); import rulelens.cli.app; "
             "from rulelens.lsp.server import build; build(None)")
    err = subprocess.run([sys.executable, "-X", "importtime", "-c", probe], env=server_env(None),
                         capture_output=True, text=True, check=True).stderr
    rows = []
    for line in err.splitlines():
        if line.startswith("import time:") and "|" in line:
            parts = line.replace("import time:", "").split("|")
            if len(parts) == 3 and parts[0].strip().isdigit():
                self_us, total_us, name = parts
                top = name.startswith(" ") and not name.startswith("  ")
                rows.append((int(self_us), int(total_us), name.strip(), top))
    total = sum(t for _, t, _, top in rows if top)
    print(f"\nImports of `rulelens serve` (python -X importtime, {total / 1000:.0f} ms in all): "
          "the 15 slowest by own time")
    print("| module | own ms | cumulative ms |\n|---|---:|---:|")
    for self_us, total_us, name, _ in sorted(rows, reverse=True)[:15]:
        print(f"| {name} | {self_us / 1000:.0f} | {total_us / 1000:.0f} |")

    tracemalloc.start(1)
    from rulelens.lsp.workspace.roots import Root

    base = tracemalloc.take_snapshot()
    ws = Root(root, ".ai/rules")
    for p in paths[:2_000]:
        ws.repo.rules_for(p)
    ws.files()
    ws.tree()
    lazy = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(base, "filename"))
    ws.repo.ruleset.warm()
    snap = tracemalloc.take_snapshot().compare_to(base, "filename")
    used = sum(s.size_diff for s in snap)
    print(f"\nMemory the rules take at {root.name} (tracemalloc, in-process): {lazy / 2**20:.1f} MB "
          f"after 2,000 lookups, the file list and its tree; {used / 2**20:.1f} MB once every "
          "bucket is compiled (warm). By file, warm:")
    print("| file | MB |\n|---|---:|")
    for stat in snap[:10]:
        frame = stat.traceback[0]
        print(f"| {'/'.join(Path(frame.filename).parts[-2:])} | {stat.size_diff / 2**20:.1f} |")
    tracemalloc.stop()


if __name__ == "__main__":
    raise SystemExit(main())
