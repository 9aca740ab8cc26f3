"""GitHub Copilot in VS Code: the instruction files VS Code attaches to a chat request, read
as VS Code 1.117.0's code reads them.

VS Code core, not the Copilot Chat extension, picks the files (`computeAutomaticInstructions.ts`,
`promptsServiceImpl.ts`, `promptFilesLocator.ts`, `promptFileParser.ts`); rulelens read them as
released (VS Code 1.117.0, compiled, as the npm package `@codingame/monaco-vscode-api` 36.2.7
ships it) and runs them on the same cases (tests/conformance/copilot_vscode). With the
settings at their defaults:

- every request: `.github/copilot-instructions.md`, and the workspace folder's own `AGENTS.md`,
  `CLAUDE.md`, `CLAUDE.local.md` and `.claude/CLAUDE.md` (names compared case-insensitively);
  nested `AGENTS.md` files are not read (`chat.useNestedAgentsMdFiles` is off);
- instruction files: `.github/instructions` and `.claude/rules`, each read five folders deep;
  `*.instructions.md` there, and in `.claude/rules` any `.md` but `README.md`. The pattern is
  `applyTo` (a string), or for a `.claude/rules` file its `paths` joined with `, ` (`**` without
  one); split on commas outside braces, each trimmed; `**`, `**/*` and `*` attach the file to
  every request; a pattern not starting with `/` or `**/` gets `**/` prepended and is matched
  case-insensitively against the file's absolute path (VS Code's `glob.ts`); the first pattern
  that matches decides. Every instruction file is also listed for the model to read on its own;
- skills: `.agents/skills`, `.github/skills` and `.claude/skills` (`<name>/SKILL.md`, with
  `chat.useAgentSkills` on by default), listed for the model, which loads one by its description.

The Copilot CLI is its own module (`copilot_cli`); GitHub.com's coding agent and code review
read the same files with their own rules, which rulelens does not model.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cached_property
from typing import Any, ClassVar

from rulelens.agents.base import Agent, GlobAgent, literal_prefix, maybe, problem
from rulelens.agents.facts import Fact
from rulelens.agents.model import AgentFile, Decision, named_together
from rulelens.glob_engines.dialects import VSCODE, vscode_matches, vscode_matching
from rulelens.glob_engines.dialects import split_glob_aware as dialect_split
from rulelens.rules.model import Problem, Severity
from rulelens.workspace.reads import Reads
from rulelens.workspace.sorted_paths import starting_with

ALWAYS = ("**", "**/*", "*")
REPO_WIDE = ".github/copilot-instructions.md"
SURFACE = "Copilot in VS Code"
RELEASE = "VS Code 1.117.0"
CODE = ("microsoft/vscode@1.117.0 (compiled, as @codingame/monaco-vscode-api@36.2.7 ships it on npm): "
        "src/vs/workbench/contrib/chat/common/promptSyntax/")
CHAT = "microsoft/vscode-copilot-chat@31acd00 package.json"
INSTRUCTIONS = ".github/instructions"
CLAUDE_RULES = ".claude/rules"
# The files VS Code attaches to every request, by folder: names compared case-insensitively
# (`findFilesInRoots`' `equalsIgnoreCase`).
EVERY_REQUEST = {"": ("AGENTS.md", "CLAUDE.md", "CLAUDE.local.md"), ".claude": ("CLAUDE.md",),
                 ".github": ("copilot-instructions.md",)}
# `resolveFilesAtLocation` goes into subfolders while its depth is below this.
MAX_DEPTH = 5
# The workspace's skill folders (`DEFAULT_SKILL_SOURCE_FOLDERS`), each skill `<name>/SKILL.md`.
SKILLS = (".agents/skills", ".github/skills", ".claude/skills")


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
    release: ClassVar[str | None] = "1.117.0"
    facts = (
        Fact('files', '`.github/copilot-instructions.md`, and the workspace folder\'s `AGENTS.md`, '
             '`CLAUDE.md`, `CLAUDE.local.md` and `.claude/CLAUDE.md` (names compared case-insensitively): '
             'attached to every request (`chat.useAgentsMdFile`, `chat.useClaudeMdFile` on by default)',
             CODE + 'service/promptsServiceImpl.ts (`listAgentInstructions`), utils/promptFilesLocator.ts '
             '(`findFilesInRoots`); chat.shared.contribution.ts (the defaults)', 'code', '2026-12-05'),
        Fact('files', '`github.copilot.chat.codeGeneration.useInstructionFiles` (copilot-instructions.md) '
             'is on by default', CHAT, 'code', '2026-12-05'),
        Fact('files', 'nested `AGENTS.md` files are read only with `chat.useNestedAgentsMdFiles` (off by '
             'default), and then only listed for the model',
             CODE + 'computeAutomaticInstructions.ts; service/promptsServiceImpl.ts (`listNestedAgentMDs`)',
             'code', '2026-12-05'),
        Fact('files', 'instruction files: `.github/instructions` and `.claude/rules`, each read five folders '
             'deep; `*.instructions.md`, and in `.claude/rules` any `.md` but `README.md`',
             CODE + 'config/promptFileLocations.ts (`getPromptFileType`), utils/promptFilesLocator.ts '
             '(`resolveFilesAtLocation`)', 'code', '2026-12-05'),
        Fact('keys', '`applyTo` (a string; a list is ignored), or a `.claude/rules` file\'s `paths` '
             '(a string or a list) joined with `, `, `**` without one; split on commas outside braces, '
             'trimmed',
             CODE + 'promptFileParser.ts (`evaluateApplyToPattern`), computeAutomaticInstructions.ts '
             '(`_matches`)', 'code', '2026-12-05'),
        Fact('loading', '`**`, `**/*`, `*` attach the file to every request; another pattern when it matches '
             'the attached file, the first that matches deciding; every instruction file is also listed '
             'for the model', CODE + 'computeAutomaticInstructions.ts', 'code', '2026-12-05'),
        Fact('dialect', "VS Code's `glob.ts`, case-insensitive, against the absolute path; `**/` prepended "
             "unless the pattern starts with `/` or `**/`",
             CODE + 'computeAutomaticInstructions.ts (`_matches`); src/vs/base/common/glob.ts', 'code',
             '2026-12-05'),
        Fact('files', 'skills: `.agents/skills`, `.github/skills`, `.claude/skills` (`<name>/SKILL.md`), '
             'listed for the model, which loads one by its description (`chat.useAgentSkills`, on by '
             'default)', CODE + 'config/promptFileLocations.ts (`DEFAULT_SKILL_SOURCE_FOLDERS`); '
             'chat.shared.contribution.ts (`chat.useAgentSkills` default)', 'code', '2026-12-07'),
        Fact('keys', '`excludeAgent: "code-review" | "coding-agent"` keeps a file from those GitHub '
             'surfaces; VS Code ignores it, so it counts such a file',
             'github/docs@27958ca data/reusables/copilot/custom-instructions-path.md; microsoft/vscode '
             '#299075 (maintainer: used only when Copilot runs on github.com)', 'docs', '2026-12-04'),
    )
    keys = ("applyTo",)
    flags = VSCODE
    from_root = False  # absolute paths, case-insensitive
    source = f"{RELEASE}'s own code (npm)"

    codes = frozenset(("copilot-applyto-elsewhere", "copilot-no-applyto", "copilot-empty-paths",
                       "copilot-too-deep", "copilot-not-instructions"))
    file_globs = (REPO_WIDE, ".github/instructions/**/*.md", "AGENTS.md", "CLAUDE.md",
                  "CLAUDE.local.md", ".claude/CLAUDE.md", ".claude/rules/**/*.md",
                  *(f"{d}/*/SKILL.md" for d in SKILLS))
    borrows = ("AGENTS.md", "CLAUDE.md", "CLAUDE.local.md", "SKILL.md")

    def split_value(self, value: str) -> list[str] | None:
        return [p.strip() for p in split_glob_aware(value) if p.strip()]  # as VS Code splits it

    @cached_property
    def _unread(self) -> dict[str, str]:
        """Instruction files it lists but never reads, with the code that says why (`discover`)."""
        return {}

    @cached_property
    def _prepended(self) -> dict[str, frozenset[str]]:
        """`prepended`'s answers, by rule file (filled by `_elsewhere_problems`)."""
        return {}

    @cached_property
    def _elsewhere(self) -> dict[str, list[str]]:
        """`elsewhere`'s answers, by pattern."""
        return {}

    def discover(self) -> list[str]:
        found: list[str] = []
        for folder, names in EVERY_REQUEST.items():
            where = self.ctx.root / folder if folder else self.ctx.root
            found += _named(where, folder, names, self.ctx.reads)
        unread = self._unread
        for folder in (INSTRUCTIONS, CLAUDE_RULES):
            for rel, depth in _walk(self.ctx.root, folder, self.ctx.reads):
                if self.is_instructions(rel):
                    if depth > MAX_DEPTH:
                        unread[rel] = "copilot-too-deep"
                    found.append(rel)
                elif folder == INSTRUCTIONS and depth <= MAX_DEPTH and _plain_markdown(rel):
                    unread[rel] = "copilot-not-instructions"
                    found.append(rel)
        found += [p for d in SKILLS for p in self.ctx.scan(d, ("SKILL.md",))
                  if p.count("/") == 3 and p.endswith("/SKILL.md")]
        return found

    @staticmethod
    def is_skill(f: AgentFile) -> bool:
        return f.rel.startswith(SKILLS)

    def compared(self, f: AgentFile) -> bool:
        return not self.is_skill(f)  # listed by its description: no key of its own scopes it

    def unread(self, f: AgentFile) -> str | None:
        """Why VS Code never reads `f`, a file rulelens found beside the ones it reads: the code of
        the finding that says so, or None."""
        found = self._unread
        return found.get(f.rel)

    def every_request(self, f: AgentFile) -> bool:
        """A file VS Code attaches to every request (never in an instructions folder)."""
        folder, _, name = f.rel.rpartition("/")
        return name.casefold() in {n.casefold() for n in EVERY_REQUEST.get(folder, ())}

    def in_claude_rules(self, rel: str) -> bool:
        """`isInClaudeRulesFolder`: the absolute path holds `/.claude/rules/`."""
        return "/.claude/rules/" in self.absolute(rel)

    def is_instructions(self, rel: str) -> bool:
        """`getPromptFileType(uri) === instructions`, for a file of an instructions folder."""
        name = rel.rpartition("/")[2]
        if name.endswith(".prompt.md"):
            return False
        if name.endswith(".instructions.md") or name == "copilot-instructions.md":
            return True
        if name.endswith((".chatmode.md", ".agent.md")) or name.casefold() == "skill.md":
            return False
        return name.endswith(".md") and name != "README.md" and self.in_claude_rules(rel)

    def patterns(self, f: AgentFile) -> list[str]:
        if self.every_request(f) or self.unread(f) or self.is_skill(f):
            return []
        if self.in_claude_rules(f.rel):  # `evaluateApplyToPattern`: `paths` joined, `**` without
            value = header_value(f, "paths")
            joined = "**" if value is None else value if isinstance(value, str) else ", ".join(value)
        else:
            one = header_value(f, "applyTo")
            joined = one if isinstance(one, str) else ""  # `getStringAttribute`: a list is no `applyTo`
        return [p.strip() for p in split_glob_aware(joined) if p.strip()]

    def key_line(self, f: AgentFile) -> int:
        return f.line_of("paths" if self.in_claude_rules(f.rel) else "applyTo")

    def effective(self, pattern: str) -> str:
        return pattern if pattern.startswith(("/", "**/")) else "**/" + pattern

    def absolute(self, path: str) -> str:
        return f"{self.ctx.root.as_posix().rstrip('/')}/{path}"

    def pattern_matches(self, pattern: str, path: str) -> bool:
        return pattern_matches(pattern, self.absolute(path))

    def hits_among(self, pattern: str, paths: Iterable[str]) -> Iterator[str]:
        # `pattern_matches` for every candidate path, with the root's absolute path made once.
        if pattern in ALWAYS:
            return iter(paths)
        effective = pattern if pattern.startswith(("/", "**/")) else "**/" + pattern
        return vscode_matching(effective, self.absolute(""), paths)

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

    def glob_loads(self, f: AgentFile) -> list[str] | None:
        # Attached exactly where one of its patterns matches (`decide`: the first that matches
        # only names it), unless it is attached to every request or never read.
        if self.is_skill(f):
            return []  # listed: the model picks it by its description
        if self.unread(f) or self.every_request(f):
            return None
        patterns = self.patterns(f)
        return patterns if patterns and not any(p in ALWAYS for p in patterns) else None

    def loads_for(self, f: AgentFile, paths: Sequence[str]) -> set[str]:
        """Each pattern's remembered hits, found among its candidates (`glob_loads`); every path
        for a file attached to every request, none for one it never reads or only lists."""
        if self.unread(f) or self.is_skill(f) or not paths:
            return set()
        patterns = self.patterns(f)
        if self.every_request(f) or any(p in ALWAYS for p in patterns):
            return set(paths)
        return super().loads_for(f, paths) if patterns else set()

    def decide(self, f: AgentFile, path: str) -> Decision:
        if self.is_skill(f):
            return maybe(f, "agent-decides")
        if self.unread(f):
            return None
        if self.every_request(f):
            return self.load(f, "always")
        for pattern in self.patterns(f):  # VS Code stops at the first pattern that matches
            if pattern in ALWAYS:
                return self.load(f, "always")  # attached without looking at the files
            if self.pattern_matches(pattern, path):
                return self.load(f, "glob", [pattern])
        return maybe(f, "agent-decides")  # listed for the model with its description

    def on_invalid_yaml(self) -> str:
        return (f"{SURFACE} then finds no `applyTo`, so it never attaches this file by pattern; it only "
                "lists it for the model to read on its own (documented behaviour not confirmed). "
                "Quote the value: `applyTo: \"src/**/*.ts\"`.")

    def nothing_patterns(self, f: AgentFile) -> list[str]:
        # A `.claude/rules` pattern starting with `./` matches nothing in Claude Code either:
        # `claude-dot-slash` says so, with the fix for both.
        if self.in_claude_rules(f.rel):
            return [p for p in self.patterns(f) if not p.startswith("./")]
        return self.patterns(f)

    def nothing_hint(self, pattern: str) -> str:
        if pattern.startswith("./"):
            return f" ({SURFACE} keeps the `./` as a folder named `.`, which no path has; drop the `./`)"
        if pattern.startswith("/"):
            return (f" ({SURFACE} matches a pattern starting with `/` against the file's absolute path, "
                    f"so `{pattern}` would have to start at the file system root; drop the `/`)")
        return ""

    def elsewhere(self, pattern: str) -> list[str]:
        """Files the relative `pattern` attaches for only because of the prepended `**/`."""
        cache = self._elsewhere
        if pattern not in cache:  # the pattern's remembered hits, which its coverage shares
            hits = self.pattern_hits(pattern)
            found = [p for p in self.candidates(pattern) if p in hits]
            written = set(vscode_matching(pattern, "", found))
            cache[pattern] = [p for p in found if p not in written]
        return cache[pattern]

    def _elsewhere_problems(self, f: AgentFile, key: str) -> list[Problem]:
        """`copilot-applyto-elsewhere`, one per file: the files the prepended `**/` attaches the
        rule for that none of its globs names as written (a file another glob of the rule names
        is attached either way), with the globs that cause it."""
        written = [p for p in self.patterns(f) if not p.startswith("!")]
        if any(p in ALWAYS for p in written):
            return []
        relative = [p for p in written if not p.startswith(("/", "**/")) and "/" in p.rstrip("/")]

        kinds = _language_kinds(written)

        def named(path: str) -> bool:  # attached as its globs are written (or any-depth by design)
            name = path.rpartition("/")[2]
            if kinds and "." in name and name.rpartition(".")[2].lower() in kinds:
                return True  # a rule about a language across folders means its every file
            return any(vscode_matches(q, path) if q in relative else self.pattern_matches(q, path)
                       for q in written)

        causes: list[str] = []
        extra: dict[str, None] = {}
        for pattern in relative:
            added = [p for p in self.elsewhere(pattern) if not named(p)]
            if added:
                causes.append(pattern)
                extra.update(dict.fromkeys(added))
        self._prepended[f.rel] = frozenset(extra)
        if not causes:
            return []
        rewrites = {c: self.narrower(f, c, named) for c in causes}
        message = _elsewhere_message(key, causes, sorted(extra))
        if all(rewrites.values()):  # a glob to write: it removes every extra file
            return [problem(f, self.key_line(f), "warning", "copilot-applyto-elsewhere",
                            f"{message} {_rewrite_words(rewrites, self.keeping(f))}")]
        return [problem(f, self.key_line(f), "info", "copilot-applyto-elsewhere",
                        f"{message}{NO_REWRITE}")]

    def prepended(self, f: AgentFile) -> frozenset[str]:
        """The files `f` attaches for only through the prepended `**/` (its
        `copilot-applyto-elsewhere`), which another agent's disagreement on them repeats."""
        known = self._prepended
        if f.rel not in known:
            key = "paths" if self.in_claude_rules(f.rel) else "applyTo"
            self._elsewhere_problems(f, key)
        return known.get(f.rel, frozenset())

    def written_hits(self, f: AgentFile, pattern: str) -> frozenset[str]:
        return super().written_hits(f, pattern) - frozenset(self.elsewhere(pattern))

    def keeping(self, f: AgentFile) -> list[Agent]:
        """The other agents that read `f` itself, whose files a rewrite must keep."""
        return [a for a in self.ctx.agents if a is not self and a.file(f.rel) is not None]

    def narrower(self, f: AgentFile, pattern: str, named: Callable[[str], bool]) -> str | None:
        """A glob for `pattern` with a longer literal start (`src/app/**/*` for `src/**/*`) that
        names the same files from the root, attaches for no file elsewhere in VS Code, and matches
        the same files for every other agent reading `f`: run through each one's matcher."""
        parts = pattern.split("/")
        depth = next((i for i, part in enumerate(parts) if any(c in part for c in "*?[{")), len(parts))
        if depth == 0 or depth == len(parts) or parts[depth] != "**":
            return None  # only a `**` after the literal folders can take a longer start
        start = "/".join(parts[:depth]) + "/"
        hits = [p for p in starting_with(self.ctx.paths, start) if vscode_matches(pattern, p)]
        if not hits:
            return None
        common = hits[0].split("/")[:-1]
        for hit in hits[1:]:
            folders = hit.split("/")[:-1]
            n = next((i for i, (x, y) in enumerate(zip(common, folders, strict=False)) if x != y),
                     min(len(common), len(folders)))
            common = common[:n]
        others = [(a, g) for a in self.keeping(f) if (g := a.file(f.rel)) is not None]
        for level in range(depth + 1, len(common) + 1):
            rewrite = "/".join([*common[:level], *parts[depth:]])
            if ([p for p in starting_with(self.ctx.paths, start) if vscode_matches(rewrite, p)] == hits
                    and not [p for p in self.elsewhere(rewrite) if not named(p)]
                    and all(a.written_hits(g, rewrite) == a.written_hits(g, pattern) for a, g in others)):
                return rewrite
        return None

    def for_setting(self, f: AgentFile) -> tuple[Severity | None, str] | None:
        """(severity, message) where `f` is the text a Copilot setting reads (copilot_settings.py)."""
        from rulelens.agents.formats.copilot_settings import for_setting, settings_in

        def text_of(rel: str) -> str | None:
            try:
                return self.ctx.reads.read_text(self.ctx.root / rel)
            except (OSError, UnicodeDecodeError):
                return None

        vscode = starting_with(self.ctx.paths, ".vscode/")
        return for_setting(f.rel, settings_in(vscode, text_of), lambda rel: rel in self.ctx.paths)

    def unread_problem(self, f: AgentFile, code: str) -> Problem:
        if code == "copilot-too-deep":
            return problem(
                f, 0, "warning", code,
                f"{SURFACE} reads instruction folders at most {MAX_DEPTH} folders deep ({RELEASE}'s code), "
                "so it never reads this file. Move it up.")
        name = f.rel.rpartition("/")[2]
        return problem(
            f, 0, "warning", code,
            f"{SURFACE} reads only `*.instructions.md` files in `.github/instructions` ({RELEASE}'s code), "
            f"so it never reads this file. Rename it `{name[:-3]}.instructions.md`.")

    def file_traps(self, f: AgentFile) -> list[Problem]:
        if self.every_request(f) or self.is_skill(f):
            return []
        unread = self.unread(f)
        if unread == "copilot-not-instructions":
            meant = self.for_setting(f)
            if meant is not None:  # a setting's text, not a chat rule: no rename
                severity, message = meant
                return [problem(f, 0, severity, unread, message)] if severity else []
        if unread is not None:
            return [self.unread_problem(f, unread)]
        claude = self.in_claude_rules(f.rel)
        # A `.claude/rules` file's YAML is Claude Code's finding: one finding per cause.
        out = [] if claude else super().file_traps(f)
        if claude and header_value(f, "paths") is not None and not self.patterns(f):
            out.append(problem(
                f, self.key_line(f), "warning", "copilot-empty-paths",
                f"{SURFACE} reads this empty `paths` as no pattern ({RELEASE}'s code), so it never attaches "
                "this rule, only lists it for the model; Claude Code loads it for every file. Remove "
                "`paths` to load it everywhere in both, or list the globs it is for."))
        elif not claude and f.yaml_error is None and not self.patterns(f):
            out.append(problem(
                f, 0, "info", "copilot-no-applyto",
                f"No `applyTo`: {SURFACE} only lists this file for the model to read by its description; "
                "GitHub.com's coding agent and code review apply instruction files by `applyTo` alone, so "
                "they never use it, and the Copilot CLI pastes it into every prompt. Add `applyTo` if it is "
                "for certain files."))
        key = "paths" if claude else "applyTo"
        out.extend(self._elsewhere_problems(f, key))
        return out


