"""A rule kit: a repository of rules for other projects, holding no source file at all. Its globs
name the files of the projects it is copied into, so that they match nothing here is expected:
each file's "matches nothing" findings become one `info` saying so.

"No source file" is conservative: every file is documentation, configuration or an image by its
extension (or a known extensionless file such as `LICENSE`); one file of any other kind (a
script, a `Makefile`) makes the project an ordinary one. Then one of two signs: the root README
speaks of copying (or installing) the rules, as a kit's does; or the repository holds nothing but
the agents' files (the folders they live in, such as `.claude/`) and its own files at the root,
a README among them (`README.md`, `LICENSE`, `.gitignore`): no file is left that a glob could be
about, so the rules can only be for other projects (someone's shared `.claude/` configuration).
Without a README, a project of rule files alone is more likely one whose code is yet to come.
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


def only_agent_files(paths: Sequence[str], agent_files: Iterable[str]) -> bool:
    """Whether every file is an agent's file, in a root folder that holds one (`.claude/`,
    `.cursor/`), or at the root: nothing a rule's glob could be about."""
    files = set(agent_files)
    homes = {rel.split("/", 1)[0] for rel in files if "/" in rel}
    return bool(files) and all("/" not in p or p in files or p.split("/", 1)[0] in homes for p in paths)


def kit_sign(paths: Sequence[str], text_of: Callable[[str], str | None],
             agent_files: Iterable[str] = ()) -> str | None:
    """Why the project is a rule kit (the words `as_kit` says), or None: no source file, and a
    root README that speaks of copying or installing its files, or no file but the agents'."""
    if not holds_no_source(paths):
        return None
    readmes = [p for p in paths if "/" not in p and p.upper().startswith("README")]
    if any(COPY.search(text_of(r) or "") for r in readmes):
        return "its rules are for the projects its README says to copy them into"
    if readmes and only_agent_files(paths, agent_files):  # a kit presents itself in a README
        return ("its rules are for other projects: it holds nothing but the agents' files and its "
                "own at the root (no file a glob could be about)")
    return None


def is_rule_kit(paths: Sequence[str], text_of: Callable[[str], str | None],
                agent_files: Iterable[str] = ()) -> bool:
    """Whether `kit_sign` finds a sign."""
    return kit_sign(paths, text_of, agent_files) is not None


def as_kit(problems: Sequence[Problem],
           why: str = "its rules are for the projects its README says to copy them into") -> list[Problem]:
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
        n = len(set().union(*(_globs(q.message) for q in group))) or len(group)  # each agent says them
        out.append(Problem(p.file, p.line, "info", p.code,
                           f"{n} {'glob matches' if n == 1 else 'globs match'} no file here, as expected: "
                           f"this project holds no source files (every file is {KINDS_SAID}), so "
                           f"{why}.", p.col, p.end_col))
    return out


def _globs(message: str) -> set[str]:
    """The globs a "matches nothing" finding names (one, or a rule's whole dead list)."""
    lead = message.split(" against no file", 1)[0] if " against no file" in message else message
    found = re.findall(r"`([^`]*)`", lead)
    return set(found if " against no file" in message else found[:1])
