"""Continue: `.continue/rules/**/*.md` with `alwaysApply`, `globs`, `regex`, `description`.

Source: continuedev/continue `core/llm/rules/getSystemMessageWithRules.ts` (`shouldApplyRule`):
`alwaysApply: true` always; a rule in `.continue/` without `globs` or `regex` is global unless
`alwaysApply: false`; `globs` is one minimatch pattern (a string, not split on commas) or a list
where `!` patterns exclude; `regex` must also match the file's contents. Paths are matched as
rulelens passes them, root-relative (Continue passes what the context holds: which form it
holds for attached files is documented behaviour not confirmed).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from rulelens.agents.base import NOT_CONFIRMED, GlobAgent, maybe, problem
from rulelens.agents.facts import Fact
from rulelens.agents.model import AgentFile, Decision
from rulelens.glob_engines.dialects import MINIMATCH, minimatch_matches
from rulelens.rules.model import Problem


def _globs(value: Any) -> list[str] | None:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(v) for v in value if isinstance(v, str)]
    return None


def _as_list(value: str) -> str:
    return "[" + ", ".join(f'"{p.strip()}"' for p in value.split(",") if p.strip()) + "]"


def globs_match(globs: list[str], path: str) -> list[str]:
    """Continue's `matchesGlobs` on a list: the positive globs that match `path` (or the `!`
    ones, when there are only those), empty when any `!` glob matches or no positive one does."""
    positive = [g for g in globs if not g.startswith("!")]
    negative = [g[1:] for g in globs if g.startswith("!")]
    if any(minimatch_matches(n, path) for n in negative):
        return []
    if not positive:
        return ["!" + n for n in negative]
    return [g for g in positive if minimatch_matches(g, path)]


CODEBASE_RULES = "rules.md"


class Continue(GlobAgent):
    id: ClassVar[str] = "continue"
    name: ClassVar[str] = "Continue"
    facts = (
        Fact('files', '`.continue/rules/**/*.md`',
             'https://docs.continue.dev/customize/rules', 'docs', '2026-12-03'),
        Fact('loading', '`alwaysApply: true` always; no `globs`/`regex` and not `alwaysApply: '
             'false`: always; `globs` and `regex` otherwise',
             'continuedev/continue core/llm/rules/getSystemMessageWithRules.ts', 'code', '2026-12-03'),
        Fact('dialect', 'minimatch with default options; `!` patterns in a list exclude',
             'continuedev/continue core/llm/rules/getSystemMessageWithRules.ts', 'code', '2026-12-03'),
    )
    keys = ("globs",)
    flags = MINIMATCH
    source = "continuedev/continue getSystemMessageWithRules.ts"

    codes = frozenset(("continue-globs-comma",))
    file_globs = (".continue/rules/**/*.md", "**/rules.md")

    def discover(self) -> list[str]:
        """`.continue/rules`, then each `rules.md` in the codebase (`loadCodebaseRules.ts`)."""
        found = self.ctx.scan(".continue/rules", (".md",))
        found.extend(p for p in self.ctx.named(CODEBASE_RULES) if ".continue" not in p and p not in found)
        return found

    def codebase(self, f: AgentFile) -> bool:
        return f.rel.rpartition("/")[2] == CODEBASE_RULES and ".continue" not in f.rel

    def folder(self, f: AgentFile) -> str:
        return f.rel.rpartition("/")[0] if self.codebase(f) else ""

    def globs(self, f: AgentFile) -> list[str] | None:
        """The globs Continue matches: a codebase `rules.md`'s are taken below its folder
        (`markdownToRule`'s `getGlobPattern`: the folder, then `**/` unless the glob starts with
        `**`; none is the folder's `**/*`). The root's `rules.md` gets `/`, which Continue
        matches against absolute paths; on root-relative paths that is no folder at all."""
        found = _globs((f.data or {}).get("globs"))
        if not self.codebase(f):
            return found
        folder = self.folder(f)
        prefix = f"{folder}/" if folder else ""
        if not found:
            return [f"{prefix}**/*"]
        return [prefix + (g if g.startswith("**") else "**/" + g) for g in found]

    def patterns(self, f: AgentFile) -> list[str]:
        """As Continue matches them: root-relative, a codebase rule's below its folder."""
        found = (self.globs(f) if self.codebase(f) else _globs((f.data or {}).get("globs"))) or []
        return [g for g in found if not g.startswith("!")]

    def pattern_matches(self, pattern: str, path: str) -> bool:
        return minimatch_matches(pattern, path)

    def globs_match(self, globs: list[str], path: str) -> list[str]:
        return globs_match(globs, path)

    def decide(self, f: AgentFile, path: str) -> Decision:
        data = f.data or {}
        always = data.get("alwaysApply")
        regex = data.get("regex")
        if always is True:
            return self.load(f, "always")
        if self.codebase(f):
            folder = self.folder(f)
            if folder and not path.startswith(folder + "/"):
                return None  # a codebase rule looks only at the files in its folder
            hit = globs_match(self.globs(f) or [], path)
            if hit and regex and not self.contents_match(regex, path):
                hit = []
            return self.load(f, "glob", hit) if hit else None
        globs = _globs(data.get("globs"))
        if not globs and not regex and always is not False:
            return self.load(f, "always")
        if always is False and globs is None and regex is None:
            return maybe(f, "agent-decides") if data.get("description") else None
        hit = self.globs_match(globs, path) if globs else ["**"]
        if hit and regex and not self.contents_match(regex, path):
            hit = []
        if hit:
            return self.load(f, "glob", hit if globs else [])
        return None

    def contents_match(self, regex: Any, path: str) -> bool:
        """Continue tests `regex` (JavaScript RegExp) on the file's contents; Python's `re` stands in."""
        try:
            text = self.ctx.reads.read_text(self.ctx.root / path)
        except OSError:
            return False
        expressions = regex if isinstance(regex, list) else [regex]
        for expression in expressions:
            try:
                if re.search(str(expression), text):
                    return True
            except re.error:
                continue
        return False

    def on_invalid_yaml(self) -> str:
        return (f"Continue then reads the file without frontmatter, as a rule that applies always "
                f"({NOT_CONFIRMED}). Quote the values.")

    def file_traps(self, f: AgentFile) -> list[Problem]:
        out = super().file_traps(f)
        value = (f.data or {}).get("globs")
        if isinstance(value, str) and "," in value and "{" not in value:
            out.append(problem(
                f, f.line_of("globs"), "warning", "continue-globs-comma",
                f"Continue passes the `globs` string `{value}` to minimatch as one pattern, "
                "so the commas are "
                f"literal and it matches nothing. Write a YAML list: `globs: {_as_list(value)}`."))
        return out

    def nothing_traps(self, f: AgentFile) -> list[Problem]:
        value = (f.data or {}).get("globs")
        if isinstance(value, str) and "," in value and "{" not in value:
            return []
        return super().nothing_traps(f)
