"""The `@path` imports of Claude Code, Qwen Code and Copilot CLI as text: where each agent's
Markdown reading sees code (no import there), and which `@…` words each takes for an import, read
from its released code and seen from its binary (agents/imports.py says what they load). Written
by hand: no library reads these syntaxes, which are each agent's own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


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


def body_start(text: str) -> int:
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
    body = body_start(text)
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


def span(text: str, imp: Import) -> tuple[int, int, int]:
    """The import's 0-based line and its columns, for a finding."""
    line = text.count("\n", 0, imp.start)
    col = imp.start - (text.rfind("\n", 0, imp.start) + 1)
    return line, col, col + imp.end - imp.start
