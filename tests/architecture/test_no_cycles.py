"""No module of rulelens imports itself back through others: the import graph, counting imports
inside functions and under TYPE_CHECKING (`from package import module` counts as the module),
has no cycle. A lazy import still ties two modules together; a cycle means two modules that
cannot be read, tested or moved apart."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "server" / "rulelens"


def modules(root: Path) -> dict[str, Path]:
    found = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    known = modules(root)
    out: dict[str, set[str]] = {}
    for name, path in known.items():
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # `from package import module` imports the module; `from module import name`
                # the module itself.
                subs = [f"{node.module}.{alias.name}" for alias in node.names]
                targets = [s for s in subs if s in known] or [node.module]
            else:
                continue
            for target in targets:
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges.add(target)
        out[name] = edges
    return out


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan's, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            node, todo = work[-1]
            nxt = next(todo, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    top = stack.pop()
                    on.discard(top)
                    part.append(top)
                    if top == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def test_no_module_imports_itself_back() -> None:
    assert cycles(graph()) == []


def test_a_cycle_is_caught(tmp_path: Path) -> None:
    """Through a lazy import, a TYPE_CHECKING one and `from package import module`."""
    root = tmp_path / "rulelens"
    (root / "a").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "a" / "__init__.py").write_text("")
    (root / "a" / "one.py").write_text("def f():\n    from rulelens.a import two\n")
    (root / "a" / "two.py").write_text("if TYPE_CHECKING:\n    from rulelens.b import x\n")
    (root / "b.py").write_text("from rulelens.a.one import f\n")
    (root / "c.py").write_text("import rulelens.b\n")
    assert cycles(graph(root)) == [["rulelens.a.one", "rulelens.a.two", "rulelens.b"]]
