"""Laravel Boost: what its agent finds through the committed `.ai/rules/index.md`.

The agent reads the index, matches the edited path against its globs itself, and reads the rule
files it points to (laravel/boost `RuleRepository`). Rule files without `paths` are not in the
index; the agent finds them only by searching the folder. The repository's `rules_for` and each
`Match.agents_see` say which files the committed index leads to.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rulelens.agents.base import Agent, Context
from rulelens.agents.facts import Fact
from rulelens.agents.model import AgentFile, Decision, Load, Maybe, Moment
from rulelens.agents.reading import parse_agent_text
from rulelens.rules.model import Problem


class Boost(Agent):
    id: ClassVar[str] = "boost"
    name: ClassVar[str] = "Boost"
    home: ClassVar[bool] = True
    facts = (
        Fact('files', '`.ai/rules/*.md`, `.ai/rules/boost/*.md` and the committed `index.md`',
             'laravel/boost@8d8cb70 src/Rules/RuleRepository.php', 'code', '2026-12-04'),
        Fact('loading', 'the agent reads the index and matches the edited path against its globs itself',
             'laravel/boost@8d8cb70 src/Rules/RuleRepository.php', 'code', '2026-12-04'),
    )
    keys = ("paths",)
    source = "laravel/boost src/Rules/RuleRepository.php"

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        repo = self.ctx.repo
        self.files = [] if repo is None else [parse_agent_text(r.text, r.rel, self.id, read_yaml=False)
                                             for r in repo.files]
        self.index: AgentFile | None = None
        if repo is not None and self.ctx.reads.is_file(repo.index_path):
            rel = f"{repo.rules_dir}/index.md"
            self.index = AgentFile(self.id, rel, "", repo.index_path.stat().st_size)

    # `.ai/rules` is read by the core's RuleRepository, and editors watch it on their own.
    file_globs = ()

    def discover(self) -> list[str]:
        return []

    def decide(self, f: AgentFile, path: str) -> Decision:
        repo = self.ctx.repo
        if repo is None:
            return None
        for m in repo.rules_for(path):
            if m.rule.rel == f.rel:
                if not m.agents_see:
                    return None
                return Load(f.rel, "glob", tuple(m.globs), len(m.rule.text.encode("utf-8")))
        rule = repo.file(f.rel)
        if rule is not None and not rule.lenient_paths:
            return Maybe(f.rel, "agent-decides")
        return None

    def view(self, path: str, on: Moment = "read") -> list[Load | Maybe]:
        repo = self.ctx.repo
        out: list[Load | Maybe] = []
        if repo is None or not self.files:
            return out
        if self.index is not None:
            out.append(Load(self.index.rel, "always", (), self.index.size))
        out.extend(Load(m.rule.rel, "glob", tuple(m.globs), len(m.rule.text.encode("utf-8")))
                   for m in repo.rules_for(path) if m.agents_see)
        out.extend(Maybe(r.rel, "agent-decides") for r in repo.files if not r.lenient_paths)
        return out

    def coverage_key(self, f: AgentFile) -> tuple[str, ...]:
        return (self.id, f.rel)

    def loads_for(self, f: AgentFile, paths: Sequence[str]) -> set[str]:
        """Only the files the rule's own globs select can be led to; test just those."""
        repo, listing = self.ctx.repo, self.ctx.listing
        rule = repo.file(f.rel) if repo is not None else None
        if rule is None or listing is None:
            return super().loads_for(f, paths)
        # The same list comes for every rule file (a map asks for all of them): one set for it.
        cached = self.__dict__.get("_wanted")
        if cached is None or cached[0] is not paths:
            cached = self.__dict__["_wanted"] = (paths, set(paths))
        wanted = cached[1]
        found = {p for item in rule.lenient_paths for p in listing.matching(item) if p in wanted}
        return repo.led_to(f.rel, found) if repo is not None else set()

    def traps(self) -> list[Problem]:
        return []  # Boost's own findings are `check`'s existing codes
