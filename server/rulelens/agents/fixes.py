"""The edits that give an agent's rule file the globs of its copy in another agent's folder: a
skill converted from a Cursor rule, without the `paths` that make it load by glob."""

from __future__ import annotations

import json
from collections.abc import Sequence

from rulelens.agents.base import Agent
from rulelens.agents.model import AgentFile
from rulelens.rules.model import Edit


def globs_edit(f: AgentFile, key: str, globs: Sequence[str], trigger: bool = False) -> Edit | None:
    """An edit adding `key:` with `globs` (a YAML list, each double-quoted) at the end of `f`'s
    frontmatter, or a frontmatter holding just that where it has none; with `trigger`, a
    `trigger: glob` line before it (an agent whose `trigger` decides). None when the frontmatter
    is there but not closed, or already has the key (or, with `trigger`, a `trigger`)."""
    items = "".join(f"  - {json.dumps(g, ensure_ascii=False)}\n" for g in globs)
    block = ("trigger: glob\n" if trigger else "") + f"{key}:\n{items}"
    lines = f.text.splitlines()
    if not f.has_frontmatter:
        return Edit(f.rel, 0, 0, 0, f"---\n{block}---\n")
    if f.data is not None and (key in f.data or (trigger and "trigger" in f.data)):
        return None
    end = next((n for n, line in enumerate(lines[1:], start=1) if line.rstrip() == "---"), None)
    return None if end is None else Edit(f.rel, end, 0, 0, block)


def copied_globs(other: Agent, g: AgentFile) -> list[str]:
    """The globs of `g` as root-relative patterns: a nested rule folder's, below its folder."""
    base = other.glob_base(g)
    return [f"{base}/{p.lstrip('/')}" if base else p for p in other.patterns(g)]
