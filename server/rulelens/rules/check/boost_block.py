"""An `@.ai/rules/…` import inside Boost's generated `<laravel-boost-guidelines>` block, in a
project with no `.ai/rules` folder: Boost writes it for every project, and its text says to go on
without `.ai/rules` when there is none, so the import that loads nothing is expected there, not a
mistake the maintainer can mend (the block is rewritten by `boost:install`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rulelens.rules.model import Problem

IMPORT_CODES = {"claude-import-missing": "Claude Code", "copilot-cli-import-missing": "Copilot CLI",
                "qwen-import-missing": "Qwen Code"}
RULES_FOLDER = ".ai/rules"
OPEN, CLOSE = "<laravel-boost-guidelines>", "</laravel-boost-guidelines>"
# What each import-missing message says first: the import as written and the file it names.
IMPORTED = re.compile(r"reads `@(?P<path>[^`]+)` as an import of `(?P<named>[^`]+)`, "
                      "which the project does not have")


def in_boost_block(text: str, line: int) -> bool:
    """Whether 0-based `line` of `text` sits between Boost's block's open and close tags."""
    inside = False
    for n, row in enumerate(text.splitlines()):
        if OPEN in row:
            inside = True
        if n == line:
            return inside
        if CLOSE in row:
            inside = False
    return False


def without_boost_imports(problems: Sequence[Problem], text_of: Callable[[str], str | None],
                          has_rules_folder: bool) -> list[Problem]:
    """`problems` less the missing imports of `.ai/rules/…` inside Boost's block, where the
    project has no `.ai/rules` folder."""
    if has_rules_folder:
        return list(problems)
    texts: dict[str, str | None] = {}
    out: list[Problem] = []
    for p in problems:
        m = IMPORTED.search(p.message) if p.code in IMPORT_CODES else None
        if m is not None and m["named"].startswith(RULES_FOLDER + "/"):
            if p.file not in texts:
                texts[p.file] = text_of(p.file)
            text = texts[p.file]
            if text is not None and in_boost_block(text, p.line):
                continue
        out.append(p)
    return out
