"""The wire payloads: the TypeScript interfaces of vscode-extension/src/protocol.ts agree with the
TypedDicts of rulelens.lsp.wire.payloads (the source of truth) on names, keys, optionality and types.

Both sides are read by their own language's tools: the TypedDicts through `typing`
introspection, the interfaces through the TypeScript compiler's parser (ts_interfaces.mjs).
Each side becomes `{name: {key: (optional, canonical type)}}` in one vocabulary (`string`,
`number`, `boolean`, `null`, `unknown`, `"literal"`, `T[]`, `{K: V}`, a payload's name, unions
sorted with `|`).
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import types
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin

import pytest
from typing_extensions import TypedDict, get_type_hints, is_typeddict

from tests.conftest import REPO, require_tool

EXTENSION = REPO / "vscode-extension"
PROTOCOL_TS = EXTENSION / "src" / "protocol.ts"
DUMPER = Path(__file__).resolve().parent / "ts_interfaces.mjs"

Shape = dict[str, dict[str, tuple[bool, str]]]


# -- reading each side ---------------------------------------------------------------------
def _alternatives(tp: object) -> list[str]:
    if tp is type(None):
        return ["null"]
    if tp is str:
        return ["string"]
    if tp is bool:
        return ["boolean"]
    if tp in (int, float):
        return ["number"]
    if is_typeddict(tp):
        return [getattr(tp, "__name__", repr(tp))]
    origin = get_origin(tp)
    if origin is Literal:
        return [json.dumps(a) for a in get_args(tp)]
    if origin is Union or origin is types.UnionType:
        return [alt for arg in get_args(tp) for alt in _alternatives(arg)]
    if tp is Any or tp is object:
        return ["unknown"]
    if origin is dict or origin is Mapping:
        key, value = get_args(tp)
        return [f"{{{_canonical(key)}: {_canonical(value)}}}"]
    if origin is list:
        (item,) = get_args(tp)
        inner = _canonical(item)
        return [f"({inner})[]" if "|" in inner else f"{inner}[]"]
    return [f"unsupported type {tp!r}"]


def _canonical(tp: object) -> str:
    return "|".join(sorted(set(_alternatives(tp))))


def python_shapes(module: types.ModuleType) -> Shape:
    """Every TypedDict defined in `module` (not imported into it)."""
    out: Shape = {}
    for name, value in vars(module).items():
        # A private TypedDict is a base that carries keys (AgentLoad's required ones), not a payload.
        if is_typeddict(value) and getattr(value, "__module__", None) == module.__name__ and not name.startswith("_"):
            out[name] = {key: _optional_and_type(value, key, tp)
                         for key, tp in get_type_hints(value, include_extras=True).items()}
    return out


def _optional_and_type(typed_dict: object, key: str, hint: object) -> tuple[bool, str]:
    """Optional through `total=False` or `NotRequired[...]`. The marker is read from the hint too:
    under `from __future__ import annotations` Python 3.10 and 3.11 leave it out of
    `__optional_keys__`."""
    optional = key in getattr(typed_dict, "__optional_keys__", frozenset())
    origin = get_origin(hint)
    if origin is NotRequired or origin is Required:
        optional = origin is NotRequired
        (hint,) = get_args(hint)
    return optional, _canonical(hint)


def typescript_shapes(node: str, ts_file: Path) -> Shape:
    """Every exported interface of `ts_file`, read by ts_interfaces.mjs."""
    run = subprocess.run([node, str(DUMPER), str(EXTENSION), str(ts_file)],
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    raw: dict[str, dict[str, dict[str, Any]]] = json.loads(run.stdout)
    return {name: {key: (bool(f["optional"]), str(f["type"])) for key, f in fields.items()}
            for name, fields in raw.items()}


def disagreements(python: Shape, typescript: Shape) -> list[str]:
    """One line per difference; empty when the two sides agree."""
    out: list[str] = []
    for name in sorted(python.keys() - typescript.keys()):
        out.append(f"{name}: a TypedDict in payloads.py, no interface in protocol.ts")
    for name in sorted(typescript.keys() - python.keys()):
        out.append(f"{name}: an interface in protocol.ts, no TypedDict in payloads.py")
    for name in sorted(python.keys() & typescript.keys()):
        py, tsx = python[name], typescript[name]
        for key in sorted(py.keys() - tsx.keys()):
            out.append(f"{name}.{key}: in Python only")
        for key in sorted(tsx.keys() - py.keys()):
            out.append(f"{name}.{key}: in TypeScript only")
        for key in sorted(py.keys() & tsx.keys()):
            (py_opt, py_type), (ts_opt, ts_type) = py[key], tsx[key]
            if py_opt != ts_opt:
                out.append(f"{name}.{key}: optional in {'Python' if py_opt else 'TypeScript'} only")
            if py_type != ts_type:
                out.append(f"{name}.{key}: {py_type} in Python, {ts_type} in TypeScript")
    return out


# -- fixtures ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def node() -> str:
    found = require_tool("node")
    if not (EXTENSION / "node_modules" / "typescript").is_dir():
        message = "the extension's npm dependencies are missing: run npm ci in vscode-extension"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


def _payloads() -> types.ModuleType:
    try:
        return importlib.import_module("rulelens.lsp.wire.payloads")
    except ModuleNotFoundError:
        # Only until the server's payloads land; under CI a missing contract is a failure.
        if os.environ.get("CI"):
            raise
        pytest.skip("rulelens.lsp.wire.payloads is not there yet")


# -- the contract --------------------------------------------------------------------------
def test_protocol_ts_mirrors_the_python_payloads(node: str) -> None:
    python = python_shapes(_payloads())
    assert "RulesForPath" in python and "RuleForPath" in python, sorted(python)
    problems = disagreements(python, typescript_shapes(node, PROTOCOL_TS))
    assert not problems, "protocol.ts and payloads.py disagree:\n" + "\n".join(problems)


# -- the comparison itself can fail --------------------------------------------------------
class Entry(TypedDict):
    title: str
    line: int


class Answer(TypedDict):
    kind: Literal["source", "rule"]
    title: str | None
    entries: list[Entry]
    agentsSee: bool
    agents: NotRequired[dict[str, bool]]
    note: NotRequired[str]


SAMPLE = sys.modules[__name__]


def _ts(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "sample.ts"
    path.write_text(text, encoding="utf-8")
    return path


def test_python_side_reads_names_optionality_and_types() -> None:
    shapes = python_shapes(SAMPLE)
    assert shapes["Answer"] == {
        "kind": (False, '"rule"|"source"'),
        "title": (False, "null|string"),
        "entries": (False, "Entry[]"),
        "agentsSee": (False, "boolean"),
        "agents": (True, "{string: boolean}"),
        "note": (True, "string"),
    }
    assert shapes["Entry"] == {"title": (False, "string"), "line": (False, "number")}


def test_agreeing_interfaces_give_no_difference(node: str, tmp_path: Path) -> None:
    sample = _ts(tmp_path, """
        type Kind = 'source' | 'rule';
        export interface Entry { title: string; line: number }
        export interface Answer {
          kind: Kind; title: string | null; entries: Array<Entry>; agentsSee: boolean;
          agents?: Record<string, boolean>; note?: string;
        }
    """)
    assert disagreements(python_shapes(SAMPLE), typescript_shapes(node, sample)) == []


def test_every_kind_of_difference_is_reported(node: str, tmp_path: Path) -> None:
    sample = _ts(tmp_path, """
        export interface Entry { title: string; line: string }
        export interface Answer {
          kind: 'source' | 'index'; title: string; entries: Entry[]; agents_see: boolean; note: string;
          agents?: Record<string, string>;
        }
        export interface Extra { x: number }
    """)
    assert disagreements(python_shapes(SAMPLE), typescript_shapes(node, sample)) == [
        "Extra: an interface in protocol.ts, no TypedDict in payloads.py",
        "Answer.agentsSee: in Python only",
        "Answer.agents_see: in TypeScript only",
        "Answer.agents: {string: boolean} in Python, {string: string} in TypeScript",
        'Answer.kind: "rule"|"source" in Python, "index"|"source" in TypeScript',
        "Answer.note: optional in Python only",
        "Answer.title: null|string in Python, string in TypeScript",
        "Entry.line: number in Python, string in TypeScript",
    ]
