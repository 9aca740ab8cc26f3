"""`@path` imports in instruction files, as Claude Code, Qwen Code and Copilot CLI follow them:
which file each import names, and which files load with an importer, in the order the agent
sends them (which texts each takes for an import is `import_syntax`).

The three agents agree on the shape (an `@` and a path, relative to the importing file, not in
code, followed again in the imported file, each file once) and differ in the details, which are
data here (`Syntax`), each read from the agent's released code and run against its binary:
- Claude Code 2.1.337 (`tVr`, `oVr`, `ASt` and `lte` in its embedded JavaScript): the text
  tokens of its Markdown lexer, not code and not HTML comments, an `@` at a token's start or
  after whitespace, the path to the next whitespace, `#…` cut off; a file outside the project
  (`~/` too), a folder, a missing file, or one whose extension is not a text type is skipped;
  files four imports deep load, a fifth level does not.
- Qwen Code 0.24.4 (`findImports`, `findCodeRegions`, `processImports`): an `@` at the start or
  after whitespace, a path starting with `.`, `/` or a letter; five levels; a path outside the
  project becomes an `Import failed` comment, a missing file stays as written.
- Copilot CLI 1.0.102 (its native runtime; confirmed by running it): an `@` not after a letter,
  digit or one of `._%+-*[`, a path holding a `.` or `/`, trailing punctuation dropped, not in
  fenced code or a code span; no absolute, `~/` or outside path; eight levels; the imports of
  `.instructions.md` and `.claude/rules` files are not read.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rulelens.agents.import_syntax import Import, body_start, find_claude, find_copilot, find_qwen
from rulelens.agents.model import Load, Maybe
from rulelens.workspace.reads import Reads

Why = str  # "missing", "outside", "folder", "type", "absolute", "blank"


@dataclass(frozen=True)
class Syntax:
    """What one agent takes for an import and which files it lets load."""

    find: Callable[[str], list[Import]]
    depth: int  # the deepest import level that loads (1: only the importer's own imports)
    home: bool = False  # `~/` means the home folder (always outside the project here)
    absolute: bool = True  # an absolute path inside the project loads
    extensions: frozenset[str] | None = None  # the only extensions that load (lower-case); None: any
    drop_blank: bool = False  # a file with no text loads nothing, nor its imports


@dataclass(frozen=True)
class Imported:
    """A file that loads because another imports it: the importer and the import's line."""

    file: str
    importer: str
    line: int
    bytes: int

    @property
    def via(self) -> str:
        return f"{self.importer}:{self.line}"


_CLAUDE_TEXT = (
    ".md .txt .text .json .yaml .yml .toml .xml .csv .html .htm .css .scss .sass .less .js .ts .tsx .jsx "
    ".mjs .cjs .mts .cts .py .pyi .pyw .rb .erb .rake .go .rs .java .kt .kts .scala .c .cpp .cc .cxx .h "
    ".hpp .hxx .cs .swift .sh .bash .zsh .fish .ps1 .bat .cmd .env .ini .cfg .conf .config .properties "
    ".sql .graphql .gql .proto .vue .svelte .astro .ejs .hbs .pug .jade .php .pl .pm .lua .r .dart .ex "
    ".exs .erl .hrl .clj .cljs .cljc .edn .hs .lhs .elm .ml .mli .f .f90 .f95 .for .cmake .make .makefile "
    ".gradle .sbt .rst .adoc .asciidoc .org .tex .latex .lock .log .diff .patch")
CLAUDE_TEXT = frozenset(_CLAUDE_TEXT.split(" "))

CLAUDE_CODE = Syntax(find_claude, depth=4, home=True, extensions=CLAUDE_TEXT, drop_blank=True)
QWEN_CODE = Syntax(find_qwen, depth=5)
COPILOT_CLI = Syntax(find_copilot, depth=8, absolute=False)


