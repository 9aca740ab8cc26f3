"""The layering around report/ and check_project: the core (rules/, agents/) imports neither them nor
a front, and report/ and check_project import no front. Read from the source (ast), not by
importing, so a lazy import inside a function counts too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rulelens

PACKAGE = Path(rulelens.__file__).parent
FRONTS = ("rulelens.cli", "rulelens.mcp", "rulelens.lsp")
RULES = {
    "rules": ("rulelens.agents", "rulelens.report", "rulelens.setup", "rulelens.check_project", *FRONTS),
    "agents": ("rulelens.report", "rulelens.setup", "rulelens.check_project", *FRONTS),
    "report": FRONTS,
    "check_project.py": ("rulelens.report", "rulelens.setup", *FRONTS),
}


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def offending(where: str, forbidden: tuple[str, ...]) -> list[str]:
    target = PACKAGE / where
    files = [target] if target.is_file() else sorted(target.rglob("*.py"))
    return [f"{f.relative_to(PACKAGE)} imports {name}" for f in files for name in sorted(imports(f))
            if any(name == bad or name.startswith(bad + ".") for bad in forbidden)]


@pytest.mark.parametrize("where", list(RULES))
def test_no_upward_import(where: str) -> None:
    assert offending(where, RULES[where]) == []


def test_the_check_can_fail(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from rulelens.report.text import problem\n")
    assert imports(bad) == {"rulelens.report.text"}
