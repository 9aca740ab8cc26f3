"""Whether agents see a rule file for a path: what the committed `index.md` says, row by row.

An agent reads the index as it is on disk, not the folder: a rule file that the strict reading
drops, or that nobody indexed, applies for people (lenient reading) but never reaches the agent.
The table is parsed by hand because it is our own fixed format (docs/format.md §4), with `\\|` escapes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulelens.glob_engines.boost import split_commas
from rulelens.rules.match.matcher import RuleSet
from rulelens.rules.model import RuleFile

_CELL_SPLIT = re.compile(r"(?<!\\) \| ")
_HINT = re.compile(r"\b(Quote .*|Keep one .*)$")
NOT_INDEXED = "not in index.md; agents that read the index will not find it. Run `rulelens index`."
NO_INDEX = "there is no index.md, so agents that read the index find no rule files. Run `rulelens index`."


@dataclass
class IndexRow:
    """One committed row: its globs cell, with a matcher built the first time it is asked
    (an index of 10,000 globs is read whole, but a lookup reaches only the rows it needs)."""

    cell: str
    _ruleset: RuleSet | None = None
    _same: tuple[RuleFile, bool] | None = None

    def same_globs(self, rule: RuleFile) -> bool:
        """Whether the row lists exactly the rule file's globs (lenient reading), in order: then
        it selects what the rule file selects, and a path the file applies to is covered without
        compiling the row (the common case: the index is current). Kept per rule file read."""
        if self._same is None or self._same[0] is not rule:
            same = split_commas(self.cell) == [g for item in rule.lenient_paths for g in split_commas(item)]
            self._same = (rule, same)
        return self._same[1]

    def covers(self, rel_path: str) -> bool:
        if self._ruleset is None:
            self._ruleset = RuleSet([split_commas(self.cell)])
        return self._ruleset.selects(0, rel_path)


def parse_index(text: str) -> dict[str, IndexRow]:
    """Rule file (root-relative) → its row, for every table row of a committed index."""
    rows: dict[str, IndexRow] = {}
    for line in text.splitlines():
        line = line.strip()
        if not (line.startswith("| ") and line.endswith(" |")) or line.startswith(("| Applies to", "| ---")):
            continue
        cells = _CELL_SPLIT.split(line[2:-2])
        if len(cells) != 2:
            continue
        globs_cell, file_cell = (c.replace("\\|", "|").strip() for c in cells)
        rows.setdefault(file_cell, IndexRow(globs_cell))
    return rows


def miss_reason(rule: RuleFile, rel_path: str, rows: dict[str, IndexRow] | None) -> str | None:
    """None when the committed index leads an agent to `rule` for `rel_path` (a path `rule`
    selects); else one line why."""
    if rows is None:
        return NO_INDEX
    row = rows.get(rule.rel)
    if row is not None:
        # `rule` selects `rel_path` (callers ask only for matches), so a row with its globs does.
        if row.same_globs(rule) or row.covers(rel_path):
            return None
        return (f"index.md's row for it (`{_cut(row.cell)}`) does not cover this path; "
                "run `rulelens index`.")
    dropped = strict_drop(rule)
    return dropped or NOT_INDEXED


def same_for_every_path(rule: RuleFile, rows: dict[str, IndexRow] | None) -> bool:
    """Whether `miss_reason` says the same of `rule` for every path it selects: it reads the
    path only to ask a row that lists other globs than the file's whether it covers the path."""
    if rows is None:
        return True
    row = rows.get(rule.rel)
    return row is None or row.same_globs(rule)


def strict_drop(rule: RuleFile) -> str | None:
    """Why Boost's strict reading has no paths for a file that people see paths in, or None."""
    if rule.strict_paths or not rule.lenient_paths:
        return None
    by_code = {p.code: p for p in rule.problems}
    if "frontmatter-bom" in by_code:
        return ("it starts with a byte order mark (BOM), so Boost reads no frontmatter and index.md has "
                "no row for it; save it as UTF-8 without BOM.")
    if "frontmatter-invalid" in by_code:
        hint = _HINT.search(by_code["frontmatter-invalid"].message)
        return ("its frontmatter is invalid YAML to Boost, so index.md has no row for it"
                + (f"; {hint.group(1)[0].lower()}{hint.group(1)[1:]}" if hint else "; fix the YAML."))
    if "paths-invalid" in by_code:
        return ("Boost's YAML reads none of its `paths` items as text (a plain `0o17` is a number), so "
                "index.md has no row for it; quote each glob.")
    return None


def _cut(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
