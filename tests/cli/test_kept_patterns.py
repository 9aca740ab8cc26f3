"""The regular expressions of modules' bodies, kept between the command line's starts
(lsp/wire/compiled.py, `install_patterns`): a kept program is the pattern `re` compiles (equal
patterns have the same program); only modules' bodies are kept, never a pattern made from data;
patterns `re` may warn about are compiled as usual; a broken, refused or foreign file is
compiled past."""

from __future__ import annotations

import re
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from rulelens.lsp.wire import compiled

PATTERNS = [(r"(?P<name>[a-z]+)\s*=\s*(\d+)", 0), (r"^\s*#", re.M), ("[A-Z][a-z]+(?:[A-Z][a-z]+)+", 0),
            (r"\bfoo\b", re.I), ("(a)|b", 0), ("x{2,5}?", 0), (r"[^/\\]+", re.S), ("[\u00e9-\u00ff]+", re.I),
            (r"(?x) a  # comment", 0), (r"(?:\d+\.){3}\d+", re.A)]
BODY = "import re\n" + "".join(f"p{n} = re.compile({p!r}, {f})\n" for n, (p, f) in enumerate(PATTERNS))
compiler: Any = re._compiler  # type: ignore[attr-defined]
OWN_COMPILE, OWN_SRE = compiler.compile, compiler._sre


def kept_patterns(where: Path) -> compiled._KeptPatterns:
    """A start's `install_patterns`, on `re` as Python has it (one per process, as in a start)."""
    compiler.compile, compiler._sre = OWN_COMPILE, OWN_SRE
    return compiled._KeptPatterns(where)


def module_body() -> dict[str, Any]:
    """A module's body that compiles PATTERNS, run afresh (re's own cache emptied first)."""
    re.purge()
    namespace: dict[str, Any] = {}
    exec(compile(BODY, "patterns_module", "exec"), namespace)
    return namespace


@pytest.fixture
def kept(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Where the programs are kept; `re` as it was afterwards."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(compiler, "compile", compiler.compile)
    monkeypatch.setattr(compiler, "_sre", compiler._sre)
    yield tmp_path / "compiled.patterns"  # type: ignore[misc]
    re.purge()


def refuse(*args: Any) -> Any:
    raise AssertionError("compiled again")


def test_a_kept_program_is_the_pattern_re_compiles(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    own = OWN_COMPILE
    first = kept_patterns(kept)
    fresh = module_body()
    assert set(first.new) == {(p, int(f)) for p, f in PATTERNS}
    first.save()
    assert kept.is_file()
    second = kept_patterns(kept)
    monkeypatch.setattr(second, "original", refuse)  # every pattern from the file
    again = module_body()
    for n, (pattern, flags) in enumerate(PATTERNS):
        mine = again[f"p{n}"]
        assert mine == own(pattern, int(flags)) == fresh[f"p{n}"]  # same flags and program
        assert (mine.groups, dict(mine.groupindex)) == (fresh[f"p{n}"].groups, dict(fresh[f"p{n}"].groupindex))


def test_a_pattern_made_at_run_time_is_not_kept(kept: Path) -> None:
    first = kept_patterns(kept)

    def from_data(glob: str) -> re.Pattern[str]:
        return re.compile(re.escape(glob) + "$")

    from_data("src/app.ts")
    assert not first.new
    first.save()
    assert not kept.exists()


def test_a_pattern_re_warns_about_is_compiled_as_usual(kept: Path) -> None:
    first = kept_patterns(kept)
    for _ in range(2):
        re.purge()
        with pytest.warns(FutureWarning):
            exec(compile("import re\nre.compile('[[a]')\n", "warns", "exec"), {})
    assert not first.new


@pytest.mark.parametrize("damage", ["garbage", "other interpreter", "refused program"])
def test_a_broken_or_foreign_file_is_compiled_past(kept: Path, damage: str) -> None:
    first = kept_patterns(kept)
    fresh = module_body()
    first.save()
    raw = kept.read_bytes()
    if damage == "garbage":
        kept.write_bytes(raw[: len(raw) // 2])
    elif damage == "other interpreter":
        kept.write_bytes(raw.replace(str(sys.hexversion).encode(), b"1234", 1))
    else:
        import marshal

        head, _, body = raw.partition(b"\n")
        stamp, _, body = body.partition(b"\n")
        programs = marshal.loads(body)
        for key, (flags, code, groups, index, names) in programs.items():
            programs[key] = (flags, [999_999, *code], groups, index, names)
        kept.write_bytes(b"\n".join([head, stamp, marshal.dumps(programs)]))
    second = kept_patterns(kept)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = module_body()
    assert [again[f"p{n}"] for n in range(len(PATTERNS))] == [fresh[f"p{n}"] for n in range(len(PATTERNS))]
    assert len(second.new) == len(PATTERNS)  # compiled again, and kept again
