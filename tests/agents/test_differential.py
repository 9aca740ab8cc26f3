"""rulelens' agent matchers against the real ones, run with node.

Cline (picomatch), Continue (minimatch) and Copilot in VS Code (VS Code's glob.ts, as the npm
package monaco-editor ships it), pinned in tests/agents/js/package.json to the versions the agents
pin, each driven as the agent drives it (tests/agents/js/match.mjs). Two sources: seeded random
globs (the bare libraries) and the realistic set (rule globs people write, against a mixed
project's paths, through each agent's own logic). Every answer must agree except the documented
differences (docs/agents.md, "Matcher differences"). Each test records its agreement
(`record_property("agreement", …)`), which tests/conftest.py prints as one table per run. Skips
locally when node or the pinned packages are missing; fails under CI.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, NoReturn

import pytest

from rulelens.agents.formats.cline import paths_match
from rulelens.agents.formats.continue_dev import globs_match
from rulelens.agents.formats.copilot import applies
from rulelens.glob_engines.dialects import picomatch_matches, vscode_matches
from rulelens.glob_engines.minimatch import minimatch_matches
from tests.agents.generate import cases, realistic
from tests.conftest import require_tool

JS = Path(__file__).parent / "js"
SEEDS = (1, 2, 3)
PER_SEED = 4000


def _missing(reason: str) -> NoReturn:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (required under CI)")
    pytest.skip(reason)


def _installed() -> bool:
    return all((JS / "node_modules" / name).is_dir() for name in ("picomatch", "minimatch", "monaco-editor"))


@pytest.fixture(scope="module")
def node() -> str:
    found = require_tool("node")
    if _installed():
        return found
    npm = shutil.which("npm")
    if npm is None:
        _missing("npm is not installed, and tests/agents/js/node_modules is missing")
    # One install at a time: under pytest-xdist two workers can reach here at once, and `npm ci`
    # first deletes node_modules, under the other's feet.
    with (JS / "node_modules.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _installed():
            done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=JS, capture_output=True,
                                  text=True, check=False, timeout=600)
            if done.returncode != 0:
                _missing(f"`npm ci` in tests/agents/js failed: {done.stderr.strip()[-300:]}")
    return found


def _real(node: str, matcher: str, pairs: list[tuple[str, str]]) -> list[bool]:
    out = subprocess.run([node, str(JS / "match.mjs")], input=json.dumps({"matcher": matcher, "cases": pairs}),
                         capture_output=True, text=True, check=True, timeout=300)
    answer = json.loads(out.stdout)
    assert len(answer) == len(pairs)
    return [bool(a) for a in answer]  # a pattern the matcher throws on matches nothing


# Each library's dialect in rulelens, and the agent that matches with it.
LIBRARIES = {"picomatch": (picomatch_matches, "cline"), "minimatch": (minimatch_matches, "continue"),
             "vscode": (vscode_matches, "copilot")}


@pytest.mark.parametrize("matcher", list(LIBRARIES))
def test_dialect_agrees_with_the_real_library(node: str, matcher: str, record_property: Any) -> None:
    ours, agent = LIBRARIES[matcher]
    pairs = [pair for seed in SEEDS for pair in cases(seed, PER_SEED)]
    real = _real(node, matcher, pairs)
    differ = [(g, p, r) for (g, p), r in zip(pairs, real, strict=True) if ours(g, p) != r]
    matched = sum(real)
    # tests/conftest.py prints these rows as the agreement table at the end of the run.
    record_property("agreement", (agent, f"random ({matcher})", len(pairs), len(pairs) - len(differ)))
    assert 0 < matched < len(pairs), "the generator must produce both matches and misses"
    assert differ == [], f"{len(differ)} of {len(pairs)} differ, first: {differ[:5]}"


def test_known_shapes(node: str) -> None:
    """The rewrites rulelens makes for each library, each checked against the library itself."""
    pico = [("src/**", "src"), ("src*/**", "src"), ("./src/*.ts", "src/a.ts"), ("*.ts", ".h.ts")]
    mini = [("**/b/**/.env", "a/b/.env"), ("**/**/.env", "a/.env"), ("*.ts", ".h.ts"), ("{a,b}/*.ts", "b/x.ts"),
            ("x/*/../a.ts", "x/a.ts"), ("src/*\\.ts", "src/a.ts"), ("{a,b}/*\\.ts", "b/x.ts"), ("#a.md", "#a.md"),
            ("!(a)", "a"), ("+()", "+()"), ("a\\", "a\\"), ("[[:alpha:]]", "é")]
    for matcher, pairs, ours in (("picomatch", pico, picomatch_matches), ("minimatch", mini, minimatch_matches)):
        real = _real(node, matcher, pairs)
        assert [ours(g, p) for g, p in pairs] == real, matcher
    assert _real(node, "picomatch", pico) == [True, False, True, True]
    assert _real(node, "minimatch", mini) == [False, True, False, True, True, False, True, False, True, True, True, True]


ROOT = "/home/dev/project"


def _ours(agent: str, value: str, path: str) -> bool:
    if agent == "cline":
        return bool(paths_match([p.strip() for p in json.loads(value) if p.strip()], path))
    if agent == "continue":
        globs = json.loads(value)
        return bool(globs_match(globs if isinstance(globs, list) else [globs], path))
    return applies(value, f"{ROOT}/{path}") is not None


def _path_for(agent: str, path: str) -> str:
    return f"{ROOT}/{path}" if agent == "copilot" else path


# Known differences on the realistic set, each explained in docs/agents.md ("Matcher
# differences"): (agent, value, path).
DOCUMENTED: set[tuple[str, str, str]] = set()


def test_agents_agree_on_realistic_globs(node: str, record_property: Any) -> None:
    failures = []
    for agent in ("cline", "continue", "copilot"):
        pairs = realistic(agent)
        real = _real(node, agent, [(v, _path_for(agent, p)) for v, p in pairs])
        differ = [(v, p, r) for (v, p), r in zip(pairs, real, strict=True) if _ours(agent, v, p) != r]
        record_property("agreement", (agent, "realistic", len(pairs), len(pairs) - len(differ)))
        failures += [(agent, v, p, r) for v, p, r in differ if (agent, v, p) not in DOCUMENTED]
    assert failures == [], f"{len(failures)} undocumented differences, first: {failures[:8]}"
