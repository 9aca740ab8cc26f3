"""A rule kit: a repository of rules for other projects (its README says to copy them into
yours), holding no source file at all. Its globs name the files of the projects it is copied
into, so that they match nothing here is expected: each file's "matches nothing" findings become
one `info` saying so.

"No source file" is conservative: every file is documentation, configuration or an image by its
extension (or a known extensionless file such as `LICENSE`); one file of any other kind (a
script, a `Makefile`) makes the project an ordinary one. And the root README must speak of
copying (or installing) the rules, as a kit's does.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Sequence

from rulelens.rules.model import Problem

KINDS = ("md", "mdx", "mdc", "markdown", "txt", "rst", "adoc", "yml", "yaml", "json", "jsonc", "json5",
         "toml", "ini", "cfg", "conf", "env", "lock", "png", "jpg", "jpeg", "gif", "svg", "ico", "webp")
PLAIN_NAMES = frozenset({"LICENSE", "LICENCE", "NOTICE", "AUTHORS", "CODEOWNERS", "COPYING", "README",
                         "CHANGELOG", "CONTRIBUTORS"})
NOTHING_CODES = frozenset({"agent-glob-matches-nothing", "glob-matches-nothing"})
COPY = re.compile(r"(?i)\b(?:cop(?:y|ied|ying)|install)\b")
KINDS_SAID = "Markdown, YAML, JSON, TOML, text and images"


def _docs_or_config(path: str) -> bool:
    name = posixpath.basename(path)
    if name.startswith(".") and name.count(".") == 1:  # `.gitignore`, `.editorconfig`
        return True
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem:
        return name.upper() in PLAIN_NAMES or name.split(".")[0].upper() in PLAIN_NAMES
    return ext.lower() in KINDS


def holds_no_source(paths: Iterable[str]) -> bool:
    """Whether the project has files, all of them documentation or configuration."""
    seen = False
    for path in paths:
        if not _docs_or_config(path):
            return False
        seen = True
    return seen


def is_rule_kit(paths: Sequence[str], text_of: Callable[[str], str | None]) -> bool:
    """No source file, and a root README that speaks of copying or installing its files."""
    readmes = [p for p in paths if "/" not in p and p.upper().startswith("README")]
    return holds_no_source(paths) and any(COPY.search(text_of(r) or "") for r in readmes)


def as_kit(problems: Sequence[Problem]) -> list[Problem]:
    """Each file's "matches nothing" warnings as one `info` in a project that holds no source file."""
    by_file: dict[str, list[Problem]] = {}
    for p in problems:
        if p.code in NOTHING_CODES and p.severity != "info":
            by_file.setdefault(p.file, []).append(p)
    out: list[Problem] = []
    for p in problems:
        group = by_file.get(p.file)
        if group is None or p not in group:
            out.append(p)
            continue
        if p is not group[0]:
            continue
        n = len(group)
        out.append(Problem(p.file, p.line, "info", p.code,
                           f"{n} {'glob matches' if n == 1 else 'globs match'} no file here, as expected: "
                           f"this project holds no source files (every file is {KINDS_SAID}), so its "
                           "rules are for the projects its README says to copy them into.", p.col, p.end_col))
    return out
