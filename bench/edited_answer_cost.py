"""What cli/edited_answer.py saves: `check` after source files were edited, with the kept answer
checked against a search of the edited files, and without (the same rulelens with
`edited_answer.answer` answering None, so that every edit is a run in full, as it would be
without the module).

Usage: python bench/edited_answer_cost.py [--runs N] [--corpus DIR] [--generated N ...]
                                          [--checkout REPO ...] [--commits K] [--unstaged]
  DIR: a folder of repositories, each with rules/ and files.txt; each is made into a git
  repository with every listed file, empty. --generated: generated git projects of N files.
  REPO: a real git repository (such as the checkouts of judgements/sets.json); it is cloned
  (`git clone --shared`: its files and its whole history, its objects shared) into a temporary
  folder and never written to.

Two kinds of edit:
- appended (every project): before each run one source file (the middle one git lists, outside
  the rules and the agents' files) gets a comment line of no word; the two variants alternate
  (ABBA). Each run is an edit since the last one.
- real commits (`--checkout`, `--commits K`): the last K commits of the checkout's first-parent
  history that are not merges. For each commit C: the clone at C's parent P, clean, runs `check`
  once (its answer kept), then C's changes are applied (`git apply --index`, staged as a
  pre-commit hook sees them; `--unstaged` leaves the index as it was); before each timed run git's
  `rulelens` folder is put back as the kept run left it, so every run starts from the same
  answer. Also, once per commit: the same edits staged after P was committed on top of the kept
  answer's HEAD (the answer kept at P's parent with P's changes staged, then `git reset --soft P`),
  which is a pre-commit hook's run on the next commit.

Whether a run with the module printed the kept answer is read from a line the wrapped
`edited_answer.answer` writes on stderr: hit (printed), declined (answered None: the run in full),
not asked (the run went in full before asking: a rule or agent file, or a file the run reads,
changed). Prints per project the median wall times (CPU seconds in brackets) and how often each
happened.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from check_identical import committed, from_corpus

_WRAP = ("import sys; from rulelens.cli import edited_answer, main; ask = edited_answer.answer\n"
         "def told(*args):\n"
         "    code = {}\n"
         "    sys.stderr.write('bench-edited-answer: ' + ('declined' if code is None else 'hit') + '\\n')\n"
         "    return code\n"
         "edited_answer.answer = told; sys.exit(main())\n")
WITH, WITHOUT = "with", "without"
# Each variant is a script in a folder of its own (main writes them), run as a file rather than
# with `-c`: the folders Python imports from are part of the kept answer's key, and with `-c` the
# first is the project's root, whose time changes when a file there is replaced (`git apply`
# writes a new file), a change the console script (which imports from its own folder) never sees.
_SCRIPTS: dict[str, str] = {}


def write_scripts(into: Path) -> None:
    into.mkdir(parents=True, exist_ok=True)
    for label, code in ((WITH, _WRAP.format("ask(*args)")), (WITHOUT, _WRAP.format("None"))):
        (into / f"{label}.py").write_text(code, encoding="utf-8")
        _SCRIPTS[label] = str(into / f"{label}.py")


OUTCOMES = ("hit", "declined", "not asked")
GIT_ENV = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.com"}


def projects(base: Path, corpus: Path | None, sizes: list[int]) -> list[tuple[str, Path]]:
    """The corpus's projects (committed, as a real checkout is) and generated ones, under `base`."""
    found: list[tuple[str, Path]] = []
    if corpus is not None:
        found += [(d.name, from_corpus(d, base)) for d in sorted(corpus.iterdir()) if (d / "rules").is_dir()]
        for _, root in found:
            committed(root)
    return found + [(f"generated {n:,}", generated(base, n)) for n in sizes]


