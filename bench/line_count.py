"""The lines of the `rulelens` package, per package, in one or more code trees side by side.

Usage: python bench/line_count.py [NAME=]TREE [[NAME=]TREE ...]
  TREE: a folder holding the `rulelens` package (a checkout's `server/`), or `git:REV`, REV's
  `server/` in the repository of the current folder (read from git, nothing unpacked), e.g.
  `python bench/line_count.py before=git:237b425 after=server`; NAME heads its columns.

Per package (a folder right below `rulelens/`, counted with everything below it; the modules
right in `rulelens/` are one row) it prints two figures per tree: all lines (as `wc -l` counts
them) and code lines (not blank, not only a comment, not a docstring), and, with two trees, the
second's change in code lines. Python files only.
"""

from __future__ import annotations

import ast
import io
import subprocess
import sys
import tokenize
from collections import Counter
from pathlib import Path

TOP = "(modules in rulelens/)"
_SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
         tokenize.ENCODING, tokenize.ENDMARKER}


def code_lines(text: str) -> int:
    """Lines holding a token other than a comment, outside docstrings (ast's own reading)."""
    docs: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                docs.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    lines: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type not in _SKIP:
            lines.update(range(tok.start[0], tok.end[0] + 1))
    return len(lines - docs)


def files_of(tree: str) -> dict[str, str]:
    """Path below `rulelens/` → text, for every Python file of the tree."""
    if tree.startswith("git:"):
        rev = tree[4:]
        names = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, "server/rulelens/"],
                               capture_output=True, text=True, check=True).stdout.split("\n")
        return {n.removeprefix("server/rulelens/"): subprocess.run(
                    ["git", "show", f"{rev}:{n}"], capture_output=True, text=True, check=True).stdout
                for n in names if n.endswith(".py")}
    root = Path(tree) / "rulelens"
    if not root.is_dir():
        raise SystemExit(f"line_count: {tree} holds no rulelens/ folder (give a checkout's server/)")
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in root.rglob("*.py")}


def counts(tree: str) -> tuple[Counter[str], Counter[str]]:
    total: Counter[str] = Counter()
    code: Counter[str] = Counter()
    for rel, text in files_of(tree).items():
        package = rel.split("/", 1)[0] if "/" in rel else TOP
        total[package] += text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        code[package] += code_lines(text)
    return total, code


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    named = [arg.split("=", 1) if "=" in arg.split("/", 1)[0] else [arg, arg] for arg in argv]
    measured = [counts(tree) for _, tree in named]
    packages = sorted(set().union(*(t.keys() for t, _ in measured)), key=lambda p: (p == TOP, p))
    head = " | ".join(f"{name} lines | {name} code" for name, _ in named)
    change = " | code change" if len(argv) == 2 else ""
    print(f"| package | {head}{change} |")
    print("|---|" + "---:|" * (2 * len(argv) + (1 if change else 0)))
    for package in [*packages, "total"]:
        cells = []
        for total, code in measured:
            t = sum(total.values()) if package == "total" else total[package]
            c = sum(code.values()) if package == "total" else code[package]
            cells += [f"{t:,}", f"{c:,}"]
        if change:
            a = sum(measured[0][1].values()) if package == "total" else measured[0][1][package]
            b = sum(measured[1][1].values()) if package == "total" else measured[1][1][package]
            cells.append(f"{b - a:+,}")
        name = f"**{package}**" if package == "total" else package
        print(f"| {name} | {' | '.join(cells)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
