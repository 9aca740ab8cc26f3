"""tests/unit starts no process (CONTRIBUTING.md, *Where a test goes*): a test that runs git,
grep or Python belongs in tests/integration, under the same package path.

Read here with `ast`, before any test runs: the imports and calls by which a test starts a
process itself. What the code under test starts (git from `check_rules`, grep from the name
search) no reading of the test shows; tests/unit/conftest.py catches that as it happens.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.process_guard import ProcessStarted, watching

TESTS = Path(__file__).resolve().parents[1]
UNIT = TESTS / "unit"

# Modules whose only use in a test is to start a process: the standard library's, this
# suite's git helpers, and the core's git runner.
MODULES = frozenset({"subprocess", "multiprocessing", "pty", "asyncio.subprocess", "tests.git_repo",
                     "rulelens.workspace.git"})
# Functions that start one: os's and asyncio's, and the core's entries to GNU grep.
CALLS = frozenset({"os.system", "os.popen", "os.fork", "os.forkpty", "os.posix_spawn", "os.posix_spawnp",
                   "os.spawnl", "os.spawnle", "os.spawnlp", "os.spawnlpe", "os.spawnv", "os.spawnve",
                   "os.spawnvp", "os.spawnvpe", "os.execl", "os.execle", "os.execlp", "os.execlpe",
                   "os.execv", "os.execve", "os.execvp", "os.execvpe",
                   "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell",
                   "rulelens.rules.check.stale.text_search.gnu_grep",
                   "rulelens.rules.check.stale.text_search.grep_search",
                   "rulelens.rules.check.stale.text_search.grep_outputs",
                   "rulelens.rules.check.stale.text_search.probe_grep",
                   "sys.executable"})  # not a call, but only ever used to start Python


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _among(module: str) -> bool:
    return any(module == m or module.startswith(f"{m}.") for m in MODULES)


def process_starts(source: str) -> list[str]:
    """Each line of `source` that starts a process, as `line: what`."""
    tree = ast.parse(source)
    found: list[str] = []
    names: dict[str, str] = {}  # a local name -> the dotted name it stands for
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                names[local] = alias.name if alias.asname else local
                if _among(alias.name):
                    found.append(f"{node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                names[alias.asname or alias.name] = full
                if _among(full) or full in CALLS:
                    found.append(f"{node.lineno}: from {node.module} import {alias.name}")
    for node in ast.walk(tree):
        dotted = _dotted(node) if isinstance(node, ast.Attribute) else None
        if dotted is not None:
            head, _, rest = dotted.partition(".")
            if f"{names.get(head, head)}.{rest}" in CALLS:
                found.append(f"{node.lineno}: {dotted}")
        # the `project` fixture's git=True runs `git init`
        elif isinstance(node, ast.Call) and any(
                k.arg == "git" and isinstance(k.value, ast.Constant) and k.value.value is True
                for k in node.keywords):
            found.append(f"{node.lineno}: git=True")
    return sorted(set(found), key=lambda line: int(line.split(":")[0]))


def unit_process_starts(root: Path = UNIT) -> list[str]:
    # The folder's conftest is the guard itself: it names gnu_grep to forget its answer.
    return [f"{path.relative_to(root.parent.parent)}:{line}" for path in sorted(root.rglob("*.py"))
            if path != root / "conftest.py"
            for line in process_starts(path.read_text(encoding="utf-8"))]


def test_no_unit_test_starts_a_process() -> None:
    assert unit_process_starts() == []


@pytest.mark.parametrize("source", [
    "import subprocess\nsubprocess.run(['git', 'status'])\n",
    "def test() -> None:\n    import subprocess as sp\n",
    "from subprocess import run\n",
    "from multiprocessing import Pool\n",
    "import multiprocessing.pool\n",
    "import os\nos.posix_spawnp('git', ['git'], {})\n",
    "import os\nos.system('true')\n",
    "from os import execv\n",
    "import sys\nprint(sys.executable)\n",
    "from tests.git_repo import commit, git\n",
    "from rulelens.workspace.git import GitSession\n",
    "from rulelens.workspace import git\n",
    "from rulelens.rules.check.stale.text_search import gnu_grep\n",
    "from rulelens.rules.check.stale import text_search\ntext_search.grep_search(root, [], 'grep')\n",
    "def test(project) -> None:\n    project({}, git=True)\n",
])
def test_each_way_of_starting_a_process_is_seen(source: str) -> None:
    assert process_starts(source) != [], source


def test_what_starts_nothing_is_not_flagged() -> None:
    source = ("import os\nimport sys\nfrom rulelens.rules.check.stale.text_search import file_search, which_grep\n"
              "os.environ.get('PATH')\nsys.path.append('x')\nproject({}, git=False)\ngit = 1\n")
    assert process_starts(source) == []


def test_the_guard_refuses_a_process_only_while_it_watches() -> None:
    """tests/unit/conftest.py's guard: each way a process starts is refused inside the block
    and named; outside it, processes start as usual."""
    with watching() as started:
        with pytest.raises(ProcessStarted):
            subprocess.run([sys.executable, "-c", "pass"], check=True)
        with pytest.raises(ProcessStarted):
            os.posix_spawnp(sys.executable, [sys.executable, "-c", "pass"], dict(os.environ))
        with pytest.raises(ProcessStarted):
            os.system("true")
    assert [s.split()[0] for s in started] == ["subprocess.Popen", "os.posix_spawn", "os.system"]
    assert subprocess.run([sys.executable, "-c", "pass"], check=False).returncode == 0
