"""A committed index written by hand: its table gives globs to rule files whose frontmatter has
no `paths`. `rulelens index` builds the table from `paths`, so it would drop those globs; the
findings say so and advise moving each file's globs into its `paths:` first."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from rulelens.rules.model import Problem, RuleFile

_CELL = re.compile(r"(?<!\\)\|")
_TICKED = re.compile(r"`([^`]+)`")
SHOWN = 3


def hand_globs(index_text: str | None, rules: Sequence[RuleFile]) -> dict[str, list[str]]:
    """Rule file (root-relative) → the globs the index's table gives it, for the rule files
    without `paths` that a row names (by file name, in a link or in backticks)."""
    if not index_text:
        return {}
    unpathed = {posixpath.basename(r.rel): r.rel for r in rules if not r.lenient_paths}
    found: dict[str, list[str]] = {}
    for line in index_text.splitlines():
        line = line.strip()
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in _CELL.split(line.strip("|"))]
        if len(cells) < 2:
            continue
        for i, cell in enumerate(cells):
            names = [n for n in unpathed if re.search(rf"(?<![\w.-]){re.escape(n)}(?![\w.-])", cell)]
            if len(names) != 1:
                continue
            globs = [t.strip() for other in cells[:i] + cells[i + 1:] for t in _TICKED.findall(other)
                     if t.strip() and t.strip() != names[0]]  # one glob a tick: `{A,B}.php` is one
            if globs:
                found.setdefault(unpathed[names[0]], globs)
            break
    return found


def _listed(items: Sequence[str]) -> str:
    shown = ", ".join(f"`{i}`" for i in items[:SHOWN])
    return shown + (f" and {len(items) - SHOWN} more" if len(items) > SHOWN else "")


def stale_message(hand: dict[str, list[str]]) -> str:
    """index-stale's words where the committed index gives globs to rule files without `paths`."""
    files = sorted(hand)
    return (f"The index gives globs to {len(files)} rule "
            f"{'file that has' if len(files) == 1 else 'files that have'} no `paths` "
            f"({_listed([posixpath.basename(f) for f in files])}): it was written by hand, and "
            "`rulelens index` builds the table from each file's `paths`, so it would drop those globs. "
            "Move each file's globs from the index into its `paths:` first, then run `rulelens index`.")


def with_hand_globs(problems: Sequence[Problem], hand: dict[str, list[str]]) -> list[Problem]:
    """The no-paths findings of files the index gives globs to, saying so rather than "not in the
    index"."""
    out: list[Problem] = []
    for p in problems:
        globs = hand.get(p.file) if p.code == "no-paths" else None
        if globs:
            p = Problem(p.file, p.line, p.severity, p.code,
                        f"No `paths`: the index gives this file {_listed(globs)} by hand, but "
                        "`rulelens index` builds the index from `paths`, so it would drop them. Move "
                        "them into this file's `paths:`.", p.col, p.end_col)
        out.append(p)
    return out