def _kinds(pattern: str) -> frozenset[str]:
    """The file extensions a glob's last segment names (`*.py`, `*.{ts,tsx}`); none for `src/**`."""
    last = pattern.rstrip("/").rpartition("/")[2]
    head, dot, ext = last.rpartition(".")
    if not dot or "*" not in head or "/" in ext:
        return frozenset()
    names = ext[1:-1].split(",") if ext.startswith("{") and ext.endswith("}") else [ext]
    return frozenset(n.strip().lower() for n in names if n.strip().isalnum())


def _language_kinds(written: list[str]) -> frozenset[str]:
    """The extensions of a rule about a language rather than a folder: every glob names files of
    an extension, and the globs name them in two or more top folders (`src/**/*.py`,
    `tests/**/*.py`, `scripts/**/*.py`). More files of those extensions elsewhere are meant too
    (Python standards fit every Python script); a rule for one folder's files
    (`src/components/journal/**/*.tsx`) names that folder, and a copy of it elsewhere is not."""
    kinds = [_kinds(p) for p in written]
    if not written or not all(kinds):
        return frozenset()
    tops = {p.lstrip("/").split("/", 1)[0] for p in written if "/" in p.lstrip("/")}
    return frozenset().union(*kinds) if len(tops) >= 2 else frozenset()


