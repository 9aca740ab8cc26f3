"""The language server's layering (docs/lsp.md, *How the server is built*): each layer imports
only the ones below it at run time, and features never import one another. Imports made only
for type checking (`if TYPE_CHECKING:`) name the session from below and are allowed."""

from __future__ import annotations

import ast

from tests.conftest import REPO

LSP = REPO / "server" / "rulelens" / "lsp"
RANK = {"wire": 0, "workspace": 1, "session": 2, "views": 3, "writes": 3, "features": 4,
        "server": 5, "main": 6, "command": 7}


def layer(module: str) -> str | None:
    """`rulelens.lsp.features.hover` -> "features"; None outside the server."""
    parts = module.split(".")
    return parts[2] if parts[:2] == ["rulelens", "lsp"] and len(parts) > 2 else None


def runtime_imports(source: str) -> list[str]:
    """The modules a file imports when it runs (not those under `if TYPE_CHECKING:`)."""
    tree = ast.parse(source)
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                   for n in ast.walk(node)}
    out: list[str] = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            out += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names]
    return out


def violations(own: str, imports: list[str]) -> list[str]:
    out = []
    for module in imports:
        other = layer(module)
        if other is None or other not in RANK:
            continue
        if RANK[other] > RANK[own] or (own == "features" == other and module.count(".") > 2):
            out.append(f"{own} imports {module}")
    return out


def test_every_layer_imports_only_the_ones_below() -> None:
    found = []
    for path in sorted(LSP.rglob("*.py")):
        rel = path.relative_to(LSP)
        own = rel.parts[0].removesuffix(".py")
        if own == "__init__":
            continue
        found += [f"{rel}: {v}" for v in violations(own, runtime_imports(path.read_text(encoding="utf-8")))]
    assert not found, "\n".join(found)


def test_the_layer_test_can_fail() -> None:
    source = "from rulelens.lsp.features import hover\nfrom rulelens.lsp.session import Session\n"
    assert violations("workspace", runtime_imports(source)) == [
        "workspace imports rulelens.lsp.features", "workspace imports rulelens.lsp.features.hover",
        "workspace imports rulelens.lsp.session", "workspace imports rulelens.lsp.session.Session"]
    assert violations("features", runtime_imports("from rulelens.lsp.features.open_rule import x\n"))
    typed = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from rulelens.lsp.session import Session\n"
    assert violations("wire", runtime_imports(typed)) == []
