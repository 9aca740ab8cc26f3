"""Read a rule file two ways (docs/format.md §1): strictly as Boost does, and leniently for people.

PyYAML with strict_yaml's loader does the strict load (Boost reads with a strict parser too),
imported only when a frontmatter is parsed that simple_yaml declines, and simple_yaml only when a
frontmatter is parsed at all: a FrontmatterCache answers for unchanged ones. The delimiter scan
is ours because we need line positions for diagnostics and for rewriting the `paths` block in
place.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from rulelens.rules.model import Entry, GlobItem, Problem, RuleFile

if TYPE_CHECKING:
    from rulelens.rules.format.yaml_cache import FrontmatterCache

BOM = b"\xef\xbb\xbf"
_DELIMITER = re.compile(r"---[ \t]*")
_KEY = re.compile(r"[^\s#-][^:]*:(\s|$)")
_PATHS_KEY = re.compile(r"paths[ \t]*:[ \t]*(.*)$")
_ITEM = re.compile(r"([ \t]*)-[ \t]+(.*)$|([ \t]*)-$")
MAX_BYTES = 2 * 1024 * 1024


@dataclass(frozen=True)
class PathsBlock:
    """Where the `paths` key and its items sit: lines [start, end) within the file."""

    start: int
    end: int


@dataclass(frozen=True)
class Frontmatter:
    """The lines where a frontmatter opens and closes, and the text between them."""

    open_line: int
    close_line: int
    body: str


_BREAK = re.compile(r"\r\n|\r|\n")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def split_lines(text: str) -> list[str]:
    """Lines without their endings, as editors number them: only CR, LF and CRLF end a line.

    (`str.splitlines` also breaks at form feeds, U+2028 and others, which would shift every
    line number after them against the editor's and the agent's view.)
    """
    lines = _BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def split_keepends(text: str) -> list[str]:
    """The same lines with their endings, so that joining them gives the text back."""
    return _LINE.findall(text)


def find_frontmatter(lines: list[str]) -> tuple[Frontmatter | None, str | None]:
    """The frontmatter span, or an error when it opens and never closes."""
    first = 0
    while first < len(lines) and not lines[first].strip():
        first += 1
    if first >= len(lines) or not _DELIMITER.fullmatch(lines[first].lstrip()):
        return None, None
    for i in range(first + 1, len(lines)):
        if _DELIMITER.fullmatch(lines[i]):
            return Frontmatter(first, i, "\n".join(lines[first + 1 : i])), None
    return None, "The frontmatter opens with `---` but has no closing `---` line."


def strict_paths(data: Any) -> tuple[list[str], str | None]:
    """`paths` as Boost takes it: a list of strings or one string; other items dropped.

    A mapping is a PHP array too, so Boost takes its string values, in order.
    """
    if not isinstance(data, dict) or "paths" not in data:
        return [], None
    value = data["paths"]
    if value is None:
        return [], None
    if isinstance(value, str):
        return [value], None
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        kept = [v for v in value if isinstance(v, str)]
        if len(kept) != len(value):
            return kept, "`paths` has items that are not strings; they are ignored."
        return kept, None
    return [], "`paths` must be a list of globs or a single glob."


def unquote(raw: str) -> str:
    """A YAML scalar's text without its quotes, forgiving of what strict YAML rejects."""
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] == "'":
        return raw[1:-1].replace("''", "'")
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        if "\\" not in raw[1:-1] and '"' not in raw[1:-1]:
            return raw[1:-1]  # no escape: YAML's value is the text between the quotes
        import yaml

        try:
            loaded = yaml.safe_load(raw)
            if isinstance(loaded, str):
                return loaded
        except yaml.YAMLError:
            pass
        return raw[1:-1]
    return re.sub(r"\s+#.*$", "", raw)


def scan_paths(lines: list[str], fm: Frontmatter,
               key: str = "paths") -> tuple[PathsBlock | None, list[GlobItem]]:
    """Find the `paths` block (or another top-level key's) line by line, so positions survive
    invalid YAML."""
    pattern = _PATHS_KEY if key == "paths" else re.compile(re.escape(key) + r"[ \t]*:[ \t]*(.*)$")
    for i in range(fm.open_line + 1, fm.close_line):
        m = pattern.match(lines[i])
        if not m:
            continue
        items: list[GlobItem] = []
        rest = m.group(1)
        rest_col = m.start(1)
        if rest.strip() and not rest.lstrip().startswith("#"):
            items.extend(_inline_items(rest, i, rest_col))
            end = i + 1
            if rest.lstrip().startswith("[") and "]" not in rest:
                while end < fm.close_line and "]" not in lines[end - 1]:
                    items.extend(_inline_items(lines[end], end, 0))
                    end += 1
            return PathsBlock(i, end), items
        end = i + 1
        while end < fm.close_line:
            line = lines[end]
            item = _ITEM.match(line)
            if item:
                if item.group(2) is not None and item.group(2).strip():
                    raw = item.group(2)
                    text = unquote(raw)
                    col = item.start(2)
                    items.append(GlobItem(text, end, col, col + len(raw.rstrip())))
                end += 1
                continue
            if not line.strip() or line.lstrip().startswith("#"):
                end += 1
                continue
            if line[:1] in (" ", "\t"):  # a nested value: list items, or a mapping's entries
                end += 1
                continue
            break
        while end - 1 > i and not lines[end - 1].strip():
            end -= 1
        return PathsBlock(i, end), items
    return None, []


