"""A folder the project plans: a rule's glob names a folder that has no file yet, that no commit
ever had, and that another of the project's rule files names too ("cloud-only billing code will
live under app/Cloud/"). The rule is there for the files to come, as a rule kit's are for its
users' files, so its "matches nothing" is one `info` saying so, not a warning.

All three signs are needed: a folder that held files once was moved or removed (the glob is
stale: a warning); one nobody else names may be misspelt (a warning); outside git nothing is known
of the history, and the warning stays.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from rulelens.rules.model import Problem
from rulelens.workspace.sorted_paths import starting_with

NOTHING_CODES = frozenset({"agent-glob-matches-nothing", "glob-matches-nothing"})
MAGIC = frozenset("*?[{")


def folder_named(glob: str) -> str | None:
    """The folder a glob's literal start names (`app/Cloud` of `app/Cloud/**`), at least two
    segments deep; None for `**/*.ts` or `src/**`."""
    parts = glob.strip().lstrip("/").split("/")
    literal: list[str] = []
    for part in parts:
        if any(c in part for c in MAGIC):
            break
        literal.append(part)
    if len(literal) == len(parts):
        literal = literal[:-1]  # a named file: its folder
    return "/".join(literal) if len(literal) >= 2 else None


def as_planned(problems: Sequence[Problem], paths: Sequence[str], rule_files: Iterable[str],
               text_of: Callable[[str], str | None],
               ever_committed: Callable[[str], bool | None]) -> list[Problem]:
    """The loud "matches nothing" findings whose glob names a planned folder, as `info`.
    `paths`: the project's files, sorted; `ever_committed(folder)`: whether any commit had a file
    there (None where git cannot say)."""
    rules = list(dict.fromkeys(rule_files))
    texts: dict[str, str] = {}
    out: list[Problem] = []
    for p in problems:
        planned = _planned(p, paths, rules, texts, text_of, ever_committed) if (
            p.code in NOTHING_CODES and p.severity != "info") else None
        if planned is not None:
            folder, named_in = planned
            p = replace(p, severity="info", message=(
                f"{p.message} No commit ever had a file in `{folder}/`, and `{named_in}` names it: a "
                "folder the project plans, which the rule is kept for. Remove the glob if it will not come."))
        out.append(p)
    return out


def _planned(p: Problem, paths: Sequence[str], rules: list[str], texts: dict[str, str],
             text_of: Callable[[str], str | None],
             ever_committed: Callable[[str], bool | None]) -> tuple[str, str] | None:
    """(the folder, the rule file that names it too) where `p`'s glob names a planned folder."""
    globs = _dead_globs(p.message)
    folders = [folder_named(g) for g in globs]
    if not folders or None in folders or len(set(folders)) > 1:
        return None  # a rule's whole dead list is planned only where every glob names the one folder
    folder = folders[0]
    assert folder is not None
    if starting_with(paths, folder + "/"):
        return None
    parent = folder.rpartition("/")[0]
    if not starting_with(paths, parent + "/"):
        return None  # its parent is gone too: more likely moved than planned
    named_in = next((r for r in rules if r != p.file and folder + "/" in _text(r, texts, text_of)), None)
    if named_in is None or ever_committed(folder) is not False:
        return None
    return folder, named_in


def _dead_globs(message: str) -> list[str]:
    """The globs a "matches nothing" finding names: the backticked texts before "against no
    file" (one, or a rule's whole dead list), else the first backticked text."""
    lead = message.split(" against no file", 1)[0] if " against no file" in message else message
    found = re.findall(r"`([^`]*)`", lead)
    return found if " against no file" in message else found[:1]


def _text(rel: str, texts: dict[str, str], text_of: Callable[[str], str | None]) -> str:
    if rel not in texts:
        texts[rel] = text_of(rel) or ""
    return texts[rel]