# -- which file an import names, and what loads ---------------------------------------------------
def target(root: Path, importer: str, path: str, syntax: Syntax,
           reads: Reads) -> tuple[str | None, Why | None]:
    """The root-relative file an import in `importer` loads, or why it loads none."""
    if re.match(r"^(file|https?)://", path):
        return None, "outside"
    if path == "~" or path.startswith("~/"):
        if syntax.home:
            return None, "outside"  # the home folder: outside the project
    elif path.startswith("/") and not syntax.absolute:
        return None, "absolute"
    base = root / posixpath.dirname(importer)
    full = Path(os.path.realpath(base / path)) if not path.startswith("/") else Path(os.path.realpath(path))
    real_root = Path(os.path.realpath(root))
    if full != real_root and real_root not in full.parents:
        return None, "outside"
    if reads.is_dir(full):
        return None, "folder"
    if not reads.is_file(full) or not os.access(full, os.R_OK):
        return None, "missing"
    if syntax.extensions is not None:
        ext = posixpath.splitext(full.name)[1].lower()
        if ext and ext not in syntax.extensions:
            return None, "type"
    return full.relative_to(real_root).as_posix(), None


def imported(root: Path, rel: str, text: str, syntax: Syntax, reads: Reads, texts: dict[str, str],
             seen: set[str] | None = None) -> list[Imported]:
    """The files importing `rel` (whose text is `text`) loads, depth first in the order the
    agent sends them, each once; `seen` holds files already loaded (left out, and added to);
    `texts` keeps the texts read, by file."""
    seen = seen if seen is not None else set()
    seen.add(rel)
    out: list[Imported] = []

    def walk(owner: str, body: str, depth: int) -> None:
        if depth > syntax.depth or "@" not in body:
            return
        for imp in syntax.find(body):
            got, _why = target(root, owner, imp.path, syntax, reads)
            if got is None or got in seen:
                continue
            if got not in texts:
                try:
                    texts[got] = reads.read_text(root / got)
                except (OSError, UnicodeDecodeError):
                    continue
            child = texts[got]
            if syntax.drop_blank and not child[body_start(child):].strip():
                continue
            seen.add(got)
            out.append(Imported(got, owner, imp.line(body), len(child.encode("utf-8"))))
            walk(got, child, depth + 1)

    walk(rel, text, 1)
    return out


def broken(root: Path, rel: str, text: str, syntax: Syntax, reads: Reads) -> list[tuple[Import, Why]]:
    """Each import in `text` that loads no file, with why."""
    out: list[tuple[Import, Why]] = []
    for imp in syntax.find(text) if "@" in text else ():
        _, why = target(root, rel, imp.path, syntax, reads)
        if why is not None:
            out.append((imp, why))
    return out


class Follower:
    """One agent's imports in one project, each file's followed once and remembered."""

    def __init__(self, root: Path, reads: Reads, syntax: Syntax) -> None:
        self.root, self.reads, self.syntax = root, reads, syntax
        self.texts: dict[str, str] = {}
        self._of: dict[str, list[Imported]] = {}

    def of(self, rel: str, text: str) -> list[Imported]:
        """What importing `rel` loads (`imported`), remembered."""
        if rel not in self._of:
            self._of[rel] = (imported(self.root, rel, text, self.syntax, self.reads, self.texts)
                             if "@" in text else [])
        return self._of[rel]

    def broken(self, rel: str, text: str) -> list[tuple[Import, Why]]:
        return broken(self.root, rel, text, self.syntax, self.reads)


def with_imports(decided: Sequence[Load | Maybe], imports_of: Callable[[str], list[Imported]],
                 carriers: Sequence[tuple[int, str]] = ()) -> list[Load | Maybe]:
    """`decided` with each loaded file's imports right after it, loaded as it is and marked with
    the importer's line (`Load.via`); each file once, where it first loads. `carriers`: files
    that do not load themselves but whose imports load at start, each with the place in
    `decided` it holds (Claude Code's conditional rules)."""
    out: list[Load | Maybe] = []
    seen: set[str] = set()
    extra: dict[int, list[str]] = {}
    for at, rel in carriers:
        extra.setdefault(at, []).append(rel)

    def follow(rel: str, how: str) -> None:
        for imp in imports_of(rel):
            if imp.file not in seen:
                seen.add(imp.file)
                out.append(Load(imp.file, how, (), imp.bytes, imp.via))  # type: ignore[arg-type]

    for i, d in enumerate([*decided, None]):
        for rel in extra.get(i, ()):
            follow(rel, "always")
        if d is None:
            break
        if isinstance(d, Load):
            if d.file in seen:
                continue
            seen.add(d.file)
            out.append(d)
            follow(d.file, d.how)
        else:
            out.append(d)
    return out


def named_file(importer: str, path: str) -> str:
    """The root-relative path an import names, for a message (not resolved on disk)."""
    if path.startswith(("/", "~")):
        return path
    return posixpath.normpath(posixpath.join(posixpath.dirname(importer), path))
