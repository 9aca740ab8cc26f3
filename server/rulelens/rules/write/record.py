"""Recording one rule (docs/format.md §3): validation, target choice and the text edits Boost makes."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rulelens.glob_engines.boost import malformed_reason
from rulelens.rules.format.naming import area_key, candidate_names, headline
from rulelens.rules.format.reading import find_frontmatter, scan_paths, split_keepends, split_lines
from rulelens.rules.format.yaml_style import paths_block
from rulelens.rules.model import RuleError, RuleFile

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
    notes: tuple[str, ...] = ()


# PHP's trim() strips exactly these; Python's str.strip() would also eat U+00A0, U+2028, ….
PHP_TRIM = " \t\n\r\0\x0b"
MISSING = "A rule needs a non-empty glob, title, and note. Missing or empty: {}."


def validate(glob: str, title: str, note: str, root: Path) -> Rule:
    """Trim, check and normalise a record request; raise RuleError with Boost's wording."""
    title = _LINE_BREAK.sub(" ", title).strip(PHP_TRIM)
    glob, note = glob.strip(PHP_TRIM), note.strip(PHP_TRIM)
    given = glob
    if glob:
        glob = normalise_glob(glob, root)
    missing = [n for n, v in (("glob", glob), ("title", title), ("note", note)) if not v]
    if missing:
        hint = ""
        if given and not glob:
            hint = " The glob names the project root itself; use `**` for every file."
        raise RuleError(MISSING.format(", ".join(missing)) + hint)
    refuse_malformed(glob)
    return Rule(glob, title, note, widening_notes(given, glob))


def normalise_glob(glob: str, root: Path) -> str:
    """Root-relative form of a glob, as Boost's record tool makes it; refuses what never matches.

    A leading `/` is the root anchor and is dropped whatever exists on this machine; the root's
    own absolute path (with its slash) is cut off; `./` stays as written.
    """
    if "\x00" in glob or _CONTROL.search(glob):
        raise RuleError("A glob cannot contain NUL, line breaks or other control characters.")
    if len(glob) > MAX_GLOB:
        raise RuleError(f"A glob can be at most {MAX_GLOB} characters long (got {len(glob)}).")
    base = root.as_posix().rstrip("/") + "/"
    if glob.startswith(base):
        glob = glob[len(base) :]
    glob = glob.lstrip("/")
    if ".." in glob.split("/"):
        raise RuleError(f"The glob {glob} has a `..` segment and can never match a project file.")
    return glob


def refuse_malformed(glob: str) -> None:
    """Globs that can never work as written: unbalanced brackets or braces, empty alternatives."""
    problem = malformed_reason(glob)
    if problem is not None:
        raise RuleError(f"The glob {glob} is malformed: {problem}.")


def widening_notes(given: str, glob: str) -> tuple[str, ...]:
    """Say when dropping the root anchor turned a root-only name into a name at any depth."""
    body = glob.rstrip("/")
    if given.lstrip(PHP_TRIM).startswith("/") and "/" not in body and body not in ("*", "**"):
        return (f"Note: the leading `/` was dropped, so `{glob}` matches `{body}` in every folder "
                f"(for example docs/{body}); record `./{glob}` to keep it at the root only.",)
    return ()


def choose_target(glob: str, files: Sequence[RuleFile]) -> RuleFile | None:
    """First root rule file (by name bytes) holding the glob or a glob of the same area."""
    key = area_key(glob)
    for f in sorted((f for f in files if not f.is_boost), key=lambda f: f.path.name.encode()):
        if glob in f.strict_paths or any(area_key(p) == key for p in f.strict_paths):
            return f
    return None


def record_notes(rule: Rule, target: RuleFile | None, files: Sequence[RuleFile]) -> tuple[str, ...]:
    """What recording into `target` (None: a new file) repeats: an entry of the same title there
    (both are kept, as Boost keeps them), or a glob that a glob of a rule file covers already."""
    notes = []
    same = None if target is None else next(
        (e for e in target.entries if e.title.strip().casefold() == rule.title.strip().casefold()), None)
    if target is not None and same is not None:
        notes.append(f"{target.rel} already has an entry titled `{same.title}` (line {same.line + 1}); "
                     "both are kept, so merge them if they say the same.")
    if target is None or rule.glob not in target.strict_paths:
        ordered = [*([target] if target is not None else []), *(f for f in files if f is not target)]
        wider = next(((f, g) for f in ordered if not f.is_boost for g in f.strict_paths
                      if covers(g, rule.glob)), None)
        if wider is not None:
            notes.append(f"`{wider[1]}` in {wider[0].rel} already covers `{rule.glob}`, so the new "
                         "glob adds no file to what that rule file applies to.")
    return tuple(notes)


def covers(wide: str, narrow: str) -> bool:
    """Whether the folder glob `wide` (`app/**`, `**`) selects every path `narrow` can: a plain
    prefix test, never a guess (`app/*.php` covers nothing here)."""
    if wide in ("**", "**/*"):
        return not narrow.startswith("!")
    if not wide.endswith("/**") or any(c in wide[:-3] for c in "*?[{!"):
        return False
    return narrow.startswith(wide[:-2]) and narrow != wide


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
    """The file with its `paths` block rewritten Boost-style; everything else kept as it was.

    Boost rebuilds the frontmatter and then puts exactly one blank line before the body.
    """
    nl = newline_of(text)
    lines = split_lines(text)
    fm, _ = find_frontmatter(lines)
    if fm is None:
        raise RuleError("Cannot add a glob to a rule file without frontmatter.")
    block, _ = scan_paths(lines, fm)
    start, end = (block.start, block.end) if block else (fm.close_line, fm.close_line)
    kept = split_keepends(text)
    closing = kept[fm.close_line]
    if not closing.endswith(("\n", "\r")):
        closing += nl
    body = "".join(kept[fm.close_line + 1 :]).lstrip("\r\n")
    return ("".join(kept[:start]) + paths_block(globs, nl) + "".join(kept[end : fm.close_line])
            + closing + nl + body)


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
