"""Applying a finding's fix (`rules/model.py`'s `Fix`) to the project's files: each file's edits
from its last to its first, so earlier spans keep their place, then one atomic write per file."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from rulelens.rules.model import Edit, Fix, RuleError
from rulelens.rules.write.atomic import ensure_inside, write_atomic


def edited(text: str, edits: Iterable[Edit]) -> str:
    """`text` with `edits` made; a RuleError when a span no longer holds what it held."""
    lines = text.splitlines(keepends=True)
    for e in sorted(edits, key=lambda e: (e.line, e.col), reverse=True):
        if e.line > len(lines):
            raise RuleError(f"{e.file} changed since it was checked (line {e.line + 1} is gone).")
        line = lines[e.line] if e.line < len(lines) else ""
        if line[e.col:e.end_col] != e.expect:
            raise RuleError(f"{e.file} changed since it was checked (line {e.line + 1}).")
        text = e.text.replace("\n", "\r\n") if line.endswith("\r\n") else e.text  # the file's own breaks
        if e.line < len(lines):
            lines[e.line] = line[:e.col] + text + line[e.end_col:]
        else:
            lines.append(text)
    return "".join(lines)


def apply_fixes(root: Path, fixes: Iterable[Fix]) -> list[str]:
    """Make every fix's edits; the files written, root-relative, sorted. Every file's new text is
    made before any is written, so a changed file stops the run before it writes anything."""
    by_file: dict[str, list[Edit]] = {}
    for fix in fixes:
        for e in fix.edits:
            by_file.setdefault(e.file, []).append(e)
    texts: dict[str, str] = {}
    for rel, edits in sorted(by_file.items()):
        try:
            raw = (root / rel).read_bytes()
        except OSError as exc:
            raise RuleError(f"Cannot read {rel} to fix it: {exc.strerror or exc}.") from None
        try:
            texts[rel] = edited(raw.decode("utf-8"), edits)
        except UnicodeDecodeError:
            raise RuleError(f"{rel} is not UTF-8 text; rulelens leaves it alone.") from None
    for rel in texts:
        ensure_inside(root / rel, root)  # a link or a path outside: refused before anything is written
    for rel, text in texts.items():
        write_atomic(root / rel, text.encode("utf-8"), root)
    return sorted(texts)
