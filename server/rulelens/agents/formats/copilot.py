"""GitHub Copilot in VS Code: `.github/instructions/**/*.instructions.md` by `applyTo`, and
`.github/copilot-instructions.md` always.

Source: microsoft/vscode `computeAutomaticInstructions.ts` (`_matches`): `applyTo` split on
commas outside braces, each trimmed; `**`, `**/*` and `*` always attach; a pattern not starting
with `/` or `**/` gets `**/` prepended; matched case-insensitively against the file's absolute
path. Files not attached are listed for the model to read on its own. That is the VS Code
surface; the Copilot CLI is its own module (`copilot_cli`), and GitHub.com's coding agent and
code review read the same files with their own rules, which rulelens does not model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rulelens.agents.base import GlobAgent, literal_prefix, maybe, problem, scan
from rulelens.agents.facts import Fact
from rulelens.agents.model import AgentFile, Decision, Load
from rulelens.glob_engines.dialects import VSCODE, vscode_matches
from rulelens.glob_engines.dialects import split_glob_aware as dialect_split
from rulelens.rules.model import Problem

ALWAYS = ("**", "**/*", "*")
REPO_WIDE = ".github/copilot-instructions.md"
SURFACE = "Copilot in VS Code"


def split_glob_aware(value: str) -> list[str]:
    """VS Code's `splitGlobAware(pattern, ',')`: commas inside `{}` or `[]` do not split."""
    return dialect_split(value, ",")


def pattern_matches(pattern: str, absolute: str) -> bool:
    """One trimmed `applyTo` pattern against a file's absolute path, as `_matches` tests it."""
    if pattern in ALWAYS:
        return True
    if not pattern.startswith(("/", "**/")):
        pattern = "**/" + pattern
    return vscode_matches(pattern, absolute)


def applies(apply_to: str, absolute: str) -> str | None:
    """The first pattern of an `applyTo` string that attaches the file at `absolute`."""
    patterns = (q.strip() for q in split_glob_aware(apply_to))
    return next((p for p in patterns if p and pattern_matches(p, absolute)), None)


