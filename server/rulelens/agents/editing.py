"""What an editor asks about one agent's rule file: is this path one, what is wrong with it as
typed, where its globs sit, and what each glob matches under that agent's matcher.

`check` reports the same findings for the whole project (`traps.agent_problems`); here they are
for one file, read from the text the person is editing when there is one.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import bracex
from wcmatch import glob as wglob

from rulelens.agents.base import Agent
from rulelens.agents.project import AgentProject
from rulelens.agents.reading import parse_agent_text, read_agent_file
from rulelens.agents.registry import FILE_GLOBS
from rulelens.agents.traps import budget_problems, disagreements
from rulelens.glob_engines.dialects import literal_end
from rulelens.rules.format.reading import find_frontmatter, scan_paths
from rulelens.rules.model import GlobItem, Problem

_FLAGS = wglob.GLOBSTAR | wglob.BRACE | wglob.DOTGLOB | wglob.FORCEUNIX


@lru_cache(maxsize=1)
def _shapes() -> wglob.WcMatcher[str]:
    return wglob.compile(list(FILE_GLOBS), flags=_FLAGS)


@lru_cache(maxsize=1)
def _endings() -> tuple[str, ...] | None:
    """The literal text each agent file's path ends with (`.md`, `.clinerules`…), from every
    glob with its braces expanded; None when one of them may end with anything."""
    ends: set[str] = set()
    for glob in FILE_GLOBS:
        try:
            variants = bracex.expand(glob) if "{" in glob else [glob]
        except Exception:  # bracex refuses it: no shortcut
            return None
        for variant in variants:
            end = literal_end(variant, _FLAGS)
            if not end:
                return None
            ends.add(end)
    return tuple(sorted(ends))


def is_agent_path(rel: str) -> bool:
    """Whether `rel` sits where some agent other than Boost reads rule files.

    A path that ends as no agent file can (most source files) is answered without compiling
    the globs: the first document a language server shows is usually one.
    """
    ends = _endings()
    if ends is not None and not rel.endswith(ends):
        return False
    return bool(_shapes().match(rel))


def shared_problems(project: AgentProject, rel: str) -> list[Problem]:
    """The findings on `rel` that depend on other files too (budgets, `agents-disagree`),
    computed once per project reading; disagreements only for the pairs that start at `rel`."""
    budgets = project.budget_problems
    if budgets is None:
        budgets = project.budget_problems = budget_problems(project)
    disagree = project.disagreements.get(rel)
    if disagree is None:
        disagree = project.disagreements[rel] = disagreements(project, only=rel)
    return [p for p in [*budgets, *disagree] if p.file == rel]


def file_problems(project: AgentProject, agent: Agent, rel: str, text: str | None = None) -> list[Problem]:
    """`check`'s findings for `rel`, with the file read from `text` when given (the buffer).

    Findings across files (budgets, disagreements) come from the files as saved.
    """
    disk = agent.file(rel)
    if disk is not None and (text is None or text == disk.text):
        f = disk
    elif text is not None:
        f = parse_agent_text(text, rel, agent.id)
    else:
        f = read_agent_file(project.root, rel, agent.id)
    own = [*agent.file_traps(f), *agent.nothing_traps(f)]
    shared = shared_problems(project, rel)
    return sorted([*own, *shared], key=lambda p: (p.line, p.code))


def glob_items(agent: Agent, lines: list[str]) -> list[GlobItem]:
    """Each pattern of the agent's glob key as written (`paths`, `applyTo`, `globs`,
    `fileMatchPattern`), with its position; a one-line string is split as that agent splits it."""
    if not agent.keys:
        return []
    fm, _ = find_frontmatter(lines)
    if fm is None:
        return []
    block, items = scan_paths(lines, fm, agent.keys[0])
    if block is None:
        return []
    head = lines[block.start]
    inline_scalar = not head.partition(":")[2].lstrip().startswith("[")
    out: list[GlobItem] = []
    for item in items:
        if not inline_scalar or item.line != block.start:
            out.append(item)
            continue
        out.extend(_split_item(item, lines[item.line], agent))
    return out


def _split_item(item: GlobItem, line: str, agent: Agent) -> list[GlobItem]:
    raw = line[item.start_col:item.end_col]
    start = item.start_col
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
        raw, start = raw[1:-1], start + 1
    parts = agent.split_value(raw)
    if parts is None or len(parts) <= 1:
        return [item]
    out = []
    pos = 0
    for part in parts:
        col = raw.find(part, pos)
        if col < 0:
            return [item]
        out.append(GlobItem(part, item.line, start + col, start + col + len(part)))
        pos = col + len(part)
    return out


def matching_paths(agent: Agent, pattern: str, paths: Sequence[str] | None = None,
                   rel: str | None = None) -> list[str]:
    """The project files `pattern` matches under `agent`'s matcher (a leading `!`, Continue's
    exclusion, is taken off: the answer is what it excludes); `rel`, the file it is written in,
    where the agent reads a pattern from that file's folder."""
    probe = pattern[1:] if pattern.startswith("!") else pattern
    if not probe:
        return []
    if rel is not None:
        probe = agent.pattern_in(rel, probe)
    candidates = agent.candidates(probe) if paths is None else paths
    return [p for p in candidates if agent.pattern_matches(probe, p)]
