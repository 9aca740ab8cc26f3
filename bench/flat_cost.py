"""One table for the flat-cost goals: CLI start-up, `rulelens check` beside agnix, and the
language server's didOpen scaling and first diagnostics, all measured in the same run.

Usage: python bench/flat_cost.py [--corpus DIR] [--runs N] [--agnix PATH] [--no-lsp]
                                 [--generated 1000,5000,20000] [--cache DIR] [--against TREE]

- Start-up: `python -c pass`, `rulelens --version`, `rulelens match <one path>` and `rulelens
  check`'s kept answer (in the generated project's git twin), interleaved, medians (the console
  script next to this interpreter, as a pre-commit hook runs it); and how many modules the kept
  answer imports beyond `--version`, as its test's budget counts them.
- `check` against agnix (a Rust linter of agent configurations, from PyPI; it is installed into
  its own venv under .ci/cache/bench-venv when `--agnix` is not given, never into the project's
  dependencies): on every repository below `--corpus` that has `.ai/rules` (pass copies: both
  tools may write caches into them; their git index is refreshed, as a user's `git status` keeps
  it) and on generated projects; one untimed run each first, so caches are as a pre-commit hook
  finds them; then `--runs` interleaved pairs, alternating which
  goes first; then the same with one source file edited before each pair (inside git the kept
  answer may still apply through the search of the edited files; outside git it applies when
  the run searched no file's text, else the run is in full and walks the tree after it). Each
  generated project is also measured as a git repository with one commit
  (`--no-git-generated` leaves those out). Wall-clock
  medians, their ratio, the repository's file count (`git ls-files`, or a walk), and each
  tool's peak RSS (from `wait4`). Each repository also gets a row in full (`--no-cache`: the
  kept answer off, the other caches in git's folder warm, as a second run finds them) and, in a
  git repository, a row with no cache at all (git's `rulelens` folder removed before each run:
  a fresh clone in CI, which reads the history for `rule-drift` and the deleted names). Outside git no answer
  is kept: the kept-answer row is a run in full.
- The language server (bench/lsp_latency.py's sessions, VS Code capabilities): didOpen →
  diagnostics p50 at 10,000 globs over the same at 10 globs (10,000 files), Boost only and with
  every agent's files, from `--sessions` sessions a side run alternately (10 globs, 10,000 globs,
  10,000 globs, 10 globs, …: each round a pair back to back): the median of the sessions' p50s
  on each side and their ratio, the pooled p50 of every session's opens, each round's pair's
  ratio, and each session's p50 (one session's noise moved a one-session ratio by 0.8 between
  runs of the same code); start → first diagnostics on a 1,000-file project
  and at 10,000 globs, also as the first start after an install (the compiled code the server
  keeps beside its bytecode removed first; one untimed session before the others keeps it, as
  any earlier start would). didOpen is timed three times: when pygls' client has converted the
  message into lsprotocol objects (its cattrs conversion of a dozen rule files' related
  information is part of that figure), when the message arrived, parsed as JSON, and when its
  bytes had been read, before the client decodes them (the server's latency: pygls' client
  decodes JSON with a Python hook on every object, 0.5 ms for a dozen rule files' related
  information here).
  `--against TREE` runs the same sessions with another checkout's server, interleaved, and
  that checkout's `check` in every `check` row's rotation (before, after, agnix, each in each
  place equally often over 6 runs: pass an even multiple of 3 to `--runs`), with a row of after
  / before per repository and case.

Figures only: nothing here asserts on time. `uptime`'s load average is printed at both ends,
since others' work on a shared machine inflates every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lsp_latency as lsp
from generate import file_paths, write_agents, write_project
from rulelens.rules.repository import RuleRepository

HERE = Path(__file__).resolve().parents[1]
AGNIX_VERSION = "0.59.3"
Row = tuple[str, str, str]


def load() -> str:
    return " / ".join(f"{x:.1f}" for x in os.getloadavg())


# -- processes ----------------------------------------------------------------------------
def timed(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one process.

    The peak comes from GNU time where there is one: Linux keeps a process's high-water mark
    across exec, so a child forked from this (large) interpreter would report at least our size.
    """
    gnu_time = Path("/usr/bin/time")
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        wrapped = [str(gnu_time), "-f", "%M", "-o", rss.name, *cmd] if gnu_time.exists() else cmd
        t0 = time.perf_counter()
        proc = subprocess.Popen(wrapped, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = 0  # reaped by wait4
        text = rss.read().strip().splitlines()
    peak_kb = int(text[-1]) if gnu_time.exists() and text and text[-1].isdigit() else usage.ru_maxrss
    return wall, peak_kb / 1024


def rulelens_cmd() -> list[str]:
    """The console script beside this interpreter (what a hook runs), else `python -m`."""
    script = Path(sys.executable).parent / "rulelens"
    return [str(script)] if script.exists() else [sys.executable, "-m", "rulelens"]


def server_env() -> dict[str, str]:
    return lsp.server_env(None)  # this checkout's server, with its bytecode written and used


def agnix_path(given: str | None) -> Path:
    if given:  # absolute: the tools run in each project's folder
        return Path(given).resolve() if Path(given).exists() else Path(given)
    venv = HERE / ".ci" / "cache" / "bench-venv"
    exe = venv / "bin" / "agnix"
    if not exe.exists():
        print(f"  (installing agnix {AGNIX_VERSION} into {venv})", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", f"agnix=={AGNIX_VERSION}"],
                       check=True)
    return exe


# -- start-up -----------------------------------------------------------------------------
def startup(runs: int, project: Path, repository: Path) -> list[Row]:
    """Medians of each command's start, and the modules `check`'s kept answer imports beyond
    `--version` (in `repository`, a git twin of `project`: no answer is kept outside git)."""
    env = {**server_env(), "RULELENS_TEST_RACY_NS": "0"}
    env.pop("RULELENS_NO_CACHE", None)
    cmds = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "rulelens --version": [*rulelens_cmd(), "--version"],
        "rulelens match <one path>": [*rulelens_cmd(), "match", file_paths(1)[0]],
        "rulelens check, the kept answer": [*rulelens_cmd(), "check", "-q"],
    }
    where = {name: repository if "kept answer" in name else project for name in cmds}
    timed(cmds["rulelens check, the kept answer"], repository, env)  # the answer kept
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(runs):
        for name, cmd in cmds.items():
            times[name].append(timed(cmd, where[name], env)[0])
    base = statistics.median(times["python -c pass"])
    rows = []
    for name in cmds:
        med = statistics.median(times[name])
        goal = "≤ 50 ms" if name == "rulelens --version" else ""
        rows.append((f"start-up: `{name}`", f"{med * 1000:.0f} ms ({med / base:.1f}x python)", goal))
    extra = imported(cmds["rulelens check, the kept answer"], repository, env) - imported(
        cmds["rulelens --version"], repository, env)
    rows.append(("start-up: modules the kept answer imports beyond `--version`", str(len(extra)),
                 "the budget in tests/cli/test_result_cache.py"))
    return rows