def _inline_items(text: str, line: int, offset: int) -> list[GlobItem]:
    body = text
    start = 0
    stripped = body.strip()
    if stripped.startswith("["):
        start = body.index("[") + 1
        end = body.rfind("]")
        body = body[: end if end >= start else len(body)]
    else:
        return [GlobItem(unquote(stripped), line, offset + body.index(stripped[0]),
                         offset + len(body.rstrip()))] if stripped else []
    items = []
    pos = start
    for piece in _split_flow(body[start:]):
        raw = piece.strip()
        if raw:
            col = body.index(raw, pos)
            items.append(GlobItem(unquote(raw), line, offset + col, offset + col + len(raw)))
            pos = col + len(raw)
    return items


def _split_flow(body: str) -> list[str]:
    # Commas inside quotes or braces belong to the glob, not to the YAML flow list.
    parts, cur, quote, depth = [], [], "", 0
    for ch in body:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
            cur.append(ch)
        elif ch == "{":
            depth += 1
            cur.append(ch)
        elif ch == "}":
            depth = max(0, depth - 1)
            cur.append(ch)
        elif ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def read_entries(lines: list[str], start: int) -> tuple[str | None, int | None, list[Entry]]:
    """The `# Heading` and the `## Title` entries after the frontmatter."""
    heading: str | None = None
    heading_line: int | None = None
    entries: list[Entry] = []
    title: str | None = None
    title_line = 0
    for i in range(start, len(lines)):
        line = lines[i]
        if line.startswith("## ") or line.rstrip() == "##":
            if title is not None:
                entries.append(_entry(lines, title, title_line, i))
            title, title_line = line[3:].strip(), i
        elif heading is None and title is None and (line.startswith("# ") or line.rstrip() == "#"):
            heading, heading_line = line[2:].strip(), i
    if title is not None:
        entries.append(_entry(lines, title, title_line, len(lines)))
    return heading, heading_line, entries


def _entry(lines: list[str], title: str, line: int, end: int) -> Entry:
    note = "\n".join(lines[line + 1 : end]).strip()
    return Entry(title, line, end, note)


def decode(raw: bytes) -> tuple[str, str | None]:
    """UTF-8 text (BOM dropped); invalid bytes are replaced and reported, never fatal."""
    if b"\x00" in raw[:8192]:
        return "", "This file looks binary (it contains NUL bytes); it is not read as a rule file."
    try:
        text = raw.decode("utf-8")
        problem = None
    except UnicodeDecodeError as exc:
        text = raw.decode("utf-8", errors="replace")
        problem = f"This file is not valid UTF-8 (byte {exc.start}); rulelens will not rewrite it."
    return text.removeprefix("\ufeff"), problem


def read_at_most(handle: BinaryIO, limit: int) -> bytes:
    """What `handle.read(limit)` gives, without allocating `limit` bytes first: for a rule file
    of a few hundred bytes and a 2 MiB limit, that allocation (a fresh mapping and its page
    faults) costs several times the read. It reads the size the file has, one byte more to see
    whether it grew meanwhile, and only then the rest up to `limit`."""
    try:
        size = os.fstat(handle.fileno()).st_size
    except (OSError, ValueError, AttributeError):  # not a file with a descriptor
        return handle.read(limit)
    first = min(size + 1, limit)
    data = handle.read(first)
    if len(data) < first or len(data) >= limit:  # the end of the file, or the limit
        return data
    return data + handle.read(limit - len(data))


def strict_load(source: str) -> Any:
    """The frontmatter as Boost's parser reads it (strict_yaml.py); PyYAML's errors propagate.
    A frontmatter of the simple shape nearly all have is read without PyYAML (simple_yaml.py)."""
    from rulelens.rules.format import simple_yaml

    simple = simple_yaml.load(source)
    if simple is not None:
        return simple
    import yaml

    from rulelens.rules.format import strict_yaml

    return yaml.load(source, Loader=strict_yaml.SymfonyLoader)  # a SafeLoader