def generated(into: Path, files: int) -> Path:
    from generate import write_agents, write_project
    from rulelens.rules.repository import RuleRepository

    root = into / f"generated-{files}"
    packages = max(1, files // 1000)
    write_project(root, files, packages * 2, packages * 20)
    RuleRepository(root).write_index()
    write_agents(root, packages)
    committed(root)
    return root


def git(root: Path, *args: str, stdin: bytes | None = None) -> bytes:
    return subprocess.run(["git", "-C", str(root), *args], input=stdin, capture_output=True,
                          check=True, env={**os.environ, **GIT_ENV}).stdout


def cloned(repo: Path, into: Path) -> Path:
    """A clone of a real repository at its checked-out commit: its files and history."""
    root = into / repo.name
    head = git(repo, "rev-parse", "HEAD").decode().strip()
    subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", str(repo), str(root)],
                   check=True, capture_output=True)
    git(root, "checkout", "-q", "--detach", head)
    return root


def source_file(root: Path) -> Path:
    out = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True, check=True)
    paths = [p for p in out.stdout.decode("utf-8", "surrogateescape").split("\0")
             if p and not p.startswith(".") and "/." not in p and not p.endswith(".md")
             and (root / p).is_file() and not (root / p).is_symlink()]
    return root / paths[len(paths) // 2]


Sample = tuple[float, float]  # wall and CPU seconds


def timed(label: str, root: Path) -> tuple[Sample, str]:
    """Wall and CPU seconds of one `check` (CPU: the run and every process it waited for, from
    `wait4`; on a shared machine it moves much less with the load), and whether the module
    printed the kept answer."""
    env = {**os.environ, "RULELENS_TEST_RACY_NS": "0"}
    env.pop("RULELENS_NO_CACHE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, _SCRIPTS[label], "check", "-q"], cwd=root, env=env,
                         capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    told = [line for line in out.stderr.decode(errors="replace").splitlines()
            if line.startswith("bench-edited-answer: ")]
    return (wall, cpu), told[-1].split(": ", 1)[1] if told else "not asked"


def median(samples: list[Sample]) -> str:
    if not samples:
        return "-"
    return (f"{statistics.median(w for w, _ in samples):.3f} s "
            f"({statistics.median(c for _, c in samples):.3f})")


def ratio(a: list[Sample], b: list[Sample]) -> str:
    if not a or not b:
        return "-"
    wall = statistics.median(w for w, _ in a) / statistics.median(w for w, _ in b)
    cpu = statistics.median(c for _, c in a) / statistics.median(c for _, c in b)
    return f"{wall:.2f}x ({cpu:.2f}x)"


def warm(root: Path) -> None:
    """An answer kept by a run with every other cache warm, as a project's runs after its first
    find it: the very first run's name search keeps no record for edited_answer (it is not the
    cached search), so its answer goes in full after any edit."""
    timed(WITH, root)
    for kept in caches(root).glob("check-*"):
        kept.unlink()
    timed(WITH, root)


def files_of(root: Path) -> int:
    return git(root, "ls-files", "-z").count(b"\0")


def appended(name: str, root: Path, runs: int) -> None:
    """A comment line appended to one source file before every run."""
    git(root, "update-index", "-q", "--refresh")
    target = source_file(root)
    original = target.read_bytes()
    warm(root)
    times: dict[str, list[Sample]] = {"with": [], "without": []}
    outcomes: list[str] = []
    try:
        for n in range(runs):
            order = [("with", WITH), ("without", WITHOUT)]
            for label, code in order if n % 2 == 0 else order[::-1]:
                target.write_bytes(original + f"\n// {n} {'1' if label == 'with' else '2'}\n".encode())
                sample, outcome = timed(code, root)
                times[label].append(sample)
                if label == "with":
                    outcomes.append(outcome)
    finally:
        target.write_bytes(original)
    print(f"| {name} | appended | {files_of(root):,} | {median(times['without'])} "
          f"| {median(times['with'])} | {ratio(times['with'], times['without'])} "
          f"| {tally(outcomes)} | | |", flush=True)


def tally(outcomes: list[str]) -> str:
    return " / ".join(str(outcomes.count(o)) for o in OUTCOMES)


def commits(root: Path, count: int) -> list[str]:
    """The last `count` non-merge commits of the first-parent history that have a parent."""
    out = git(root, "rev-list", "--first-parent", "--min-parents=1", "--max-parents=1",
              f"--max-count={count}", "HEAD").decode().split()
    return out


def at(root: Path, commit: str) -> None:
    git(root, "checkout", "-q", "-f", "--detach", commit)
    git(root, "clean", "-qfdx", "-e", "/.git")


def apply(root: Path, parent: str, commit: str, staged: bool) -> bool:
    """`commit`'s changes over `parent`'s tree; False when git cannot apply them. A regular
    file's new text is written into the file in place, as an editor saves it (git itself writes
    a new file, which changes the folder's time, and the kept answer keys some folders by it);
    the rest (files added, deleted, of another type or mode, submodules) by `git apply`."""
    raw = git(root, "diff", "--raw", "-z", "--no-renames", "--no-abbrev", parent, commit).split(b"\0")
    in_place: list[tuple[str, str]] = []
    others: list[str] = []
    for head, path in zip(raw[0::2], raw[1::2], strict=False):
        if not head:
            continue
        old_mode, new_mode, _, new_sha, status = head.decode().lstrip(":").split()
        name = path.decode("utf-8", "surrogateescape")
        regular = old_mode == new_mode and new_mode in ("100644", "100755")
        if status == "M" and regular and (root / name).is_file() and not (root / name).is_symlink():
            in_place.append((name, new_sha))
        else:
            others.append(name)
    for name, sha in in_place:
        with open(root / name, "r+b") as handle:  # the same file, as an editor writes it
            handle.write(git(root, "cat-file", "blob", sha))
            handle.truncate()
    if in_place and staged:
        git(root, "add", "--", *(name for name, _ in in_place))
    if others:
        diff = git(root, "diff", "--binary", "--no-renames", parent, commit, "--", *others)
        try:
            git(root, "apply", *(["--index"] if staged else []), "--whitespace=nowarn", stdin=diff)
        except subprocess.CalledProcessError:
            return False
    return True


def caches(root: Path) -> Path:
    return Path(git(root, "rev-parse", "--path-format=absolute", "--git-path", "rulelens").decode().strip())


def restore(kept: Path, folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(kept, folder, symlinks=True)


def changes(root: Path, parent: str, commit: str) -> str:
    """What a commit changed, in brief: counts of added, modified, deleted paths, and how many
    of them are Markdown or below a dot-folder (where the agents' and Boost's files are)."""
    rows = [line.split("\t") for line in git(root, "diff", "--name-status", "--no-renames", parent,
                                              commit).decode("utf-8", "replace").splitlines() if line]
    kinds = {k: sum(1 for r in rows if r[0] == k) for k in "AMD"}
    paths = [r[-1] for r in rows]
    special = sum(1 for p in paths if p.endswith((".md", ".mdc")) or p.startswith(".") or "/." in p)
    return f"A{kinds['A']} M{kinds['M']} D{kinds['D']}, {special} Markdown or dot-folder"


def replayed(root: Path, commit: str, runs: int, staged: bool, folder: Path,
             kept: Path) -> tuple[str, str, list[Sample], list[Sample]] | None:
    """One commit's edits on top of the answer kept at its parent: the outcome with the module,
    the outcome of a hook's run after the parent was committed, the walls with and without;
    None when git cannot apply the commit's changes."""
    parent = git(root, "rev-parse", f"{commit}^").decode().strip()
    grand = git(root, "rev-list", "--max-count=1", "--skip=1", parent).decode().strip()
    next_run = "-"
    if grand:  # a pre-commit hook's next run: the answer kept before P was committed
        at(root, grand)
        if apply(root, grand, parent, staged=True):
            timed(WITH, root)
            git(root, "reset", "-q", "--soft", parent)
            if apply(root, parent, commit, staged):
                next_run = timed(WITH, root)[1]
    at(root, parent)
    warm(root)  # the answer kept at P
    shutil.rmtree(kept, ignore_errors=True)
    shutil.copytree(folder, kept, symlinks=True)
    if not apply(root, parent, commit, staged):
        return None
    mine: list[tuple[Sample, str]] = []
    full: list[Sample] = []
    for n in range(runs):
        order = [("with", WITH), ("without", WITHOUT)]
        for label, code in order if n % 2 == 0 else order[::-1]:
            restore(kept, folder)
            sample, outcome = timed(code, root)
            if label == "with":
                mine.append((sample, outcome))
            else:
                full.append(sample)
    # the same edit on the same answer: the same outcome each run
    return mine[0][1], next_run, [w for w, _ in mine], full


def real_commits(name: str, root: Path, count: int, runs: int, staged: bool, scratch: Path,
                 log: list[str]) -> None:
    """Each of the last `count` commits replayed as an edit on top of the kept answer."""
    walls: dict[str, list[Sample]] = {"without": [], "hit": [], "missed": []}
    outcomes: list[str] = []
    after_commit: list[str] = []
    skipped = 0
    folder = caches(root)
    kept = scratch / "kept-caches"
    head = git(root, "rev-parse", "HEAD").decode().strip()
    for commit in commits(root, count):
        try:
            measured = replayed(root, commit, runs, staged, folder, kept)
        except subprocess.CalledProcessError as failed:  # a partial clone's missing objects
            skipped += 1
            said = failed.stderr.decode(errors="replace").strip()[:80]
            log.append(f"{name} {commit[:10]}: not replayed ({said})")
            continue
        if measured is None:
            skipped += 1
            log.append(f"{name} {commit[:10]}: not applied")
            continue
        outcome, next_run, mine, full = measured
        walls["without"] += full
        outcomes.append(outcome)
        if next_run != "-":
            after_commit.append(next_run)
        walls["hit" if outcome == "hit" else "missed"] += mine
        log.append(f"{name} {commit[:10]}: {outcome}; after a commit {next_run}; "
                   f"{changes(root, f'{commit}^', commit)}")
    with contextlib.suppress(subprocess.CalledProcessError):
        at(root, head)
    med = {k: median(v) for k, v in walls.items()}
    print(f"| {name} | {len(outcomes)} commits{f' ({skipped} not applied)' if skipped else ''} "
          f"| {files_of(root):,} | {med['without']} | {med['hit']} "
          f"| {ratio(walls['hit'], walls['without'])} | {tally(outcomes)} "
          f"| {med['missed']} | {tally(after_commit)} |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--generated", type=int, nargs="*", default=[])
    parser.add_argument("--checkout", type=Path, nargs="*", default=[],
                        help="real git repositories, cloned (never written to)")
    parser.add_argument("--commits", type=int, default=0,
                        help="replay this many of each checkout's last commits as edits")
    parser.add_argument("--unstaged", action="store_true",
                        help="the replayed commits' changes in the work tree only, not staged")
    parser.add_argument("--log", action="store_true",
                        help="after the table, each replayed commit's outcome and what it changed")
    args = parser.parse_args()
    import rulelens  # the checkout on PYTHONPATH, compiled as an install leaves it

    compileall.compile_dir(os.path.dirname(rulelens.__file__), quiet=1)
    print(f"load average {os.getloadavg()[0]:.1f} at the start", flush=True)
    print("| project | edits | files | without (in full), s (CPU) | with edited_answer, hits "
          "| with / without (CPU) | hit / declined / not asked | with, misses "
          "| after a commit: hit / declined / not asked |")
    print("|---|---|---:|---:|---:|---:|---|---:|---|")
    log: list[str] = []
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        write_scripts(base / "runner")
        listed = projects(base, args.corpus, args.generated)
        listed += [(repo.name, cloned(repo.resolve(), base)) for repo in args.checkout]
        for name, root in listed:
            os.environ["XDG_CACHE_HOME"] = str(base / "xdg" / name)
            appended(name, root, args.runs)
            if args.commits and name in {r.name for r in args.checkout}:
                done = len(log)
                real_commits(name, root, args.commits, max(1, args.runs // 2), not args.unstaged, base,
                             log)
                if args.log:
                    sys.stderr.write("".join(f"{line}\n" for line in log[done:]))
            shutil.rmtree(root, ignore_errors=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end", flush=True)
    if args.log:  # also written to stderr as each project ends
        print("\n" + "\n".join(log))
    return 0


if __name__ == "__main__":
    sys.exit(main())
