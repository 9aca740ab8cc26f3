"""Inline suppression: comments in a rule file that silence findings a team has judged wrong.

In the Markdown body the directive is an HTML comment, which Markdown renderers hide and agents
read past: `<!-- rulelens-disable-next-line stale-name -->` for the next line,
`<!-- rulelens-disable-file glob-dialect -->` for the whole file. In the YAML frontmatter, where
an HTML comment would break the YAML, the same words go in a YAML comment:
`# rulelens-disable-next-line glob-matches-nothing`. Codes are separated by commas or spaces;
a directive without a code silences every code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

ALL = "*"
_HTML = re.compile(r"<!--\s*rulelens-disable-(next-line|file)\b(.*?)-->")
_YAML = re.compile(r"^\s*#\s*rulelens-disable-(next-line|file)\b(.*)$")


@dataclass
class Suppressions:
    """What one file's directives silence: codes per 0-based line, and codes for the file."""

    lines: dict[int, set[str]] = field(default_factory=dict)
    file: set[str] = field(default_factory=set)

    def silences(self, line: int, code: str) -> bool:
        return any(ALL in codes or code in codes for codes in (self.file, self.lines.get(line, ())))


def _codes(text: str) -> set[str]:
    codes = {c for c in re.split(r"[\s,]+", text.strip()) if c}
    return codes or {ALL}


def _frontmatter_end(lines: list[str]) -> int:
    """The 0-based line of the frontmatter's closing `---`, or -1 without frontmatter."""
    if not lines or lines[0].rstrip() != "---":
        return -1
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return i
    return -1


def suppressions(text: str) -> Suppressions:
    """The directives in a file's text."""
    out = Suppressions()
    lines = text.splitlines()
    front_end = _frontmatter_end(lines)
    pending: set[str] = set()
    for i, line in enumerate(lines):
        found = _YAML.match(line) if 0 < i < front_end else None
        directives = [found] if found else list(_HTML.finditer(line))
        if found or (directives and not _HTML.sub("", line).strip()):
            for d in directives:
                if d.group(1) == "file":
                    out.file |= _codes(d.group(2))
                else:
                    pending |= _codes(d.group(2))
            continue  # a directive line: a next-line directive reaches past it
        if pending:
            out.lines.setdefault(i, set()).update(pending)
            pending = set()
        for d in directives:  # a directive at the end of a line of text
            if d.group(1) == "file":
                out.file |= _codes(d.group(2))
    return out
