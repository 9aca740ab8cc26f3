"""GitHub Copilot CLI: Copilot's instruction files, read in every folder on the way to the file.

The CLI reads `.github/copilot-instructions.md`, `.github/instructions/**/*.instructions.md` and
`AGENTS.md` in the repository root, the working folder, the folders between them, and the
folders on the path to a file it works on; `CLAUDE.md` and `GEMINI.md` at the root. All of them
are combined. rulelens takes the root as the working folder, so the files in the root and in
each folder down to the edited file's count.

An instruction file applies by `applyTo` (a string split on commas, or a list since 1.0.x), matched
from its folder: GitHub's examples have `*.py` match the root's files only and `src/*.py` not
`src/foo/bar.py`; `**`, `**/*` and `*` mean every file. Files with a narrower `applyTo` are
listed in a table the model reads from, not inlined. `excludeAgent: "coding-agent"` (GitHub's
docs; rulesync writes `cloud-agent`) keeps a file from Copilot's coding agent, which rulelens
takes the CLI to be: such a file is not counted for it. VS Code's Copilot is another module
(`copilot`): it reads only the root's files, and ignores `excludeAgent`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rulelens.agents.base import GlobAgent, scan
from rulelens.agents.facts import Fact
from rulelens.agents.model import AgentFile, Decision, Load, Maybe
from rulelens.glob_engines.dialects import UNDOCUMENTED, matches
from rulelens.glob_engines.dialects import split_glob_aware as dialect_split
from rulelens.rules.project.sorted_paths import starting_with

DOCS = "https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-custom-instructions"
PATH_DOCS = "github/docs@27958ca data/reusables/copilot/custom-instructions-path.md"
CHANGELOG = "github/copilot-cli@9532bda changelog.md"
REPO_WIDE = ".github/copilot-instructions.md"
INSTRUCTIONS = ".github/instructions/"
ALWAYS = ("**", "**/*", "*")
ROOT_ONLY = ("CLAUDE.md", "GEMINI.md")
# The `excludeAgent` values that keep a file from the coding agent (rulesync's name for it too).
CODING_AGENT = frozenset(("coding-agent", "cloud-agent"))


class CopilotCli(GlobAgent):
    id: ClassVar[str] = "copilot-cli"
    name: ClassVar[str] = "Copilot CLI"
    facts = (
        Fact("files", "`.github/copilot-instructions.md`, `.github/instructions/**/*.instructions.md` and "
             "`AGENTS.md` in the root, the working folder, the folders between, and the folders on the path "
             "to a file it works on; all combined", DOCS, "docs", "2026-12-04"),
        Fact("files", "`CLAUDE.md` and `GEMINI.md` at the repository root",
             "github/docs@0afe69c content/copilot/how-tos/copilot-cli/customize-copilot/"
             "add-custom-instructions.md", "docs", "2026-12-04"),
        Fact("keys", "`applyTo`: a string split on commas, or a list; `**`, `**/*`, `*` for every file",
             f"{PATH_DOCS}; https://github.com/github/docs/pull/41239; {CHANGELOG} (applyTo array)",
             "docs", "2026-12-04"),
        Fact("keys", "`excludeAgent: \"coding-agent\"` keeps a file from the coding agent, which rulelens "
             "takes the CLI to be (not documented); such a file is not counted", PATH_DOCS, "inferred",
             "2026-12-04"),
        Fact("loading", "a file with a narrower `applyTo` is listed in a table for the model, not inlined; "
             "without `applyTo` a file applies by pattern to nothing", CHANGELOG, "docs", "2026-12-04"),
        Fact("dialect", "from the file's folder: `*.py` matches the root's files only, `src/*.py` not "
             "`src/a/b.py` (GitHub's examples); the matcher library is not documented", PATH_DOCS, "inferred",
             "2026-12-04"),
    )
    keys = ("applyTo",)
    flags = UNDOCUMENTED
    source = DOCS
    borrows = ("AGENTS.md", *ROOT_ONLY)
    file_globs = ("**/.github/copilot-instructions.md", "**/.github/instructions/**/*.instructions.md",
                  "**/AGENTS.md", *ROOT_ONLY)

    def discover(self) -> list[str]:
        # Every path `folder_of` can accept ends with one of these: searched in bulk, then tested.
        maybe = {*self.ctx.named("AGENTS.md", REPO_WIDE, *ROOT_ONLY), *self.ctx.ending(".instructions.md")}
        found = {p for p in maybe if self.folder_of(p) is not None}
        # The root's instruction folder is read even when git ignores it (changelog 1.0.35).
        found.update(scan(self.ctx.root, ".github/instructions", (".instructions.md",)))
        found.update(n for n in (REPO_WIDE, "AGENTS.md", *ROOT_ONLY) if (self.ctx.root / n).is_file())
        return sorted(found, key=lambda p: (_depth(self.folder_of(p) or ""), p))

    @staticmethod
    def folder_of(rel: str) -> str | None:
        """The folder whose files `rel` is one of (None when the CLI does not read it)."""
        head, name = rel.rpartition("/")[::2]
        if name == "AGENTS.md":
            return head
        if rel in ROOT_ONLY:
            return ""
        if rel == REPO_WIDE or rel.endswith("/" + REPO_WIDE):
            return rel[: -len(REPO_WIDE)].rstrip("/")
        if name.endswith(".instructions.md") and (rel.startswith(INSTRUCTIONS) or "/" + INSTRUCTIONS in rel):
            return "" if rel.startswith(INSTRUCTIONS) else rel.partition("/" + INSTRUCTIONS)[0]
        return None

    def glob_base(self, f: AgentFile) -> str:
        return self.folder_of(f.rel) or ""

    @staticmethod
    def is_instructions(f: AgentFile) -> bool:
        return f.rel.endswith(".instructions.md")

    def fields(self, f: AgentFile) -> dict[str, Any]:
        return f.data if f.data is not None else {}

    def split_value(self, value: str) -> list[str] | None:
        return [p.strip() for p in dialect_split(value, ",") if p.strip()]

    def patterns(self, f: AgentFile) -> list[str]:
        if not self.is_instructions(f):
            return []
        value = self.fields(f).get("applyTo")
        if isinstance(value, str):
            return self.split_value(value) or []
        if isinstance(value, list):
            return [str(v).strip() for v in value if isinstance(v, str) and v.strip()]
        return []

    def excluded(self, f: AgentFile) -> bool:
        """Whether `excludeAgent` keeps `f` from the coding agent, and so from the CLI."""
        value = self.fields(f).get("excludeAgent")
        values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        return any(isinstance(v, str) and v.strip().lower() in CODING_AGENT for v in values)

    def pattern_matches(self, pattern: str, path: str) -> bool:
        return pattern in ALWAYS or matches(pattern, path, self.flags)

    def decide(self, f: AgentFile, path: str) -> Decision:
        if self.excluded(f):
            return None
        inner = self.within(f, path)
        if inner is None:
            return None  # another folder's files: the CLI reads them only on the way to a file there
        how = "directory" if self.glob_base(f) else "always"
        if not self.is_instructions(f):
            return self.load(f, how)
        patterns = self.patterns(f)
        if any(p in ALWAYS for p in patterns):
            return self.load(f, how)
        if self.glob_base(f):
            hits = [p for p in patterns if self.pattern_matches(p, inner)]
        else:
            hits = self.matching(patterns, inner)  # root-relative: each pattern's hits are remembered
        return self.load(f, "glob", hits[:1]) if hits else None

    def loads_for(self, f: AgentFile, paths: Sequence[str]) -> set[str]:
        """The paths below the file's folder; an instruction file's, only those its `applyTo` matches."""
        if self.excluded(f):
            return set()
        base = self.glob_base(f)
        scope = starting_with(paths, base + "/") if base else paths
        if not self.is_instructions(f) or any(p in ALWAYS for p in self.patterns(f)):
            return set(scope)
        return super().loads_for(f, scope) if scope else set()

    def view(self, path: str) -> list[Load | Maybe]:
        return sorted(super().view(path), key=lambda d: _depth(self.folder_of(d.file) or ""))

    def coverage_key(self, f: AgentFile) -> tuple[str, ...]:
        return (self.id, f.rel)


def _depth(folder: str) -> int:
    return folder.count("/") + 1 if folder else 0