def imported(cmd: list[str], cwd: Path, env: dict[str, str]) -> set[str]:
    """The modules one run imports (`-X importtime`, the command run by this interpreter)."""
    script = cmd[0] if cmd[0] != sys.executable else None
    run = [sys.executable, "-X", "importtime", *([script] if script else []), *cmd[1:]]
    out = subprocess.run(run, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    lines = [line for line in out.stderr.splitlines() if line.startswith("import time:")]
    return {line.rpartition("|")[2].strip() for line in lines[1:]}


# -- check against agnix --------------------------------------------------------------------
def count_files(root: Path) -> int:
    out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
                          "--exclude-standard"], capture_output=True, check=False)
    if out.returncode == 0:
        return out.stdout.count(b"\0")
    return sum(len(files) for _, _, files in os.walk(root))


def generated(cache: Path, files: int, git: bool = False) -> Path:
    """A generated project: Boost's rules (one rule file a package, ten globs each) and every
    other agent's files, so that both tools have rules to read. `git`: the same project as a
    git repository with one commit (what a pre-commit hook or CI runs in)."""
    root = cache / f"check-{'git-' if git else ''}{files}"
    if not (root / ".generated").exists():
        packages = max(1, files // 1000)
        write_project(root, files, packages * 2, packages * 20)
        RuleRepository(root).write_index()
        write_agents(root, packages)
        if git:
            env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
                   "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.com"}
            for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "generated"]):
                subprocess.run(["git", "-C", str(root), *cmd], check=True, env=env)
        (root / ".generated").write_text("ok\n")
    return root


