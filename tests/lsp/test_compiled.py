"""The code attrs and cattrs generate, kept between starts (startup/compiled.py): a kept code
object is the one `compile` gives, compiled with the flags the generating module's own call
would have; nothing is written where Python writes no bytecode; a broken file is ignored."""

from __future__ import annotations

import builtins
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from rulelens.startup import compiled
from tests.conftest import REPO

SOURCES = [f"def __init__(self, x{n}: 'int' = {n}):\n    self.x = x{n}\n" for n in range(20)]


def generator(future: bool) -> types.ModuleType:
    """A module that compiles as attrs does, with or without `from __future__ import annotations`."""
    module = types.ModuleType("gen")
    head = "from __future__ import annotations\n" if future else ""
    code = compile(head + "def make(src, name):\n    return compile(src, name, 'exec')\n", "gen",
                   "exec", dont_inherit=True)  # not this file's own `annotations`
    exec(code, module.__dict__)
    return module


def run_all(make: Any) -> list[types.CodeType]:
    return [make(src, f"<generated {n}>") for n, src in enumerate(SOURCES)]


def direct(kept: compiled._Kept) -> Any:
    """`make` of a module without `__future__` imports, compiling through `kept`."""
    compile_kept = kept.compiler(0)
    return lambda src, name: compile_kept(src, name, "exec")


@pytest.fixture
def writes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


@pytest.mark.parametrize("future", [True, False])
def test_a_kept_code_object_is_what_the_module_would_compile(
        tmp_path: Path, writes: None, future: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    where = tmp_path / "cache" / "compiled.code"
    direct = run_all(generator(future).make)
    module = generator(future)
    first = compiled._Kept(where)
    module.compile = first.compiler(compiled._future_flags(module))  # type: ignore[attr-defined]
    assert run_all(module.make) == direct  # code objects compare by content, flags included
    first.save()
    assert where.is_file()

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("compiled again")

    second = compiled._Kept(where)
    module.compile = second.compiler(compiled._future_flags(module))  # type: ignore[attr-defined]
    monkeypatch.setattr(builtins, "compile", refuse)
    kept = run_all(module.make)
    monkeypatch.undo()
    assert kept == direct
    assert [bool(c.co_flags & 0x1000000) for c in kept] == [future] * len(SOURCES)  # annotations


def test_nothing_is_written_where_python_writes_no_bytecode(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    where = tmp_path / "compiled.code"
    kept = compiled._Kept(where)
    run_all(direct(kept))
    kept.save()
    assert not where.exists()


def test_a_warm_start_that_compiled_little_does_not_rewrite(tmp_path: Path, writes: None) -> None:
    where = tmp_path / "compiled.code"
    kept = compiled._Kept(where)
    run_all(direct(kept))
    kept.save()
    before = where.stat().st_mtime_ns, where.read_bytes()
    again = compiled._Kept(where)
    run_all(direct(again))
    direct(again)("x = 1\n", "<one more>")
    again.save()
    assert (where.stat().st_mtime_ns, where.read_bytes()) == before


@pytest.mark.parametrize("content", [b"", b"garbage", compiled._MAGIC + b"\x00\x01",
                                     compiled._MAGIC + b"N"])
def test_a_broken_file_is_ignored(tmp_path: Path, content: bytes, writes: None) -> None:
    where = tmp_path / "compiled.code"
    where.write_bytes(content)
    kept = compiled._Kept(where)
    assert kept.old == {}
    assert run_all(direct(kept)) == [compile(s, f"<generated {n}>", "exec", dont_inherit=True)
                                         for n, s in enumerate(SOURCES)]


def test_the_server_keeps_what_it_compiled_and_its_second_start_uses_it(tmp_path: Path) -> None:
    """A fresh interpreter with bytecode on: the first start writes the file, the second finds
    every lsprotocol class's code in it."""
    probe = (
        "import sys; from pathlib import Path; from rulelens.startup import compiled\n"
        f"compiled._where = lambda kind: Path({str(tmp_path / 'kept.code')!r})\n"
        "compiled.install(); import lsprotocol.types; from rulelens.lsp.server import build\n"
        "build(None); k = compiled._KEPT; print(len(k.old), len(k.used), len(k.new)); compiled.save()\n"
    )
    env = {"PYTHONPATH": str(REPO / "server"), "PATH": "/usr/bin:/bin"}
    runs = [subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                           check=True).stdout.split() for _ in range(2)]
    old, used, new = (int(x) for x in runs[1])
    assert int(runs[0][0]) == 0 and int(runs[0][2]) > 500  # lsprotocol's classes, compiled
    assert old > 500 and used > 500 and new < compiled.WORTH_WRITING


def test_the_command_line_keeps_dataclasses_code_in_its_own_file(tmp_path: Path) -> None:
    """`rulelens check` (bytecode on) keeps dataclasses' code under its own kind, neither
    importing attrs nor touching the server's file; its second start finds that code."""
    project = tmp_path / "project"
    (project / ".ai/rules").mkdir(parents=True)
    (project / ".ai/rules/a.md").write_text("---\npaths: ['app/**']\n---\n# A\n")
    probe = (
        "import sys; from pathlib import Path; from rulelens.startup import compiled\n"
        f"compiled._where = lambda kind: Path({str(tmp_path)!r}) / (kind + '.code')\n"
        "from rulelens.cli import main; code = main(['check', '-q']); k = compiled._KEPT\n"
        "print(code, len(k.used), len(k.new), 'attr._make' in sys.modules)\n"
    )
    env = {"PYTHONPATH": str(REPO / "server"), "PATH": "/usr/bin:/bin", "RULELENS_NO_CACHE": "1"}
    runs = []
    for _ in range(2):
        runs.append(subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                                   check=True, cwd=project).stdout.splitlines()[-1].split())
        assert sorted(p.name for p in tmp_path.glob("*.code")) == ["cli.code"]  # written by the first
    assert runs[0][3] == runs[1][3] == "False"  # attrs not imported
    # the second start found dataclasses' code and compiled too little to write again
    assert int(runs[1][1]) > compiled.WORTH_WRITING and int(runs[1][2]) < compiled.WORTH_WRITING


