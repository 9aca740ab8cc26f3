"""rulelens' picomatch (Cline) and minimatch (Continue) dialects against the real npm libraries.

Seeded globs and paths (tests/agents/generate.py) go through node once per library; every
answer must agree. Skips locally when node or the pinned packages are missing; fails under CI.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from rulelens.agents.dialects import minimatch_matches, picomatch_matches
from tests.agents.generate import cases
from tests.conftest import require_tool

JS = Path(__file__).parent / "js"
SEEDS = (1, 2, 3)
PER_SEED = 4000


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (required under CI)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def node() -> str:
    found = require_tool("node")
    if not (JS / "node_modules" / "picomatch").is_dir() or not (JS / "node_modules" / "minimatch").is_dir():
        npm = shutil.which("npm")
        if npm is None:
            _missing("npm is not installed, and tests/agents/js/node_modules is missing")
        done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=JS, capture_output=True, text=True,
                              check=False, timeout=600)
        if done.returncode != 0:
            _missing(f"`npm ci` in tests/agents/js failed: {done.stderr.strip()[-300:]}")
    return found


def _real(node: str, matcher: str, pairs: list[tuple[str, str]]) -> list[bool]:
    out = subprocess.run([node, str(JS / "match.mjs")], input=json.dumps({"matcher": matcher, "cases": pairs}),
                         capture_output=True, text=True, check=True, timeout=300)
    answer = json.loads(out.stdout)
    assert len(answer) == len(pairs)
    return [bool(a) for a in answer]


@pytest.mark.parametrize("matcher", ["picomatch", "minimatch"])
def test_dialect_agrees_with_the_real_library(node: str, matcher: str) -> None:
    ours = picomatch_matches if matcher == "picomatch" else minimatch_matches
    pairs = [pair for seed in SEEDS for pair in cases(seed, PER_SEED)]
    real = _real(node, matcher, pairs)
    differ = [(g, p, r) for (g, p), r in zip(pairs, real, strict=True) if ours(g, p) != r]
    matched = sum(real)
    print(f"{matcher}: {len(pairs)} cases, {matched} match, {len(differ)} differ")
    assert 0 < matched < len(pairs), "the generator must produce both matches and misses"
    assert differ == [], f"{len(differ)} of {len(pairs)} differ, first: {differ[:5]}"


def test_known_shapes(node: str) -> None:
    """The rewrites rulelens makes for each library, each checked against the library itself."""
    pico = [("src/**", "src"), ("src*/**", "src"), ("./src/*.ts", "src/a.ts"), ("*.ts", ".h.ts")]
    mini = [("**/b/**/.env", "a/b/.env"), ("**/**/.env", "a/.env"), ("*.ts", ".h.ts"), ("{a,b}/*.ts", "b/x.ts")]
    for matcher, pairs, ours in (("picomatch", pico, picomatch_matches), ("minimatch", mini, minimatch_matches)):
        real = _real(node, matcher, pairs)
        assert [ours(g, p) for g, p in pairs] == real, matcher
    assert _real(node, "picomatch", pico) == [True, False, True, True]
    assert _real(node, "minimatch", mini) == [False, True, False, True]
