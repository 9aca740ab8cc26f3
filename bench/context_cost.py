"""Context cost: the bytes an agent reads to learn the rules for one file, by route.

For every corpus repository (`<corpus>/<repo>/`: `rules/` holds
its `.ai/rules`, `files.txt` its file list) and every file in it:

- (a) the whole `.ai/rules` folder;
- (b) `.ai/rules/index.md` plus every rule file that applies to the file;
- (c) what the `rules-for-path` MCP tool returns for the file.

Prints the median and p95 of each route per repository and over all files, as a Markdown
table. (c) is computed with the tool's own renderer; `--verify N` also asks the real
`rulelens mcp` over stdio for N files per repository and checks the bytes are the same.

    python bench/context_cost.py --corpus DIR [--verify N]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import shutil
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters
from mcp_types import TextContent

from rulelens.report.markdown import render_matches
from rulelens.rules.repository import RuleRepository

RULES = ".ai/rules"


@dataclass
class Costs:
    repo: str
    folder: int
    files: int = 0
    with_rules: int = 0
    index_route: list[int] = field(default_factory=list)
    tool_route: list[int] = field(default_factory=list)


def p95(values: list[int]) -> int:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def median(values: list[int]) -> int:
    return round(statistics.median(values))


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def tool_output(repo: RuleRepository, rel: str, cache: dict[tuple[str, ...], str]) -> str:
    matches = repo.rules_for(rel)
    key = tuple(m.rule.rel for m in matches)
    if key not in cache:
        cache[key] = render_matches(matches)
    return cache[key] or f"No project rules apply to {rel}."


def project_paths(files_txt: Path) -> list[str]:
    lines = files_txt.read_text(encoding="utf-8", errors="replace").splitlines()
    return [p for p in (line.strip() for line in lines) if p and not p.startswith(".ai/")]


def measure(name: str, source: Path, work: Path) -> tuple[Costs, Path, list[str]]:
    root = work / name
    shutil.copytree(source / "rules", root / RULES)
    repo = RuleRepository(root)
    index = root / RULES / "index.md"
    index_size = index.stat().st_size if index.exists() else 0
    costs = Costs(name, folder_bytes(root / RULES))
    cache: dict[tuple[str, ...], str] = {}
    paths = project_paths(source / "files.txt")
    for rel in paths:
        matches = repo.rules_for(rel)
        costs.files += 1
        costs.with_rules += bool(matches)
        costs.index_route.append(index_size + sum(m.rule.path.stat().st_size for m in matches))
        costs.tool_route.append(len(tool_output(repo, rel, cache).encode("utf-8")))
    return costs, root, paths


async def verify(root: Path, paths: list[str], expected: list[int]) -> int:
    """Ask the real server for these paths; return how many outputs matched the bytes counted."""
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "rulelens", "--root", str(root), "mcp"],
                                   env=dict(os.environ))
    same = 0
    async with Client(params, read_timeout_seconds=60) as client:
        for rel, size in zip(paths, expected, strict=True):
            result = await client.call_tool("rules-for-path", {"path": rel})
            block = result.content[0]
            assert isinstance(block, TextContent)
            if len(block.text.encode("utf-8")) == size:
                same += 1
            else:
                print(f"  MISMATCH {root.name} {rel}", file=sys.stderr)
    return same


def row(label: str, files: int, with_rules: int, folder: str, b: list[int], c: list[int]) -> str:
    return (f"| {label} | {files} | {with_rules} | {folder} | {median(b):,} | {p95(b):,} | "
            f"{median(c):,} | {p95(c):,} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--verify", type=int, default=5, metavar="N",
                        help="files per repository to check against the real server (0: none)")
    args = parser.parse_args()
    corpus: Path = args.corpus
    repos = sorted(d for d in corpus.iterdir() if (d / "rules").is_dir()) if corpus.is_dir() else []
    if not repos:
        print(f"No corpus at {corpus}; nothing to measure.")
        return 0
    print("Bytes an agent reads to learn the rules for one file: (a) the whole .ai/rules folder, "
          "(b) index.md + the matching rule files, (c) the rules-for-path MCP tool.\n")
    print("| repository | files | with rules | (a) folder | (b) median | (b) p95 | (c) median "
          "| (c) p95 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    all_a: list[int] = []
    all_b: list[int] = []
    all_c: list[int] = []
    per_repo: list[tuple[int, int, int]] = []
    files = with_rules = checked = agreed = 0
    rng = random.Random(6)
    with tempfile.TemporaryDirectory(prefix="rulelens-bench-") as tmp:
        for source in repos:
            if not (source / "files.txt").is_file():
                print(f"| {source.name} | (no files.txt, skipped) |")
                continue
            costs, root, paths = measure(source.name, source, Path(tmp))
            if not costs.files:
                continue
            print(row(costs.repo, costs.files, costs.with_rules, f"{costs.folder:,}",
                      costs.index_route, costs.tool_route), flush=True)
            files += costs.files
            with_rules += costs.with_rules
            all_a += [costs.folder] * costs.files
            all_b += costs.index_route
            all_c += costs.tool_route
            per_repo.append((costs.folder, median(costs.index_route), median(costs.tool_route)))
            if args.verify:
                picks = rng.sample(range(len(paths)), min(args.verify, len(paths)))
                checked += len(picks)
                agreed += anyio.run(verify, root, [paths[i] for i in picks],
                                    [costs.tool_route[i] for i in picks])
    folder = f"{median(all_a):,} (p95 {p95(all_a):,})"
    print(row("**all files**", files, with_rules, folder, all_b, all_c))
    a, b, c = ([m[i] for m in per_repo] for i in range(3))
    print(f"| **median repository** | | | {median(a):,} | {median(b):,} | | {median(c):,} | |")
    print(f"\nOver all files, the median (c) is {median(all_c) / median(all_a):.1%} of (a) and "
          f"{median(all_c) / median(all_b):.1%} of (b). In the median repository, (c) is "
          f"{median(c) / median(a):.1%} of (a) and {median(c) / median(b):.1%} of (b).")
    if args.verify:
        print(f"Checked {checked} rules-for-path outputs against the real server over stdio: "
              f"{agreed} identical in size.")
    return 0 if agreed == checked else 1


if __name__ == "__main__":
    raise SystemExit(main())