def test_dataclasses_exec_through_the_kept_code(tmp_path: Path, writes: None,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """`exec` of text compiles it as dataclasses' own call would (no `__future__` flags there),
    in the namespaces given, or in the caller's when none are; a second start compiles nothing."""
    import dataclasses

    where = tmp_path / "compiled.code"
    monkeypatch.setattr(compiled, "WORTH_WRITING", 1)
    counts = []
    for _ in range(2):
        kept = compiled._Kept(where)
        monkeypatch.setattr(dataclasses, "exec", kept.executor(compiled._future_flags(dataclasses)),
                            raising=False)

        @dataclasses.dataclass(frozen=True)
        class Point:
            x: int
            y: int = 2

        assert Point(1) == Point(1, 2) and repr(Point(1)).endswith("Point(x=1, y=2)")
        assert hash(Point(1)) == hash((1, 2))
        assert not Point.__init__.__code__.co_flags & 0x1000000  # dataclasses has no such future
        counts.append((len(kept.new), len(kept.used)))
        kept.save()
    assert counts[0][0] > 0 and counts[1] == (0, counts[0][0])
    namespace: dict[str, Any] = {}
    compiled._Kept(None).executor(0)("value = 40 + 2", namespace)
    assert namespace["value"] == 42


def test_exec_without_namespaces_runs_in_the_callers() -> None:
    run = compiled._Kept(None).executor(0)
    result: list[str] = []
    marker = "seen"  # noqa: F841  # read by the executed text
    run("result.append(marker)")
    assert result == ["seen"]
