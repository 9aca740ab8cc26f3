"""One home each for two things many modules need (ARCHITECTURE.md, `workspace/`): a thread
(`workspace/later.py`: `in_thread`, and `after` for a timer) and a path's stat as a value a
cache compares (`workspace/stat_stamp.py`). A second module that starts a thread of its own or
reads a stat's times by hand fails here, so no copy drifts from the home.

The package's text is read as written, comments and docstrings aside (`tokenize`), so a
mention in prose is no use of it.
"""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[2] / "server" / "rulelens"

# What each home alone may write, as code (not in a comment or a docstring).
HOMES: dict[str, tuple[tuple[str, ...], str]] = {
    "threads": (("threading.Thread(", "Thread(", "Timer(", "start_new_thread("), "workspace/later.py"),
    "stat stamps": (("st_mtime_ns", "st_ctime_ns", "st_mtime", "st_ctime"), "workspace/stat_stamp.py"),
}


def code_of(text: str) -> str:
    """The text as written, less its comments and docstrings (a string that is a statement)."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    dropped: list[tuple[int, int]] = []
    previous = tokenize.NEWLINE
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        docstring = token.type == tokenize.STRING and previous in (
            tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT)
        if token.type == tokenize.COMMENT or docstring:
            (row, col), (end_row, end_col) = token.start, token.end
            dropped.append((starts[row - 1] + col, starts[end_row - 1] + end_col))
        if token.type not in (tokenize.NL, tokenize.COMMENT):
            previous = token.type
    out, at = [], 0
    for start, end in dropped:
        out.append(text[at:start])
        at = end
    out.append(text[at:])
    return "".join(out)


def users(needles: tuple[str, ...], root: Path = PACKAGE) -> dict[str, list[str]]:
    """Every module (path below root) whose code names one of `needles`, with those it names."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        code = code_of(path.read_text(encoding="utf-8"))
        named = [n for n in needles if n in code]
        if named:
            found[path.relative_to(root).as_posix()] = named
    return found


@pytest.mark.parametrize("what", sorted(HOMES))
def test_one_module_is_the_home(what: str) -> None:
    needles, home = HOMES[what]
    found = users(needles)
    assert set(found) == {home}, f"{what} outside {home}: " + ", ".join(
        f"{m} ({', '.join(n)})" for m, n in found.items() if m != home)


def test_a_second_home_is_caught(tmp_path: Path) -> None:
    (tmp_path / "workspace").mkdir()
    (tmp_path / "workspace" / "later.py").write_text("import threading\nthreading.Thread(target=f).start()\n")
    (tmp_path / "own.py").write_text('"""threading.Thread( in prose is fine."""\n'
                                     "# so is threading.Thread( in a comment\n"
                                     "import threading\n"
                                     "t = threading.Thread(target=print, daemon=True)\n")
    (tmp_path / "prose.py").write_text('"""Once a threading.Thread( started here."""\n'
                                       "def f() -> None:\n"
                                       '    """Nor st_mtime_ns in a docstring."""\n')
    (tmp_path / "stamp.py").write_text("import os\nprint(os.stat('.').st_mtime_ns)\n")
    assert users(HOMES["threads"][0], tmp_path) == {"own.py": ["threading.Thread(", "Thread("],
                                                    "workspace/later.py": ["threading.Thread(", "Thread("]}
    assert users(HOMES["stat stamps"][0], tmp_path) == {"stamp.py": ["st_mtime_ns", "st_mtime"]}


def git_folder_literals(root: Path = PACKAGE / "cli") -> list[str]:
    """Each string in code below `root` that is a place in git's folder (docstrings, and text
    with spaces, such as a help line, are prose): git's plumbing (its refs, `packed-refs`, the
    index) is workspace/git_state.py's."""
    import ast

    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
                    and not any(c.isspace() for c in node.value) and any(word in node.value for word in (".git", "packed-refs", "refs/heads"))):
                found.append(f"{path.relative_to(root.parent).as_posix()}:{node.lineno}: {node.value!r}")
    return found


def test_the_command_line_reads_git_s_folder_through_workspace() -> None:
    assert git_folder_literals() == []


def test_a_git_folder_literal_is_caught(tmp_path: Path) -> None:
    (tmp_path / "cli").mkdir()
    (tmp_path / "cli" / "kept.py").write_text('"""Reads `.git` in prose only."""\nimport os\n'
                                             'index = os.path.join("r", ".git", "index")\n')
    assert git_folder_literals(tmp_path / "cli") == ["cli/kept.py:3: '.git'"]
