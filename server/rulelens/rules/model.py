"""Plain data shared by every front (CLI, LSP, MCP); no behaviour lives here."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Severity = Literal["error", "warning", "info"]


class RuleError(Exception):
    """Bad input from a person or agent; its message is shown as is (one line)."""


@dataclass(frozen=True)
class Entry:
    """One `## Title` entry; lines are 0-based, `end_line` exclusive."""

    title: str
    line: int
    end_line: int
    note: str


@dataclass(frozen=True)
class GlobItem:
    """One `paths` item as written, where the lenient reading found it (0-based, code points)."""

    text: str
    line: int
    start_col: int
    end_col: int


@dataclass(frozen=True)
class Problem:
    """A finding of `check` or of reading a file; `line` is 0-based, `end_col` None means to end of line."""

    file: str
    line: int
    severity: Severity
    code: str
    message: str
    col: int = 0
    end_col: int | None = None
    # Texts that could replace the span [col, end_col), best first (a moved path's new place):
    # what an editor's quick fix offers, without reading the message back.
    replacements: tuple[str, ...] = ()
    # Project paths that show the finding (the files two copies of one rule load for differently),
    # kept out of the message so that it stays short.
    examples: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "file": self.file,
            "line": self.line + 1,
            "column": self.col + 1,  # 1-based, as the text output's `file:line:column:`
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
        }
        if self.examples:
            out["examples"] = list(self.examples)
        return out


@dataclass(frozen=True)
class Edit:
    """One text edit of a project file: the span [col, end_col) of `line` (0-based, code points)
    becomes `text`; col == end_col inserts. `expect`: the span's text as the finding saw it, so
    an edit of a file changed since is refused rather than made in the wrong place."""

    file: str
    line: int
    col: int
    end_col: int
    text: str
    expect: str = ""


@dataclass(frozen=True)
class Fix:
    """What fixes one finding in every file it lists (`rulelens check --fix`), with the finding's
    code and the title a person reads before applying it."""

    code: str
    title: str
    edits: tuple[Edit, ...]


@dataclass
class RuleFile:
    """A rule file read both ways: `strict_paths` is what Boost (and so the index) sees."""

    path: Path
    rel: str
    text: str
    is_boost: bool
    heading: str | None
    heading_line: int | None
    entries: list[Entry]
    strict_paths: list[str]
    lenient_paths: list[str]
    glob_items: list[GlobItem]
    frontmatter_lines: tuple[int, int] | None
    strict_ok: bool
    problems: list[Problem] = field(default_factory=list)

    @property
    def stem(self) -> str:
        return self.path.stem


@dataclass(frozen=True)
class Match:
    """A rule file that applies to a path (lenient reading), and whether agents see it there.

    `globs` are the `paths` items as written that matched; `matched` the expanded alternatives of
    those items that matched. `agents_see` says whether the committed `index.md` leads an agent
    to this file for this path; when it does not, `agents_miss_because` says why and how to fix it
    in one line.
    """

    rule: RuleFile
    globs: list[str]
    matched: list[str] = field(default_factory=list)
    agents_see: bool = True
    agents_miss_because: str | None = None


# Problems that only the bytes on disk show, and that make rulelens refuse to rewrite a file.
UNWRITABLE = frozenset({"file-too-large", "encoding-invalid", "file-binary", "file-unreadable",
                        "rule-symlink"})


# Problems after which rulelens does not know a rule file's globs: an index written then would
# lose the file's row, and a path's rules would leave the file out without a word.
UNREAD = frozenset({"file-unreadable", "file-binary", "rule-symlink"})
_UNREAD_WHY = {"file-binary": "it looks binary", "rule-symlink": "it links outside the project"}


def unread_reason(rule: RuleFile) -> str | None:
    """Why rulelens could not read this file's globs, in a few words, or None."""
    bad = next((p for p in rule.problems if p.code in UNREAD), None)
    if bad is None:
        return None
    return _UNREAD_WHY.get(bad.code) or bad.message.partition(": ")[2].rstrip(".") or bad.message


def cannot_read(rule: RuleFile) -> str | None:
    """`<file> could not be read (<why>)`, the words every surface uses, or None."""
    why = unread_reason(rule)
    return None if why is None else f"{rule.rel} could not be read ({why})"


def unwritable_reason(rule: RuleFile) -> str | None:
    """Why rulelens will not rewrite this file, or None."""
    bad = next((p for p in rule.problems if p.code in UNWRITABLE), None)
    return bad.message if bad is not None else None


@dataclass(frozen=True)
class RecordPlan:
    """Where a record lands and the file's text after it; `old` is None for a new file."""

    path: Path
    old: str | None
    new: str
    line: int
    bom: bool = False
    # What the person may want to know before or after (the title is there already, the glob
    # adds no file): one line each. Boost writes the same bytes either way.
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class RecordResult:
    """Where a record landed; `line` is the 0-based line of the new `## ` heading."""

    file: str
    title: str
    line: int
    created: bool
    notes: tuple[str, ...] = ()
    # What the record repeats (a title already in the file, a glob already covered): said apart
    # from `message`, which stays Boost's text for scripts and agents that read it.
    repeats: tuple[str, ...] = ()

    @property
    def message(self) -> str:
        """Boost's success text, then any note on how the glob was read (one line each)."""
        return "\n".join([f"Recorded rule in {self.file}: {self.title}.", *self.notes])
