"""The cache modules import one another one way: no cycle among `check`'s kept answer
(cli/result_cache.py, cli/answer_file.py), git's answers
(workspace/git.py, git_state.py, cache_files.py, and the ground floor's one-home modules) and
the name search's cache (rules/check/stale/), counting imports inside functions and under TYPE_CHECKING."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "server" / "rulelens"
MODULES = [f"rulelens.cli.{m}" for m in ("result_cache", "answer_file")] + [
    f"rulelens.workspace.{m}" for m in ("git", "git_state", "cache_files", "filelist", "later", "root",
                                        "atomic_write", "spawn", "fast_hash")] + [
    f"rulelens.rules.check.stale.{m}" for m in ("search_cache", "text_search", "findings", "words", "mention_cache", "evidence", "drift")]


def imported(module: str) -> set[str]:
    """The modules of MODULES that `module` imports anywhere in its text."""
    path = PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".py")
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {m for m in found if m in MODULES and m != module}


def test_no_cycle_among_the_cache_modules() -> None:
    graph = {m: imported(m) for m in MODULES}
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        assert module not in path, " -> ".join([*path[path.index(module):], module])
        if module in done:
            return
        for each in sorted(graph[module]):
            visit(each, [*path, module])
        done.add(module)

    for module in MODULES:
        visit(module, [])
    assert graph["rulelens.cli.result_cache"] >= {"rulelens.cli.answer_file"}  # the test reads imports
