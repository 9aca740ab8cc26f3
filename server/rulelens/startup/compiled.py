"""The code attrs, cattrs and dataclasses generate, compiled once and kept, as Python keeps
bytecode.

Importing lsprotocol builds about 560 attrs classes, and attrs compiles the source of each
class's methods (`__init__`, `__eq__`, `__repr__`…); cattrs does the same for the converter of
each message the server reads or sends, and dataclasses for each of the 60-odd dataclasses
rulelens and the libraries define. Compiling that source is about 40% of importing lsprotocol
(150 ms of 0.35 s here) and 20 ms of the rest, and it is the same source on every start.

`install` (before lsprotocol is imported) has them compile through `_Kept`, which
answers from code objects kept by an earlier start: by a digest of the source, file name, mode
and compiler flags, so a hit is the code object `compile` would give. `save` (once the first
answers are out) writes what this start compiled where Python keeps this module's bytecode
(`__pycache__`, or under `sys.pycache_prefix`; the file name carries the interpreter's tag),
and only where Python writes bytecode: not under PYTHONDONTWRITEBYTECODE, nor in a folder it
cannot write. A missing, unreadable or foreign file is ignored and everything is compiled as
usual. Nothing here depends on the workspace.

Written by hand because no library offers such a cache. It sets only the name `compile` (or,
in dataclasses, `exec`) in the generating modules, shadowing the builtin; a module that is
missing, or has a function of that name of its own, is left alone, and what it cannot key
(another `optimize`, a source that is not text) goes to the builtin.
"""

from __future__ import annotations
import __future__

import builtins
import contextlib
import importlib
import importlib.util
import marshal
import os
import sys
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

from rulelens.workspace.fast_hash import blake2b

# The modules whose generated code is compiled through here, by the builtin each calls (each
# module has its own future flags).
GENERATORS = (("attr._make", "compile"), ("cattrs.gen", "compile"),
              ("cattrs.gen.typeddicts", "compile"), ("dataclasses", "exec"))
MAX_ENTRIES = 5_000  # about 10 MB; the language server's start needs about 700
WORTH_WRITING = 16  # new code objects
_MAGIC = b"rulelens-compiled-1\n"


def _future_flags(module: ModuleType) -> int:
    """The compiler flags a `compile` call inside `module` inherits: its code's `__future__`
    features, read from a function defined there (every function of a file has the same)."""
    mask = 0
    for name in __future__.all_feature_names:
        mask |= getattr(__future__, name).compiler_flag
    for value in module.__dict__.values():
        code = getattr(value, "__code__", None)
        if isinstance(code, CodeType) and getattr(value, "__module__", None) == module.__name__:
            return code.co_flags & mask
    return 0


def _digest(source: object, filename: object, mode: object, flags: int) -> bytes | None:
    if not isinstance(source, str) or not isinstance(filename, str) or not isinstance(mode, str):
        return None
    text = f"{mode}\0{flags}\0{filename}\0{source}"
    return blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class _Kept:
    """Code objects by digest: those read from the file, and those compiled by this start."""

    def __init__(self, where: Path | None) -> None:
        self.where = where
        self.old: dict[bytes, CodeType] = {}
        self.new: dict[bytes, CodeType] = {}
        self.used: set[bytes] = set()  # the keys of `old` this start asked for
        if where is not None:
            self.old = _read(where)

    def compiler(self, inherited: int) -> Any:
        """A `compile` for a module whose own calls inherit `inherited` flags."""

        def compile_kept(source: Any, filename: Any, mode: Any, flags: int = 0,
                         dont_inherit: bool = False, optimize: int = -1) -> Any:
            if not dont_inherit:
                flags |= inherited
            key = _digest(source, filename, mode, flags) if optimize == -1 else None
            if key is None:
                return builtins.compile(source, filename, mode, flags, True, optimize)
            code = self.old.get(key) or self.new.get(key)
            if code is not None:
                self.used.add(key)
                return code
            code = builtins.compile(source, filename, mode, flags, True, optimize)
            if isinstance(code, CodeType):
                self.new[key] = code
            return code

        return compile_kept

    def executor(self, inherited: int) -> Any:
        """An `exec` for a module whose own calls inherit `inherited` flags: text is compiled
        through `compiler`, in the caller's namespaces when none are given, as `exec` does."""
        compile_kept = self.compiler(inherited)

        def exec_kept(source: Any, global_ns: Any = None, local_ns: Any = None, /,
                      **kwargs: Any) -> None:
            if isinstance(source, str | bytes):
                source = compile_kept(source, "<string>", "exec")
            if global_ns is None:
                frame = sys._getframe(1)
                global_ns = frame.f_globals
                if local_ns is None:
                    local_ns = frame.f_locals
            builtins.exec(source, global_ns, local_ns, **kwargs)

        return exec_kept

    def save(self) -> None:
        """Write what this start used and compiled (nothing else: what no start asks for goes),
        when it compiled enough to be worth it: a class with a generated `__hash__` has the
        process's string-hash seed in its source, so a warm start still compiles a few."""
        if len(self.new) < WORTH_WRITING or self.where is None or sys.dont_write_bytecode:
            return
        kept = {key: self.old[key] for key in self.used if key in self.old}
        kept.update(self.new)
        if len(kept) > MAX_ENTRIES:
            return
        with contextlib.suppress(OSError, ValueError):
            _write(self.where, _MAGIC + marshal.dumps(kept))
        self.old, self.new, self.used = kept, {}, set(kept)


def _read(where: Path) -> dict[bytes, CodeType]:
    with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
        raw = where.read_bytes()
        if raw.startswith(_MAGIC):
            data = marshal.loads(raw[len(_MAGIC):])
            if isinstance(data, dict) and all(
                    isinstance(k, bytes) and isinstance(v, CodeType) for k, v in data.items()):
                return data
    return {}


def _write(where: Path, data: bytes) -> None:
    """Atomically, as Python writes bytecode and as the other caches are written (a temporary
    file beside it, then a rename), and readable where this module is, as a .pyc is."""
    from rulelens.workspace.cache_files import write  # at save time, not at start

    write(where, data)
    with contextlib.suppress(OSError):
        os.chmod(where, Path(__file__).stat().st_mode & 0o666)


def _where(kind: str) -> Path | None:
    """Beside this module's bytecode: `__pycache__/compiled.<tag>.code` (`.<kind>.code` for
    another kind of start, which asks for other code: each file keeps what its starts use)."""
    suffix = ".code" if kind == "serve" else f".{kind}.code"
    with contextlib.suppress(NotImplementedError, ValueError):
        return Path(importlib.util.cache_from_source(__file__)).with_suffix(suffix)
    return None


_KEPT: _Kept | None = None  # per process, as the generators it takes over are


def install(kind: str = "serve", generators: tuple[tuple[str, str], ...] = GENERATORS) -> None:
    """Compile the generated code through the kept code objects (once). The command line
    (`kind` "cli") imports neither attrs nor cattrs: only dataclasses' code is kept for it."""
    global _KEPT
    if _KEPT is not None:
        return
    _KEPT = _Kept(_where(kind))
    for name, builtin in generators:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if builtin in module.__dict__:
            continue  # the module has one of its own: leave it alone
        flags = _future_flags(module)
        setattr(module, builtin, _KEPT.compiler(flags) if builtin == "compile"
                else _KEPT.executor(flags))


def save() -> None:
    """Keep what this start compiled for the next one (see the module's docstring)."""
    if _KEPT is not None:
        _KEPT.save()