def read_rule_file(path: Path, rel: str, is_boost: bool, raw: bytes | None = None,
                   cache: FrontmatterCache | None = None) -> RuleFile:
    """Read one rule file; every defect becomes a Problem on the file, never an exception.
    `cache` answers for a frontmatter parsed in an earlier run."""
    problems: list[Problem] = []

    def problem(line: int, severity: str, code: str, message: str, col: int = 0,
                end_col: int | None = None) -> None:
        problems.append(Problem(rel, line, severity, code, message, col, end_col))  # type: ignore[arg-type]

    if raw is None:
        try:
            with path.open("rb") as handle:
                raw = read_at_most(handle, MAX_BYTES + 1)
        except OSError as exc:
            raw = b""
            problem(0, "error", "file-unreadable", f"Cannot read this rule file: {exc.strerror}.")
    if len(raw) > MAX_BYTES:
        raw = raw[:MAX_BYTES]
        problem(0, "error", "file-too-large",
                f"This rule file is larger than {MAX_BYTES // (1024 * 1024)} MiB; only its start is "
                "read, and rulelens will not rewrite it.")
    text, decode_problem = decode(raw)
    if decode_problem:
        code = "file-binary" if "binary" in decode_problem else "encoding-invalid"
        problem(0, "error", code, decode_problem)
    lines = split_lines(text)
    fm, fm_error = find_frontmatter(lines)
    strict: list[str] = []
    lenient: list[str] = []
    items: list[GlobItem] = []
    strict_ok = True
    if fm_error:
        strict_ok = False
        problem(0, "error", "frontmatter-invalid", fm_error + " Agents see no paths for this file.")
    if fm is not None:
        _block, items = scan_paths(lines, fm)
        try:
            if not fm.body.strip():
                data = {}
            else:
                data = cache.parse("symfony", fm.body, strict_load) if cache else strict_load(fm.body)
        except Exception as exc:  # any loader error, whatever PyYAML's version raises
            strict_ok = False
            data = None
            _report_yaml_error(exc, fm, items, problem)
        if strict_ok and raw.startswith(BOM):
            # Boost's frontmatter pattern needs `---` at the very start: a BOM hides it.
            strict_ok = False
            lenient = [i.text for i in items]
            problem(fm.open_line, "error", "frontmatter-bom",
                    "This file starts with a byte order mark (BOM), so Boost reads no frontmatter and "
                    "agents see no paths for it; save it as UTF-8 without BOM.")
        elif strict_ok:
            if data is not None and not isinstance(data, dict):
                problem(fm.open_line, "error", "frontmatter-invalid",
                        "The frontmatter is not a mapping of keys; agents see no paths for this file.")
            strict, paths_problem = strict_paths(data)
            if paths_problem:
                line = _block.start if _block else fm.open_line
                problem(line, "error", "paths-invalid", paths_problem)
            lenient = list(strict)
            items = _align(items, strict)
        else:
            lenient = [i.text for i in items]
    heading, heading_line, entries = read_entries(lines, fm.close_line + 1 if fm else 0)
    return RuleFile(
        path=path, rel=rel, text=text, is_boost=is_boost, heading=heading,
        heading_line=heading_line, entries=entries, strict_paths=strict, lenient_paths=lenient,
        glob_items=items, frontmatter_lines=(fm.open_line, fm.close_line) if fm else None,
        strict_ok=strict_ok and not fm_error, problems=problems,
    )


def _align(items: list[GlobItem], values: list[str]) -> list[GlobItem]:
    """Positions for the strict values: the scanned item of the same text, else the scan's slot."""
    if [i.text for i in items] == values:
        return items
    out = []
    for n, value in enumerate(values):
        same = next((i for i in items if i.text == value), None)
        if same is None and n < len(items):
            same = GlobItem(value, items[n].line, items[n].start_col, items[n].end_col)
        if same is not None:
            out.append(same)
    return out


def _report_yaml_error(exc: BaseException, fm: Frontmatter, items: list[GlobItem],
                       problem: Any) -> None:
    from rulelens.rules.format import strict_yaml
    from rulelens.rules.format.yaml_words import explain

    said = explain(exc, fm.body)
    line = fm.open_line + 1 + said.line
    reason, hint = said.words, ""
    bad = next((i for i in items if i.line == line), None)
    if isinstance(exc, strict_yaml.StrictYamlError):
        bad = None
        reason = str(getattr(exc, "problem", None) or reason)
        if "duplicate" in reason:
            hint = " Keep one of the keys."
    elif said.quote is not None:
        hint = f" Quote it: '{said.quote}'." if bad is None else f" Quote the glob: - '{said.quote}'."
    # What `match` then uses: the globs read line by line, as written (a broken one stays broken).
    read = [i.text.strip() for i in items if i.text.strip()]
    shown = ", ".join(f"`{g}`" for g in read[:3]) + (f" and {len(read) - 3} more" if len(read) > 3 else "")
    still = (f"; until it is fixed, `rulelens match` reads its globs as written ({shown})" if read else
             "; `rulelens match` reads no globs from it either")
    problem(line, "error", "frontmatter-invalid",
            f"Invalid YAML frontmatter ({reason}): agents (and Boost's index) see no paths for this "
            f"file{still}.{hint}",
            bad.start_col if bad else 0, bad.end_col if bad else None)