class Copilot(GlobAgent):
    id: ClassVar[str] = "copilot"
    name: ClassVar[str] = SURFACE
    facts = (
        Fact('files', '`.github/copilot-instructions.md` always; '
             '`.github/instructions/**/*.instructions.md` by `applyTo`',
             'microsoft/vscode '
             'src/vs/workbench/contrib/chat/common/promptSyntax/computeAutomaticInstructions.ts',
             'code', '2026-12-03'),
        Fact('keys', '`applyTo` split on commas outside braces; `**`, `**/*`, `*` always; `**/` '
             'prepended unless the pattern starts with `/` or `**/`',
             'microsoft/vscode computeAutomaticInstructions.ts (`_matches`)', 'code', '2026-12-03'),
        Fact('dialect', "VS Code's `glob.ts`, case-insensitive, against the absolute path",
             'microsoft/vscode computeAutomaticInstructions.ts (`_matches`)', 'code', '2026-12-03'),
        Fact('keys', '`excludeAgent: "code-review" | "coding-agent"` keeps a file from those GitHub '
             'surfaces; VS Code ignores it, so it counts such a file',
             'github/docs@27958ca data/reusables/copilot/custom-instructions-path.md; microsoft/vscode '
             '#299075 (maintainer: used only when Copilot runs on github.com)', 'docs', '2026-12-04'),
    )
    keys = ("applyTo",)
    flags = VSCODE
    from_root = False  # absolute paths, case-insensitive
    source = "microsoft/vscode computeAutomaticInstructions.ts"

    codes = frozenset(("copilot-applyto-elsewhere", "copilot-no-applyto"))
    file_globs = (".github/copilot-instructions.md", ".github/instructions/**/*.instructions.md")

    def split_value(self, value: str) -> list[str] | None:
        return [p.strip() for p in split_glob_aware(value) if p.strip()]  # as VS Code splits it

    def discover(self) -> list[str]:
        found = scan(self.ctx.root, ".github/instructions", (".instructions.md",))
        if (self.ctx.root / REPO_WIDE).is_file():
            found.insert(0, REPO_WIDE)
        return found

    def patterns(self, f: AgentFile) -> list[str]:
        value = f.data.get("applyTo") if f.data is not None else None
        return [p.strip() for p in split_glob_aware(value) if p.strip()] if isinstance(value, str) else []

    def effective(self, pattern: str) -> str:
        return pattern if pattern.startswith(("/", "**/")) else "**/" + pattern

    def absolute(self, path: str) -> str:
        return f"{self.ctx.root.as_posix().rstrip('/')}/{path}"

    def pattern_matches(self, pattern: str, path: str) -> bool:
        return pattern_matches(pattern, self.absolute(path))

    def candidates(self, pattern: str) -> Sequence[str]:
        """The paths holding the pattern's literal folders (after the prepended `**/`), case
        folded: a match needs them, unless the root's own absolute path holds them."""
        if pattern.startswith("/") or pattern in ALWAYS:
            return self.ctx.paths
        rest = pattern
        while rest.startswith("**/"):
            rest = rest[3:]
        prefix = literal_prefix(rest).casefold()
        if not prefix or prefix.split("/")[0] in self.ctx.root.as_posix().casefold():
            return self.ctx.paths
        return self.ctx.holding(f"/{prefix}/", casefold=True)

    def loads_for(self, f: AgentFile, paths: Sequence[str]) -> set[str]:
        """Only the paths some pattern's candidates hold can match (a file loads by its patterns
        alone, or always): test just those."""
        if f.rel == REPO_WIDE or any(p in ALWAYS for p in self.patterns(f)):
            return set(paths)
        wanted = set(paths)
        found = {c for p in self.patterns(f) for c in self.candidates(p) if c in wanted}
        return {p for p in found if isinstance(self.decide(f, p), Load)}

    def decide(self, f: AgentFile, path: str) -> Decision:
        if f.rel == REPO_WIDE:
            return self.load(f, "always")
        hit = next((p for p in self.patterns(f) if self.pattern_matches(p, path)), None)
        if hit is not None:  # VS Code stops at the first pattern that matches
            return self.load(f, "glob", [hit])
        return maybe(f, "agent-decides")

    def on_invalid_yaml(self) -> str:
        return (f"{SURFACE} then finds no `applyTo`, so it never attaches this file by pattern; it only "
                "lists it for the model to read on its own (documented behaviour not confirmed). "
                "Quote the value: `applyTo: \"src/**/*.ts\"`.")

    def nothing_hint(self, pattern: str) -> str:
        if pattern.startswith("/"):
            return (f" ({SURFACE} matches a pattern starting with `/` against the file's absolute path, "
                    f"so `{pattern}` would have to start at the file system root; drop the `/`)")
        return ""

    def elsewhere(self, pattern: str) -> list[str]:
        """Files the relative `pattern` attaches for only because of the prepended `**/`."""
        cache: dict[str, list[str]] = self.__dict__.setdefault("_elsewhere", {})
        if pattern not in cache:
            cache[pattern] = [p for p in self.candidates(pattern)
                              if self.pattern_matches(pattern, p) and not vscode_matches(pattern, p)]
        return cache[pattern]

    def file_traps(self, f: AgentFile) -> list[Problem]:
        out = super().file_traps(f)
        if f.rel != REPO_WIDE and f.yaml_error is None and not self.patterns(f):
            out.append(problem(
                f, 0, "info", "copilot-no-applyto",
                f"No `applyTo`: {SURFACE} only lists this file for the model to read by its description; "
                "GitHub.com's coding agent and code review and the Copilot CLI apply instruction files by "
                "`applyTo` alone, so they never use it. Add `applyTo` if it is for certain files."))
        for pattern in self.patterns(f):
            if pattern in ALWAYS or pattern.startswith(("/", "**/")) or "/" not in pattern.rstrip("/"):
                continue
            elsewhere = self.elsewhere(pattern)
            if elsewhere:
                shown = ", ".join(f"`{p}`" for p in elsewhere[:3])
                more = f" and {len(elsewhere) - 3} more" if len(elsewhere) > 3 else ""
                out.append(problem(
                    f, f.line_of("applyTo"), "warning", "copilot-applyto-elsewhere",
                    f"{SURFACE} prepends `**/` to the relative `applyTo` `{pattern}`, so it also "
                    f"attaches this file for {shown}{more} in other folders. Make the glob name a folder "
                    "only this one has; VS Code has no root anchor (a leading `/` is matched against "
                    "the absolute path)."))
        return out
