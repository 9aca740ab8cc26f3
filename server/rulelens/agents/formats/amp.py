"""Amp: `AGENTS.md`, and the files it @-mentions, scoped by `globs` in their frontmatter.

A mentioned file with `globs` is included once Amp has read a file matching one; without
frontmatter, always. A glob gets an implicit `**/` unless it starts with `./` or `../`
(then it is relative to the mentioning file's folder).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from rulelens.agents.base import Context, GlobAgent, glob_list, literal_prefix
from rulelens.agents.facts import Fact
from rulelens.agents.model import AgentFile, Decision
from rulelens.agents.reading import read_agent_file
from rulelens.glob_engines.dialects import UNDOCUMENTED, matches

NEWS = "https://ampcode.com/news/globs-in-AGENTS.md"
# The note itself could not be read on 2026-12-04: these report it.
REPORTED = ("https://github.com/dyoshikawa/rulesync/pull/2455 (cites " + NEWS + "); "
            "syllago.dev providers/amp (implicit `**/`)")
MENTION = re.compile(r"(?<![\w`])@([\w./-]+\.md)\b")


def effective(pattern: str) -> str:
    """The pattern Amp matches: `./x` and `../x` as written, anything else below any folder."""
    if pattern.startswith(("./", "../")):
        return posixpath.normpath(pattern)
    return pattern if pattern.startswith("**/") else "**/" + pattern.lstrip("/")


class Amp(GlobAgent):
    id: ClassVar[str] = "amp"
    name: ClassVar[str] = "Amp"
    facts = (
        Fact("files", "`AGENTS.md` and the files it @-mentions", REPORTED, "third-party", "2026-12-04"),
        Fact("loading", "a mentioned file with `globs`: once Amp has read a matching file; without: always",
             REPORTED, "third-party", "2026-12-04"),
        Fact("dialect", "an implicit `**/` unless the glob starts with `./` or `../`", REPORTED,
             "third-party", "2026-12-04"),
    )
    keys = ("globs",)
    flags = UNDOCUMENTED
    from_root = False
    source = NEWS
    borrows = ("AGENTS.md",)
    file_globs = ("AGENTS.md",)
    follows_mentions = True

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        root = self.file("AGENTS.md")
        if root is not None:
            for rel in mentions(root.text, self.ctx.root):
                if self.file(rel) is None:
                    self.files.append(read_agent_file(self.ctx.root, rel, self.id))

    def discover(self) -> list[str]:
        return ["AGENTS.md"] if (self.ctx.root / "AGENTS.md").is_file() else []

    def pattern_matches(self, pattern: str, path: str) -> bool:
        return matches(effective(pattern), path, self.flags)

    def candidates(self, pattern: str) -> Sequence[str]:
        """Below any folder, a match holds the pattern's literal folders as a run of the path's
        folders: only those paths (a glob's literal segment matches itself alone)."""
        rest = effective(pattern)
        if not rest.startswith("**/"):
            return self.ctx.paths
        while rest.startswith("**/"):
            rest = rest[3:]
        prefix = literal_prefix(rest)
        if not prefix or any(part in (".", "..") for part in prefix.split("/")):
            return self.ctx.paths
        return self.ctx.holding(f"/{prefix}/")

    def patterns(self, f: AgentFile) -> list[str]:
        if f.rel == "AGENTS.md":
            return []
        return glob_list((f.data or {}).get("globs")) or []

    def glob_loads(self, f: AgentFile) -> list[str] | None:
        return self.patterns(f) or None

    def decide(self, f: AgentFile, path: str) -> Decision:
        patterns = self.patterns(f)
        if not patterns:
            return self.load(f, "always")
        hit = self.matching(patterns, path)
        return self.load(f, "glob", hit) if hit else None


def mentions(text: str, base: Path) -> list[str]:
    """The Markdown files `text` @-mentions that exist below `base`, root-relative."""
    out: list[str] = []
    for m in MENTION.finditer(text):
        rel = posixpath.normpath(m.group(1).removeprefix("./"))
        if not rel.startswith("../") and (base / rel).is_file() and rel not in out:
            out.append(rel)
    return out
