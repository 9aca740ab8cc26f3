"""Gemini CLI's `@path` imports in a context file: which texts it takes for imports, and which
files they pull in.

A port of Gemini CLI's own reader (`findImports`, `findCodeRegions` and `processImports` in
packages/core/src/utils/memoryImportProcessor.ts, as @google/gemini-cli@0.61.0 ships it): an `@`
at the start of the text or after a space, tab or line break, followed by a path that starts
with `.`, `/` or an ASCII letter and runs to the next whitespace, outside any backtick span. Each
import's file is read in the importing file's place, and its own imports in turn, five levels
deep; an import that names no readable file inside the project is replaced by an "Import failed"
comment. With `context.importFormat: "flat"`, the files loaded at start are read another way
(`processFlat`): every depth, each file once, and a failed import left as written. Written by
hand: no library reads this syntax, which is Gemini CLI's own.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from rulelens.workspace.reads import Reads

CODE_SPAN = re.compile(r"(`+)([\s\S]*?)\1")
URL = re.compile(r"^(file|https?)://")
SPACE = " \t\n\r"
MAX_DEPTH = 5  # processImports' `maxDepth`: a file five imports down is read, its imports are not


@dataclass(frozen=True)
class Import:
    """One `@path` Gemini CLI reads as an import: where it is in the text, and the path."""

    start: int
    end: int
    path: str


def imports(text: str) -> list[Import]:
    """The imports Gemini CLI finds in `text`, in order (its `findImports`, less those inside a
    backtick span, which it keeps as text)."""
    found: list[Import] = []
    i, n = 0, len(text)
    while i < n:
        i = text.find("@", i)
        if i < 0:
            break
        if i > 0 and text[i - 1] not in SPACE:
            i += 1
            continue
        j = i + 1
        while j < n and text[j] not in SPACE:
            j += 1
        path = text[i + 1:j]
        if path and (path[0] in "./" or ("A" <= path[0] <= "Z") or ("a" <= path[0] <= "z")):
            found.append(Import(i, j, path))
        i = j + 1
    if not found:
        return found
    spans = [(m.start(), m.end()) for m in CODE_SPAN.finditer(text)]
    return [x for x in found if not any(s <= x.start < e for s, e in spans)]


def target(root: Path, importer: str, path: str, reads: Reads) -> tuple[str | None, str | None]:
    """The root-relative file an import in `importer` (root-relative) reads, or why Gemini CLI
    cannot read it: a path outside the project (which it refuses as path traversal), or no
    readable file there."""
    if URL.match(path):
        return None, "outside"
    base = root / posixpath.dirname(importer)
    full = Path(os.path.realpath(base / path))
    real_root = Path(os.path.realpath(root))
    if full != real_root and real_root not in full.parents:
        return None, "outside"
    if not reads.is_file(full) or not os.access(full, os.R_OK):
        return None, "missing"
    return full.relative_to(real_root).as_posix(), None


def imported(root: Path, rel: str, text: str, read: dict[str, str], reads: Reads,
             flat: bool = False, via: dict[str, str] | None = None) -> list[str]:
    """The files that importing `rel` (whose text is `text`) pulls in, at any depth Gemini CLI
    follows, in the order it reads them; `read` keeps the texts read, by file. `flat`: the
    `importFormat` Gemini CLI's "flat" reading follows imports with no depth limit. `via`, when
    given, gets each file's first importer and the import's 1-based line ("GEMINI.md:3")."""
    out: list[str] = []
    level = [(rel, text)]
    depth = 0
    while level and (flat or depth < MAX_DEPTH):
        depth += 1
        following: list[tuple[str, str]] = []
        for owner, body in level:
            for imp in imports(body):
                got, _why = target(root, owner, imp.path, reads)
                if got is None or got == rel or got in out:
                    continue
                if got not in read:
                    try:
                        read[got] = reads.read_text(root / got)
                    except OSError:
                        continue
                out.append(got)
                following.append((got, read[got]))
                if via is not None:
                    via[got] = f"{owner}:{body.count(chr(10), 0, imp.start) + 1}"
        level = following
    return out