def edited_file(root: Path) -> Path | None:
    """One source file outside the rules and the agents' files (the middle one git lists, or a
    walk outside git), for the "one source file edited" figure."""
    out = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True, check=False)
    if out.returncode == 0:
        listed = out.stdout.decode("utf-8", "surrogateescape").split("\0")
    else:
        listed = sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs)
    paths = [p for p in listed if p and not p.startswith(".") and "/." not in p and not p.endswith(".md")]
    return root / paths[len(paths) // 2] if paths else None


def in_git(root: Path) -> bool:
    return subprocess.run(["git", "-C", str(root), "rev-parse", "--is-inside-work-tree"],
                          capture_output=True, check=False).returncode == 0


def versus(roots: list[tuple[str, Path]], runs: int, agnix: Path, cache: Path,
           against: Path | None = None) -> list[Row]:
    """Per repository, each beside agnix: `check` as a hook finds it (the second run on unchanged
    files: the kept answer, in git's folder; outside git none is kept, and the run is in full);
    in full (`--no-cache`, the other caches warm); with no cache at all (a fresh
    clone in CI); and with one
    source file edited before each run (in git the kept answer may still apply through the
    edited files' search, with the staleness caches warm). With `against`, that checkout's
    `check` runs too, in the same rotation, each keeping its own answer (its code is part of
    the key)."""
    rows: list[Row] = []
    check = [*rulelens_cmd(), "check"]
    env = {**server_env(), "XDG_CACHE_HOME": str(cache / "xdg")}
    env.pop("RULELENS_NO_CACHE", None)
    trees: list[tuple[str, dict[str, str]]] = [("", env)]
    if against is not None:
        before = {**lsp.server_env(against), "XDG_CACHE_HOME": str(cache / "xdg-before")}
        before.pop("RULELENS_NO_CACHE", None)
        trees = [(" (before)", before), (" (after)", env)]
    for name, root in roots:
        files = count_files(root)
        # A copy's git index holds the original's stat data (inodes, times), so `git diff-files`
        # re-reads every file on each run until something refreshes it; the user's own `git
        # status` keeps a working clone's index fresh. Refresh it as that would (agnix reads no git).
        subprocess.run(["git", "-C", str(root), "update-index", "-q", "--refresh"],
                       capture_output=True, check=False)
        for _, e in trees:
            timed(check, root, e)  # caches as a hook finds them, for every tool
        timed([str(agnix), "."], root)
        target = edited_file(root)
        original = target.read_bytes() if target is not None else b""
        where = "" if in_git(root) else ", outside git"
        if where:
            where += " (no answer kept: in full)"
        cases: list[tuple[str, Path | None, list[str], Path | None]] = [
            (f", kept answer{where}", None, check, None),
            (f", in full (`--no-cache`; the other caches warm){where}", None, [*check, "--no-cache"], None)]
        if target is not None:
            cases.append((f", one source file edited{where}", target, check, None))
        if not where:  # outside git the other caches are nowhere: `--no-cache` is that run
            caches = Path(subprocess.run(["git", "-C", str(root), "rev-parse", "--path-format=absolute",
                                          "--git-path", "rulelens"], capture_output=True, text=True,
                                         check=True).stdout.strip())
            cases.append((", no cache at all (a fresh clone in CI)", None, check, caches))
        goal = "≤ 1.0x" if files >= 5_000 else "≤ 1.5x"
        try:
            for label, edit, ours_cmd, wipe in cases:
                ours: list[list[tuple[float, float]]] = [[] for _ in trees]
                theirs: list[tuple[float, float]] = []
                for n in range(runs):
                    if edit is not None:
                        edit.write_bytes(original + f"\n// edit {n}\n".encode())
                    turn = [(into, ours_cmd, e) for into, (_, e) in zip(ours, trees, strict=True)]
                    turn.append((theirs, [str(agnix), "."], None))
                    # each tool in each place of the turn equally often (every 2 x tools runs):
                    # the run right after the edit, or right after another, costs differently
                    k = n % len(turn)
                    order = turn[k:] + turn[:k]
                    for into, cmd, e in order if (n // len(turn)) % 2 == 0 else order[::-1]:
                        if wipe is not None and e is not None:  # a fresh clone for each tool
                            shutil.rmtree(wipe, ignore_errors=True)
                        into.append(timed(cmd, root, e))
                b = statistics.median(w for w, _ in theirs)
                mb = max(m for _, m in theirs)
                for (tag, _), mine in zip(trees, ours, strict=True):
                    a, ma = statistics.median(w for w, _ in mine), max(m for _, m in mine)
                    rows.append((f"`check` / agnix: {name} ({files:,} files){label}{tag}",
                                 f"{a:.2f} s / {b:.2f} s = {a / b:.2f}x; peak {ma:.0f} MB / {mb:.0f} MB",
                                 goal))
                if len(trees) == 2:
                    a0, a1 = (statistics.median(w for w, _ in mine) for mine in ours)
                    rows.append((f"`check` after / before: {name}{label}",
                                 f"{a1:.3f} s / {a0:.3f} s = {a1 / a0:.2f}x", ""))
        finally:
            if target is not None:
                target.write_bytes(original)
        print(f"  done {name}", flush=True)
    return rows


# -- the language server --------------------------------------------------------------------
def forget_compiled(tree: Path | None) -> None:
    """Remove the compiled code a server keeps beside its bytecode (server/rulelens/startup/
    compiled.py), so that the next session is a start after a fresh install."""
    cache = (tree or HERE) / "server" / "rulelens" / "startup" / "__pycache__"
    for kept in cache.glob("compiled.*.code"):
        kept.unlink()


OPEN_KEYS = (("open_p50", "handled by the Python client"),
             ("arrive_p50", "arrived, before the client's conversion"),
             ("read_p50", "read, before the client decodes the JSON"))


def open_ratio(cache: Path, sessions: int, opens: int, trees: list[tuple[str, Path | None]],
               sample: list[str]) -> tuple[list[Row], dict[str, list[dict[str, float]]]]:
    """didOpen → diagnostics at 10,000 globs over the same at 10, Boost only and with every
    agent's files: `sessions` server sessions per workspace and tree, run alternately (10 globs,
    10,000 globs, 10,000 globs, 10 globs, …: a round's two sessions back to back), so that a
    noisy moment hits both sides. The figure is the median of the sessions' p50s on each side,
    then their ratio; the pooled p50 of every open of every session is printed beside it, each
    round's ratio, and each session's p50, so that the spread shows. Every session counts.
    Also returns the sessions' figures per workspace (their start times)."""
    sides = {"Boost only": (lsp.workspace(cache, 10, 10, 10_000),
                            lsp.workspace(cache, 1_000, 10_000, 10_000)),
             "every agent's files": (lsp.workspace_with_agents(cache, 10, 10, 10_000)[0],
                                     lsp.workspace_with_agents(cache, 1_000, 10_000, 10_000)[0])}
    found: dict[tuple[str, str, int], list[dict[str, float]]] = {}
    samples: dict[tuple[str, str, int], dict[str, list[float]]] = {}
    for n in range(sessions):
        for label, roots in sides.items():
            for tag, tree in trees:  # a pair of sessions back to back, 10 globs first every other round
                for side in (0, 1) if n % 2 == 0 else (1, 0):
                    root = roots[side]
                    raw: dict[str, list[float]] = {}
                    found.setdefault((tag, label, side), []).append(asyncio.run(lsp.session(
                        root, "visual-studio-code", sample, opens, full=False, tree=tree,
                        samples=raw)))
                    pooled = samples.setdefault((tag, label, side), {})
                    for key, values in raw.items():
                        pooled.setdefault(key, []).extend(values)
        print(f"  done didOpen sessions {n + 1} of {sessions}", flush=True)
    rows: list[Row] = []
    for tag, _ in trees:
        for label in sides:
            few, many = found[(tag, label, 0)], found[(tag, label, 1)]
            for key, how in OPEN_KEYS:
                if key not in many[0]:  # a baseline whose bench has no such figure
                    continue
                a = statistics.median(s[key] for s in many)
                b = statistics.median(s[key] for s in few)
                raw_key = key.removesuffix("_p50")
                pa = lsp.pct(samples[(tag, label, 1)][raw_key], 0.5)
                pb = lsp.pct(samples[(tag, label, 0)][raw_key], 0.5)
                spread = (" ".join(f"{s[key]:.2f}" for s in many) + " vs "
                          + " ".join(f"{s[key]:.2f}" for s in few))
                paired = [m[key] / f[key] for m, f in zip(many, few, strict=True)]
                rows.append((f"didOpen → diagnostics p50, 10,000 globs / 10 globs ({label}; {how}; "
                             f"{len(many)} sessions a side){tag}",
                             f"**{a / b:.2f}x** ({a:.2f} ms vs {b:.2f} ms, medians of the sessions' "
                             f"p50s); pooled {pa / pb:.2f}x; each round's pair "
                             f"{' '.join(f'{r:.2f}' for r in paired)} (median "
                             f"{statistics.median(paired):.2f}x); sessions: {spread} ms", "≤ 1.5x"))
    starts = {f"{tag}|{label}|{side}": runs for (tag, label, side), runs in found.items()}
    return rows, starts


def lsp_rows(cache: Path, runs: int, opens: int, sessions: int,
             against: Path | None = None) -> list[Row]:
    small = lsp.workspace(cache, 10, 10, 1_000)
    many = lsp.workspace(cache, 1_000, 10_000, 10_000)
    many_git = lsp.git_workspace(cache, 1_000, 10_000, 10_000)
    sample = random.Random(1).sample(file_paths(10_000), opens + 1)
    small_sample = random.Random(1).sample(file_paths(1_000), min(opens + 1, 1_000))
    order = [("small", small, small_sample), ("many+git", many_git, sample),
             ("small, cold", small, small_sample), ("many, cold", many, sample)]
    trees: list[tuple[str, Path | None]] = [("", None)]
    if against is not None:  # the baseline first in each pair, as lsp_latency.py --against does
        trees = [(" (before)", against), (" (after)", None)]
    found: dict[tuple[str, str], list[dict[str, float]]] = {
        (tag, name): [] for tag, _ in trees for name, _, _ in order}
    for _, tree in trees:  # untimed: what a server keeps for its next start is there
        asyncio.run(lsp.session(small, "visual-studio-code", small_sample, 1, full=False, tree=tree))
    rows, opened = open_ratio(cache, sessions, opens, trees, sample)
    for _ in range(runs):  # interleaved: a load change hits every workspace and tree alike
        for name, root, paths in order:
            for tag, tree in trees:
                if name.endswith(", cold"):
                    forget_compiled(tree)
                found[(tag, name)].append(asyncio.run(lsp.session(
                    root, "visual-studio-code", paths, opens, full=False, tree=tree)))
    for tag, _ in trees:
        med = {name: lsp.medians(found[(tag, name)]) for name, _, _ in order}
        med["many"] = lsp.medians(opened[f"{tag}|Boost only|1"])  # the didOpen sessions' starts
        rows.append((f"first diagnostics, small project (1,000 files, 10 globs){tag}",
                     f"{med['small']['start_ms'] / 1000:.2f} s", "≤ 0.5 s"))
        rows.append((f"first diagnostics, 10,000 globs (10,000 files){tag}",
                     f"{med['many']['start_ms'] / 1000:.2f} s", "≤ 0.8 s"))
        for name, what in (("small, cold", "small project"), ("many, cold", "10,000 globs")):
            if name in med:
                rows.append((f"first diagnostics, {what}, the first start after an install (no kept "
                             f"compiled code){tag}", f"{med[name]['start_ms'] / 1000:.2f} s", ""))
        rows.append((f"first diagnostics, 10,000 globs, a git clone with the frontmatters kept{tag}",
                     f"{med['many+git']['start_ms'] / 1000:.2f} s", "≤ 0.8 s"))
        rows.append((f"peak RSS of the server after its first diagnostics and {opens} opens, "
                     f"10,000 globs{tag}",
                     f"{med['many']['rss_first_mb']:.0f} MB", ""))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, help="a folder of repository checkouts (copies)")
    ap.add_argument("--generated", default="1000,5000,20000",
                    help="file counts of generated projects for check vs agnix ('' for none)")
    ap.add_argument("--runs", type=int, default=5, help="interleaved runs per figure")
    ap.add_argument("--opens", type=int, default=200, help="didOpen samples per LSP session")
    ap.add_argument("--sessions", type=int, default=5,
                    help="server sessions per side for the didOpen ratio, run alternately")
    ap.add_argument("--agnix", help="the agnix executable (default: a venv under .ci/cache)")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/rulelens-bench"))
    ap.add_argument("--no-lsp", action="store_true")
    ap.add_argument("--against", type=Path,
                    help="another checkout (TREE/server) whose `check` and language server run "
                         "beside this one's")
    ap.add_argument("--no-check", action="store_true")
    ap.add_argument("--no-git-generated", action="store_true",
                    help="generated projects without their git-repository twins")
    args = ap.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; "
          f"load average {load()}", flush=True)
    rows: list[Row] = []
    rows += startup(max(args.runs, 10), generated(args.cache, 1_000),
                    generated(args.cache, 1_000, git=True))
    print("  done start-up", flush=True)
    if not args.no_check:
        agnix = agnix_path(args.agnix)
        version = subprocess.run([str(agnix), "--version"], capture_output=True, text=True,
                                 check=False).stdout.strip()
        print(f"  agnix: {version}", flush=True)
        roots: list[tuple[str, Path]] = []
        if args.corpus is not None:
            roots += [(d.name, d) for d in sorted(args.corpus.iterdir())
                      if (d / ".ai" / "rules").is_dir()]
        for n in (int(n) for n in args.generated.split(",") if n.strip()):
            roots.append((f"generated {n:,}", generated(args.cache, n)))
            if not args.no_git_generated:
                roots.append((f"generated {n:,}, a git repository", generated(args.cache, n, git=True)))
        rows += versus(roots, args.runs, agnix, args.cache, args.against)
    if not args.no_lsp:
        rows += lsp_rows(args.cache, max(1, args.runs // 2), args.opens, args.sessions,
                         args.against)
    print("\n| what | measured | goal |\n| --- | --- | --- |")
    for what, figure, goal in rows:
        print(f"| {what} | {figure} | {goal} |")
    print(f"\nload average at the end: {load()} (1 / 5 / 15 min, on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
