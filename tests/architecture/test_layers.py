"""Dependencies flow one way: the core never imports a front (ARCHITECTURE.md, "Invariants").

Every `import` in the package, at module level or inside a function, is read with `ast`, so
a lazy import cannot slip past. A package may import itself and the packages listed for it.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parents[2] / "server" / "rulelens"

# What each top-level part of rulelens may import, besides itself. Modules not listed here
# (the package's own `__init__`, `__main__`) may import anything.
ALLOWED: dict[str, set[str]] = {
    "glob_engines": set(),  # the ground floor: every glob dialect, Boost's among them
    "workspace": {"glob_engines"},  # git, the file list (with its glob counts), the caches
    "startup": {"workspace"},  # what a process does before the rest is imported (startup/compiled.py)
    "rules": {"workspace", "glob_engines"},
    "agents": {"rules", "glob_engines", "workspace"},
    "setup": {"rules", "workspace"},
    # End-to-end runs of the agents' binaries, compared with what `agents/` predicts.
    "agent_runs": {"rules", "glob_engines", "agents", "workspace"},
    "report": {"rules", "glob_engines", "agents", "check_project", "workspace"},
    # Not `lsp`: the language server's command lives in lsp/command.py, named by cli/app.py.
    "cli": {"rules", "glob_engines", "agents", "setup", "report", "check_project", "mcp", "workspace", "startup",
            "agent_runs"},
    "mcp": {"rules", "glob_engines", "agents", "report", "setup", "check_project", "workspace", "agent_runs"},
    "lsp": {"rules", "glob_engines", "agents", "report", "check_project", "check_document", "causes", "workspace",
            "startup", "agent_runs"},
    "causes": {"rules", "glob_engines", "agents", "workspace"},
    "check_project": {"rules", "glob_engines", "agents", "causes", "workspace"},
    "check_document": {"rules", "glob_engines", "agents", "workspace"},
}


def part_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "rulelens" or len(parts) < 2:
        return None
    return parts[1]


def imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            if node.module == "rulelens":  # `from rulelens import lsp`
                found.extend((node.lineno, f"rulelens.{alias.name}") for alias in node.names)
    return found


def violations(root: Path = PACKAGE) -> list[str]:
    out: list[str] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        own = rel.parts[0].removesuffix(".py")
        if own not in ALLOWED:
            continue
        for line, module in imports(path):
            target = part_of(module)
            if target is None or target == own or target not in ALLOWED:  # `__version__`, a new part
                continue
            if target not in ALLOWED[own]:
                out.append(f"{rel.as_posix()}:{line} imports {module} ({own} may not import {target})")
    return out


def test_every_part_is_known() -> None:
    """A new top-level package must be placed in the layers above."""
    parts = {p.name.removesuffix(".py") for p in PACKAGE.iterdir()
             if (p.is_dir() and (p / "__init__.py").exists()) or p.suffix == ".py"}
    assert parts - {"__init__", "__main__"} <= set(ALLOWED)


def test_the_core_never_imports_a_front() -> None:
    assert violations() == []


def test_the_command_line_imports_nothing_of_the_language_server() -> None:
    """Two fronts side by side: `cli/` starts the server by the name cli/app.py's `ELSEWHERE`
    gives, and shares start-up code with it through `startup/`, not `lsp/`."""
    assert "lsp" not in ALLOWED["cli"]
    assert [v for v in violations() if v.startswith("cli/")] == []


def test_a_front_imported_from_the_core_is_caught(tmp_path: Path) -> None:
    """The check itself can fail: a copy of the tree with one bad import reports it."""
    bad = tmp_path / "rulelens"
    (bad / "rules").mkdir(parents=True)
    (bad / "rules" / "__init__.py").write_text("")
    (bad / "rules" / "leak.py").write_text("def f():\n    from rulelens.lsp.server import build\n")
    assert violations(bad) == ["rules/leak.py:2 imports rulelens.lsp.server (rules may not import lsp)"]


# Within a package, each part (a subpackage, or a module at its top) may import only parts of
# earlier groups, and itself: the order the packages' maps in ARCHITECTURE.md give.
SUBLAYERS: dict[str, list[set[str]]] = {
    "workspace": [{"atomic_write", "fast_hash", "spawn", "later", "sorted_paths", "reads", "root", "processes",
                   "stat_stamp", "git_dir"},
                  {"git_state"}, {"git"}, {"cache_files", "filetree"}, {"filelist"}],
    "rules": [{"model"}, {"format"}, {"match", "write"}, {"repository"}, {"check", "path_rules", "review"}],
    "agents": [{"model", "facts", "readings", "observe_hook", "import_syntax"}, {"reading", "imports"}, {"base"}, {"formats"},
               {"registry"}, {"project", "codes", "dialect_words"}, {"traps", "fixes", "observed"}, {"editing", "folder_map"}],
    "agent_runs": [{"model"}, {"fake_models", "processes", "scratch"}, {"launchers"}, {"extraction"},
                   {"runner"}, {"compare"}, {"verify"}],
    "cli": [{"answer_file", "command_word", "common", "progress", "observe_hook"}, {"app"}, {"result_cache", "commands"}],
}


def sublayer_violations(root: Path = PACKAGE) -> list[str]:
    out: list[str] = []
    for package, groups in SUBLAYERS.items():
        rank = {part: i for i, group in enumerate(groups) for part in group}
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root / package)
            own = rel.parts[0].removesuffix(".py")
            if own == "__init__":
                continue
            assert own in rank, f"{package}/{rel.parts[0]} is in no group of SUBLAYERS[{package!r}]"
            for line, module in imports(path):
                parts = module.split(".")
                if parts[:2] != ["rulelens", package] or len(parts) < 3 or parts[2] == own:
                    continue
                target = parts[2]
                if target in rank and rank[target] >= rank[own]:
                    out.append(f"{package}/{rel.as_posix()}:{line} imports {module} "
                               f"({own} may not import {target})")
    return out


def test_each_package_imports_its_parts_in_order() -> None:
    assert sublayer_violations() == []


def test_a_part_importing_a_later_one_is_caught(tmp_path: Path) -> None:
    bad = tmp_path / "rulelens"
    for part in ("model", "format", "match", "write", "repository", "check", "path_rules", "review"):
        (bad / "rules" / part).mkdir(parents=True)
    (bad / "rules" / "format" / "x.py").write_text("from rulelens.rules.repository import RuleRepository\n")
    assert sublayer_violations(bad) == [
        "rules/format/x.py:1 imports rulelens.rules.repository (format may not import repository)"]
