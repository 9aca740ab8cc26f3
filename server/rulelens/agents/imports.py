"""`@path` imports in instruction files, as Claude Code, Qwen Code and Copilot CLI follow them:
which texts each takes for an import, which file each names, and which files load with an
importer, in the order the agent sends them.

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
  fenced code or a code span; no absolute, `~/` or outside path; eight levels.
Written by hand: no library reads these syntaxes, which are each agent's own.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rulelens.agents.model import Load, Maybe
from rulelens.workspace.reads import Reads

Why = str  # "missing", "outside", "folder", "type", "absolute", "blank"


@dataclass(frozen=True)
class Import:
    """One `@path` an agent reads as an import: its place in the text and the path as written."""

    start: int  # the `@`
    end: int  # after the path as written
    path: str  # the path the agent resolves (fragment, escapes and trailing punctuation gone)

    def line(self, text: str) -> int:
        """The 1-based line of the `@`."""
        return text.count("\n", 0, self.start) + 1

    def column(self, text: str) -> int:
        return self.start - (text.rfind("\n", 0, self.start) + 1)


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


# -- where code is, as the agents' Markdown readers see it --------------------------------------
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SPAN = re.compile(r"(`+)(?!`)([\s\S]*?[^`])\1(?!`)")
_COMMENT = re.compile(r"<!--[\s\S]*?-->")


_BLOCK_NAMES = (
    "address article aside base basefont blockquote body caption center col colgroup dd details dialog dir "
    "div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html "
    "iframe legend li link main menu menuitem nav noframes ol optgroup option p param search section "
    "summary table tbody td tfoot th thead title tr track ul")
_BLOCK_TAGS = frozenset(_BLOCK_NAMES.split(" "))
_HTML_START = re.compile(r"^ {0,3}</?([A-Za-z][A-Za-z0-9-]*)(?=[\s/>]|$)")
_HTML_ALONE = re.compile(
    r"^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[^<>]*)?/?>|</[A-Za-z][A-Za-z0-9-]*\s*>)\s*$")


def _html_block(line: str, blank_before: bool) -> bool:
    """Whether `line` opens an HTML block that runs to the next blank line (CommonMark's kinds 6
    and 7: a block-level tag, or any tag alone on its line where no paragraph goes on)."""
    m = _HTML_START.match(line)
    if m is None:
        return False
    return m.group(1).lower() in _BLOCK_TAGS or (blank_before and bool(_HTML_ALONE.match(line)))


def code_regions(text: str, indented: bool = True, comments: bool = False,
                 html: bool = False) -> list[tuple[int, int]]:
    """Where `text` holds code (fenced blocks, `indented` blocks, code spans) and, with
    `comments`, HTML comments, with `html`, HTML blocks: an `@` there is text, not an import."""
    regions: list[tuple[int, int]] = []
    pos = 0
    fence: str | None = None
    start = 0
    blank_before = True
    in_code = False
    in_html = False
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if in_html:
            if stripped:
                regions.append((pos, pos + len(line)))
            else:
                in_html = False
        elif html and fence is None and not in_code and _html_block(line, blank_before):
            regions.append((pos, pos + len(line)))
            in_html = True
        elif fence is not None:
            if stripped.startswith(fence) and stripped.strip(fence[0]) == "":
                regions.append((start, pos + len(line)))
                fence = None
                stripped = ""  # no paragraph goes on: an indented block may follow
        else:
            m = _FENCE.match(line)
            if m:
                fence, start = m.group(1), pos
            elif stripped.startswith("#"):
                stripped = ""  # a heading: no paragraph goes on after it
            elif indented and stripped and (line.startswith("    ") or line.startswith("\t")) and (
                    blank_before or in_code):
                regions.append((pos, pos + len(line)))
                in_code = True
            elif stripped:
                in_code = False
        blank_before = not stripped
        pos += len(line)
    if fence is not None:
        regions.append((start, len(text)))
    outside = _outside(text, regions)
    for lo, hi in outside:
        chunk = text[lo:hi]
        if "`" in chunk:
            regions.extend((lo + m.start(), lo + m.end()) for m in _SPAN.finditer(chunk))
        if comments and "<!--" in chunk:
            regions.extend((lo + m.start(), lo + m.end()) for m in _COMMENT.finditer(chunk))
    return regions


def _outside(text: str, regions: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out, at = [], 0
    for lo, hi in sorted(regions):
        if lo > at:
            out.append((at, lo))
        at = max(at, hi)
    if at < len(text):
        out.append((at, len(text)))
    return out


def _inside(regions: list[tuple[int, int]], at: int) -> bool:
    return any(lo <= at < hi for lo, hi in regions)


def _body_start(text: str) -> int:
    """Where the text after a YAML frontmatter starts (0 without one)."""
    if not text.startswith("---"):
        return 0
    m = re.match(r"---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)", text)
    return m.end() if m else 0


# -- each agent's syntax ------------------------------------------------------------------------
_CLAUDE_PATH = re.compile(r"[^\s\\]+")
_CLAUDE_OK = re.compile(r"^(?:\./|~/|/(?!$)|(?!@)(?![#%^&*()]+)[a-zA-Z0-9._-])")


def find_claude(text: str) -> list[Import]:
    """Claude Code's imports: in its Markdown lexer's text tokens (not code, not HTML blocks
    such as Boost's `<laravel-boost-guidelines>` line up to the next blank line, not inside HTML
    comments, not in the frontmatter), an `@` at a token's start (after whitespace,
    or right after an emphasis or link opening: `**@a.md**`), not escaped (`\\@`), the path to
    the next whitespace or backslash, `#…` cut off; kept when it starts `./`, `~/`, `/`, or a
    letter, digit, `.`, `_` or `-`."""
    found: list[Import] = []
    body = _body_start(text)
    regions: list[tuple[int, int]] | None = None
    i = text.find("@", body)
    while i >= 0:
        prev = text[i - 1] if i > body else " "
        opener = ""
        if not prev.isspace():
            j = i
            while j > body and text[j - 1] in "*_[":
                j -= 1
            before = text[j - 1] if j > body else " "
            opener = text[j:i]
            if not opener or not before.isspace() or (j > 0 and text[j - 1] == "\\"):
                i = text.find("@", i + 1)
                continue
        m = _CLAUDE_PATH.match(text, i + 1)
        if m is None:
            i = text.find("@", i + 1)
            continue
        path = m.group(0)
        if opener and opener != "[":
            path = path.removesuffix(opener)
        elif opener == "[":
            path = path.partition("]")[0]
        path = path.partition("#")[0]
        if regions is None:
            regions = code_regions(text, indented=True, comments=True, html=True)
        if path and _CLAUDE_OK.match(path) and not _inside(regions, i):
            found.append(Import(i, m.end(), path))
        i = text.find("@", m.end())
    return found


def find_qwen(text: str) -> list[Import]:
    """Qwen Code's imports (its `findImports`): an `@` at the start or after a space, tab or
    line break, the path to the next one, starting with `.`, `/` or an ASCII letter; not in code
    (`findCodeRegions`: fenced and indented blocks, code spans)."""
    found: list[Import] = []
    regions: list[tuple[int, int]] | None = None
    i, n = text.find("@"), len(text)
    while i >= 0:
        if i > 0 and text[i - 1] not in " \t\n\r":
            i = text.find("@", i + 1)
            continue
        j = i + 1
        while j < n and text[j] not in " \t\n\r":
            j += 1
        path = text[i + 1:j]
        if path and (path[0] in "./" or ("A" <= path[0] <= "Z") or ("a" <= path[0] <= "z")):
            if regions is None:
                regions = code_regions(text, indented=True)
            if not _inside(regions, i):
                found.append(Import(i, j, path))
        i = text.find("@", j + 1) if j + 1 < n else -1
    return found


_COPILOT_BEFORE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._%+-*[")
_COPILOT_TRAILING = ".,;:!?)]}\"'>`"


def find_copilot(text: str) -> list[Import]:
    """Copilot CLI's imports, as its binary takes them: an `@` not right after a letter, digit
    or one of `._%+-*[`, the path to the next whitespace less trailing punctuation (`.,;:!?)]}"'>`
    and backticks), holding a `.` or a `/`; not in fenced code or a code span (an indented
    block and an HTML comment are read)."""
    found: list[Import] = []
    regions: list[tuple[int, int]] | None = None
    i, n = text.find("@"), len(text)
    while i >= 0:
        if i > 0 and text[i - 1] in _COPILOT_BEFORE:
            i = text.find("@", i + 1)
            continue
        j = i + 1
        while j < n and not text[j].isspace():
            j += 1
        path = text[i + 1:j].rstrip(_COPILOT_TRAILING)
        if path and ("." in path or "/" in path) and path.strip("./"):
            if regions is None:
                regions = code_regions(text, indented=False)
            if not _inside(regions, i):
                found.append(Import(i, i + 1 + len(path), path))
        i = text.find("@", j)
    return found


# Claude Code's text extensions (`zKr`): an import of another extension is skipped.
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
            if syntax.drop_blank and not child[_body_start(child):].strip():
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


_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,10}$")


def looks_like_file(path: str) -> bool:
    """Whether an import's path reads as a file's (`docs/a.md`, `./x`, `.ai/rules/`), not as a
    handle, a decorator or a package (`@taylor`, `@Injectable()`, `@types/node`, `@vue/cli.`):
    only those are worth a finding. Read on 77 real repositories, where scoped npm packages were
    most of the imports that name no file."""
    if "(" in path or ")" in path:
        return False
    if path.startswith(("./", "../", "~/", "/")) or path.endswith("/") or re.match(r"\.[A-Za-z]", path):
        return True
    return bool(_EXTENSION.search(path.rstrip("/").rpartition("/")[2]))


def named_file(importer: str, path: str) -> str:
    """The root-relative path an import names, for a message (not resolved on disk)."""
    if path.startswith(("/", "~")):
        return path
    return posixpath.normpath(posixpath.join(posixpath.dirname(importer), path))


def span(text: str, imp: Import) -> tuple[int, int, int]:
    """The import's 0-based line and its columns, for a finding."""
    line = text.count("\n", 0, imp.start)
    col = imp.start - (text.rfind("\n", 0, imp.start) + 1)
    return line, col, col + imp.end - imp.start
