"""Replay the vectors recorded from Laravel Boost's own PHP code through `rulelens record`/`index`.

Skipped without ../shared/boost-oracle (a user's clone has none); CI has it. Byte-exact vectors
must come back byte for byte; the deliberate deviations (the oracle's README lists them) are
compared loosely: every entry kept, the index current, or the op refused with a clear error.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rulelens.cli.app import main
from rulelens.rules.format.reading import split_lines
from tests.conftest import SHARED

VECTORS = SHARED / "boost-oracle" / "vectors.json"
pytestmark = pytest.mark.skipif(not VECTORS.is_file(), reason="../shared/boost-oracle is not present")

_HEADING_LINE = re.compile(r"#{1,2} ")


def load_vectors() -> list[dict[str, Any]]:
    if not VECTORS.is_file():
        return []
    data = json.loads(VECTORS.read_text(encoding="utf-8"))
    return [v for v in data["vectors"] if v["kind"] in ("write", "writeIndex") and not v["root_dependent"]]


def _bytes(b64: str, root: str) -> bytes:
    return base64.b64decode(b64).replace(b"{ROOT_NOSLASH}", root.lstrip("/").encode()).replace(
        b"{ROOT}", root.encode())


def deviations(vector: dict[str, Any]) -> list[str]:
    """Why a vector is compared loosely: the deviation classes of the oracle's README."""
    why = []
    for op in vector.get("ops", []):
        glob, _title, note = op[:3]
        if len(op) == 3 and glob.strip().startswith(("/", "{ROOT}")):
            why.append("absolute glob given to write() directly")
        if ".." in re.split(r"[/\\]", glob.strip()):
            why.append("a `..` segment")
        if any(_HEADING_LINE.match(line) for line in re.split(r"\r\n|\r|\n", note.strip())):
            why.append("a note with heading lines")
        if "\r" in note:
            why.append("a note with CR line endings")
        if "|" in glob:
            why.append("`|` in a glob")
    for b64 in vector["seed_files"].values():
        raw = base64.b64decode(b64)
        if b"\r\n" in raw:
            why.append("a CRLF seed")
        lines = split_lines(raw.decode("utf-8", "replace").lstrip("\ufeff"))
        if lines and lines[0].strip() == "---":
            close = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
            if close is not None:
                keys = [line.split(":")[0] for line in lines[1:close] if re.match(r"[^\s#-][^:]*:(\s|$)", line)]
                if any(k.strip() != "paths" for k in keys):
                    why.append("a seed with other frontmatter keys")
                if any(line.rstrip() == "---" for line in lines[close + 1 :]):
                    why.append("a seed with a second `---` block")
                if "|" in "\n".join(lines[1:close]):
                    why.append("`|` in a seeded glob")
    return why


@dataclass
class Replayed:
    tree: dict[str, bytes]
    expected: dict[str, bytes]
    runs: list[tuple[int, str, str]]


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def replay(vector: dict[str, Any], tmp: Path) -> Replayed:
    root = tmp / "project"
    (root / ".git").mkdir(parents=True)
    rules = root / ".ai" / "rules"
    if vector["rules_dir_exists"] or vector["seed_files"]:
        rules.mkdir(parents=True)
    text_root = str(root)
    for rel, b64 in vector["seed_files"].items():
        path = rules / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_bytes(b64, text_root))
    runs = []
    if vector["kind"] == "writeIndex":
        runs.append(_run(["--root", text_root, "index"]))
    for op in vector.get("ops", []):
        glob, title, note = (s.replace("{ROOT}", text_root) for s in op[:3])
        runs.append(_run(["--root", text_root, "record", "--glob", glob, "--title", title, "--note", note]))
    tree = {p.relative_to(rules).as_posix(): p.read_bytes() for p in sorted(rules.rglob("*")) if p.is_file()} \
        if rules.is_dir() else {}
    expected = {rel: _bytes(b64, text_root) for rel, b64 in vector["result_files"].items()}
    return Replayed(tree, expected, runs)


def _collapse(text: str) -> str:
    return " ".join(text.split())


def check_tool_answers(vector: dict[str, Any], got: Replayed) -> None:
    """Boost's RecordRule answers: errors exit 2 with Boost's text first; successes say the same."""
    for op, boost, (code, out, err) in zip(vector.get("ops", []), vector["returns"], got.runs, strict=False):
        if len(op) < 4:
            continue
        if boost["is_error"]:
            assert code == 2, (op, boost, out)
            assert _collapse(err.removeprefix("rulelens: ")).startswith(_collapse(boost["text"])), (op, err)
        else:
            assert code == 0, (op, err)
            assert _collapse(out.splitlines()[0]) == _collapse(boost["text"].replace("{ROOT}", "")), (op, out)


def titles_kept(vector: dict[str, Any], got: Replayed, tmp: Path) -> None:
    """Loose comparison: every accepted op's entry and every seeded entry is in the tree, once each."""
    ours = [line for rel, data in got.tree.items() if rel != "index.md"
            for line in split_lines(data.decode("utf-8", "replace")) if line.startswith("## ")]
    wanted = [line for b64 in vector["seed_files"].values()
              for line in split_lines(base64.b64decode(b64).decode("utf-8", "replace")) if line.startswith("## ")]
    for op, (code, _out, err) in zip(vector.get("ops", []), got.runs, strict=False):
        if code == 0:
            title = " ".join(re.split(r"\r\n|\r|\n", op[1])).strip(" \t\n\r\0\x0b")
            wanted.append(f"## {title}")
        else:
            assert code == 2 and err.startswith("rulelens: ") and len(err.splitlines()) == 1, (op, err)
    for line in wanted:
        assert line.rstrip() in [o.rstrip() for o in ours], (line, ours)
        ours.remove(next(o for o in ours if o.rstrip() == line.rstrip()))
    if any(run[0] == 0 for run in got.runs):
        code, out, _ = _run(["--root", str(tmp / "project"), "index", "--check"])
        assert code == 0, out


VECTOR_LIST = load_vectors()
EXACT = [v for v in VECTOR_LIST if not deviations(v)]
LOOSE = [v for v in VECTOR_LIST if deviations(v)]


@pytest.mark.parametrize("vector", EXACT, ids=[v["name"] for v in EXACT])
def test_byte_exact_vectors_come_back_byte_for_byte(vector: dict[str, Any], tmp_path: Path) -> None:
    got = replay(vector, tmp_path)
    check_tool_answers(vector, got)
    refused = [op for op, run in zip(vector.get("ops", []), got.runs, strict=False) if run[0] != 0 and len(op) < 4]
    if refused:  # rulelens refuses what can never work (SPEC, issue on what agents see): loose
        titles_kept(vector, got, tmp_path)
        return
    assert got.tree == got.expected


@pytest.mark.parametrize("vector", LOOSE, ids=[v["name"] for v in LOOSE])
def test_deliberate_deviations_keep_every_entry(vector: dict[str, Any], tmp_path: Path) -> None:
    got = replay(vector, tmp_path)
    titles_kept(vector, got, tmp_path)


def test_the_vectors_are_all_replayed() -> None:
    assert len(EXACT) + len(LOOSE) == len(VECTOR_LIST) > 200
    assert len(EXACT) > 80
