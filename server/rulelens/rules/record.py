"""Recording one rule (SPEC §3): validation, target choice and the text edits Boost makes."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rulelens.rules.model import RuleError, RuleFile
from rulelens.rules.naming import area_key, candidate_names, headline
from rulelens.rules.reading import find_frontmatter, scan_paths, split_keepends, split_lines
from rulelens.rules.yaml_style import paths_block

MAX_GLOB = 1000
TextOf = Callable[[Path], "str | None"]
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f]")
_OPENS_ENTRY = re.compile(r"^(#{1,2}) ")


@dataclass(frozen=True)
class Rule:
    glob: str
    title: str
    note: str


def validate(glob: str, title: str, note: str, root: Path) -> Rule:
    """Trim, check and normalise a record request; raise RuleError with Boost's wording."""
    glob, title, note = glob.strip(), title.strip(), note.strip()
    title = _LINE_BREAK.sub(" ", title)
    missing = [n for n, v in (("glob", glob), ("title", title), ("note", note)) if not v]
    if missing:
        raise RuleError(
            "A rule needs a non-empty glob, title, and note. "
            f"Missing or empty: {', '.join(missing)}."
        )
    return Rule(normalise_glob(glob, root), title, note)


def normalise_glob(glob: str, root: Path) -> str:
    """Root-relative form of a glob; refuses what can never match a file of the project."""
    if "\x00" in glob or _CONTROL.search(glob):
        raise RuleError("A glob cannot contain NUL, line breaks or other control characters.")
    if len(glob) > MAX_GLOB:
        raise RuleError(f"A glob can be at most {MAX_GLOB} characters long (got {len(glob)}).")
    root_text = root.as_posix().rstrip("/")
    if glob == root_text or glob.startswith(root_text + "/"):
        glob = glob[len(root_text) :]
    elif glob.startswith("/") and _outside_root(glob, root):
        raise RuleError(
            f"The glob {glob} names a path outside the project root {root}; "
            "write it relative to the root."
        )
    glob = glob.lstrip("/")
    if glob.startswith("./"):
        glob = glob[2:]
    if ".." in glob.split("/"):
        raise RuleError(f"The glob {glob} has a `..` segment and can never match a project file.")
    if not glob:
        raise RuleError("The glob names the project root itself; use `**` for every file.")
    return glob


def _outside_root(glob: str, root: Path) -> bool:
    # `/routes/*.php` is Boost's root anchor; `/etc/passwd` is an absolute path elsewhere.
    first = glob.lstrip("/").split("/", 1)[0]
    if not first or any(c in first for c in "*?[{"):
        return False
    return Path("/" + first).exists() and not (root / first).exists()


def choose_target(glob: str, files: Sequence[RuleFile]) -> RuleFile | None:
    """First root rule file (by name bytes) holding the glob or a glob of the same area."""
    key = area_key(glob)
    for f in sorted((f for f in files if not f.is_boost), key=lambda f: f.path.name.encode()):
        if glob in f.strict_paths or any(area_key(p) == key for p in f.strict_paths):
            return f
    return None


def new_file_name(glob: str, taken: set[str]) -> str:
    """`<name>.md` for a new file: the first free candidate, else the last with -2, -3, …"""
    names = candidate_names(glob)
    for name in names:
        if name != "index" and f"{name}.md" not in taken:
            return name
    last = names[-1]
    n = 2
    while f"{last}-{n}.md" in taken:
        n += 1
    return f"{last}-{n}"


def newline_of(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def new_file_text(name: str, glob: str) -> str:
    return f"---\n{paths_block([glob])}---\n\n# {headline(name)}\n"


def with_glob(text: str, globs: list[str]) -> str:
    """The file with its `paths` block rewritten Boost-style; everything else kept as it was."""
    nl = newline_of(text)
    lines = split_lines(text)
    fm, _ = find_frontmatter(lines)
    if fm is None:
        raise RuleError("Cannot add a glob to a rule file without frontmatter.")
    block, _ = scan_paths(lines, fm)
    start, end = (block.start, block.end) if block else (fm.close_line, fm.close_line)
    kept = split_keepends(text)
    rebuilt = paths_block(globs, nl)
    return "".join(kept[:start]) + rebuilt + "".join(kept[end:])


def escape_note(note: str, nl: str) -> str:
    """Note lines that would open an entry or a title get a backslash; line ends follow the file."""
    lines = _LINE_BREAK.split(note)
    return nl.join(_OPENS_ENTRY.sub(r"\\\1 ", line) for line in lines)


def with_entry(text: str, title: str, note: str) -> tuple[str, int]:
    """The file with `## title` and its note appended; returns the 0-based heading line."""
    nl = newline_of(text) if text else "\n"
    body = text.rstrip("\r\n")
    head = body + nl + nl
    line = len(split_lines(head)) if body else 2
    return head + f"## {title}{nl}{escape_note(note, nl)}{nl}", line