def _elsewhere_message(key: str, patterns: list[str], extra: list[str]) -> str:
    globs = ", ".join(f"`{p}`" for p in patterns)
    shown = ", ".join(f"`{p}`" for p in extra[:3])
    more = f" and {len(extra) - 3} more" if len(extra) > 3 else ""
    return (f"{SURFACE} prepends `**/` to the relative `{key}` {globs}, so it also attaches this file "
            f"for {shown}{more} in other folders, which none of the file's globs names.")


# Where no glob names the rule's files alone: VS Code has no root anchor.
NO_REWRITE = (" VS Code has no root anchor (a leading `/` is matched against the absolute path), and no "
              "glob with a longer start names these files alone: a fact with no fix here.")


def _rewrite_words(rewrites: dict[str, str | None], others: Sequence[Agent]) -> str:
    """The rewrites a warning names, and whom they keep the same files for."""
    said = " and ".join(f"`{new}` for `{old}`" for old, new in rewrites.items())
    kept = f"; {named_together([a.name for a in others])} load it for the same files as now" if others else ""
    return (f"Write {said}: it names a folder only the root has, so {SURFACE} attaches the file there "
            f"alone{kept}.")


def header_value(f: AgentFile, key: str) -> str | list[str] | None:
    """A frontmatter value as VS Code's own YAML reader gives it to the prompt file's header: a
    scalar's text, or a sequence's scalar items' texts; None where the key is absent or holds a
    mapping. VS Code's reader is lenient: it reads `paths:` as "", `~` as "~", and frontmatter
    YAML refuses (`- **/*.ts`, an alias to YAML), so where PyYAML has no answer the line-by-line
    reading stands in; `tests/conformance/copilot_vscode` holds both to VS Code's reader."""
    if f.data is not None and key in f.data:
        value = f.data[key]
        if value is None:
            loose = f.loose.get(key)
            return loose if isinstance(loose, str) else ""
        if isinstance(value, list):
            return [_text(v) for v in value if not isinstance(v, dict | list)]
        return None if isinstance(value, dict) else _text(value)
    if f.data is None and f.yaml_error is not None:
        loose = f.loose.get(key)
        if isinstance(loose, list):
            return [_unquoted(v) for v in loose]
        if isinstance(loose, str):
            if loose.startswith("["):  # an unclosed flow list: its items, as VS Code reads them
                return [_unquoted(v) for v in loose.strip("[]").split(",") if v.strip()]
            return _unquoted(loose)
    return None


def _text(value: Any) -> str:
    """A YAML scalar as written: VS Code keeps each scalar's text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _unquoted(text: str) -> str:
    text = text.strip()
    return text[1:-1] if len(text) > 1 and text[0] == text[-1] and text[0] in "'\"" else text


def _plain_markdown(rel: str) -> bool:
    """A Markdown file VS Code's file types leave out: not a prompt, agent, skill or README."""
    name = rel.rpartition("/")[2]
    if name in ("README.md",) or name.casefold() == "skill.md":
        return False
    return name.endswith(".md") and not name.endswith((".prompt.md", ".chatmode.md", ".agent.md"))


def _named(folder: Any, rel: str, names: tuple[str, ...], reads: Reads) -> list[str]:
    """The files of `folder` whose names are one of `names`, compared case-insensitively."""
    wanted = {n.casefold() for n in names}
    try:
        entries = reads.entries(folder)
    except OSError:
        return []
    return [f"{rel}/{e.name}" if rel else e.name for e in entries
            if e.name.casefold() in wanted and e.is_file()]


def _walk(root: Any, folder: str, reads: Reads) -> list[tuple[str, int]]:
    """Every file below `folder`, with how many folders below it its folder is (VS Code reads
    those at most MAX_DEPTH below: `resolveFilesAtLocation`); symlinks followed, each real folder
    once."""
    found: list[tuple[str, int]] = []
    seen: set[str] = set()

    def visit(rel: str, depth: int) -> None:
        path = root / rel
        real = os.path.realpath(path)
        if real in seen:
            return
        seen.add(real)
        try:
            entries = reads.entries(path)
        except OSError:
            return
        for e in entries:
            if e.is_file():
                found.append((f"{rel}/{e.name}", depth))
            elif e.is_dir():
                visit(f"{rel}/{e.name}", depth + 1)

    visit(folder, 0)
    return found
