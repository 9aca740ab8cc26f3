"""GitHub Copilot CLI: Copilot's instruction files, and Claude Code's rules, read as the released
CLI reads them.

Modelled from Copilot CLI 1.0.102 itself (`@github/copilot-linux-x64`), run non-interactively
against a fake model server on 2026-12-05 and 2026-12-07 (tests/conformance/copilot_cli),
which outranks its docs where they differ. At the root it reads `.github/copilot-instructions.md`,
`.github/instructions/**/*.instructions.md`, `AGENTS.md`, `CLAUDE.md`, `GEMINI.md` and
`.claude/rules/**/*.md`, taking their `paths` as `applyTo`. A file without a real pattern (no
`applyTo`, or `""`, `**`, `*`, `**/*`) is pasted whole into the prompt at start; a file with one
is only listed for the model, and its text is injected after the agent views a matching file.
The same files in a folder below the root (`AGENTS.md`, `CLAUDE.md`, `GEMINI.md`,
`.github/copilot-instructions.md`, `.github/instructions`, `.claude/rules`) arrive after it views
a file below that folder: whole without a real pattern, else where the pattern matches the
path from the repository root (not from their folder). Only `view` brings them: a `create` or
an `edit` alone loads nothing beyond the start's files.
Patterns are matched by the `globset` crate (its `*` stops at `/`), case-sensitively, dotfiles
included, against the path from the repository root, with `./` stripped; a pattern without a
`/` matches the file name at any depth; a string is split on commas, list items are not.
`excludeAgent: "coding-agent"` (or `"cloud-agent"`) hides a file from it. Skills in
`.github/skills`, `.claude/skills` and `.agents/skills` are listed for the model, which picks one
by its description. VS Code's Copilot is another module (`copilot`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from rulelens.agents.base import GlobAgent, maybe, nested, problem
from rulelens.agents.facts import Fact
from rulelens.agents.imports import COPILOT_CLI, Imported, with_imports
from rulelens.agents.model import AgentFile, Decision, Load, Maybe, Moment
from rulelens.glob_engines.dialects import GLOBSET, matches, matching
from rulelens.glob_engines.dialects import split_glob_aware as dialect_split
from rulelens.rules.model import Problem
from rulelens.workspace.sorted_paths import starting_with

DOCS = "https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-custom-instructions"
PATH_DOCS = "github/docs@27958ca data/reusables/copilot/custom-instructions-path.md"
CHANGELOG = "github/copilot-cli@9532bda changelog.md"
REPO_WIDE = ".github/copilot-instructions.md"
INSTRUCTIONS = ".github/instructions/"
ALWAYS = ("", "**", "**/*", "*")
CLAUDE_RULES = ".claude/rules/"
RELEASE = "Copilot CLI 1.0.102"
RUN = ("@github/copilot-linux-x64@1.0.102 (npm), run against a fake model server "
       "(tests/conformance/copilot_cli)")
FOLDER_FILES = ("CLAUDE.md", "GEMINI.md")
# The project's skill folders, `<folder>/<name>/SKILL.md` (the binary's `/skills` help, and a run).
SKILLS = (".github/skills", ".claude/skills", ".agents/skills")
SKILLS_HELP = ("@github/copilot-linux-x64@1.0.102 (npm): cli-main.js, the `/skills` help (\"Project: "
               ".github/skills/, .agents/skills/, or .claude/skills/\"); run 2026-12-07: each listed in the "
               "first request")
# The `excludeAgent` values that keep a file from the coding agent (rulesync's name for it too).
CODING_AGENT = frozenset(("coding-agent", "cloud-agent"))


def split_outside_braces(value: str) -> list[str]:
    """`applyTo` split on its commas outside brackets and braces, counting nested braces: run,
    `{src/a/**/*.{ts,tsx},src/b/**/*.js}` is one pattern (122sp7/xuanwu-app's)."""
    return dialect_split(value, ",", nested=True)


class CopilotCli(GlobAgent):
    id: ClassVar[str] = "copilot-cli"
    name: ClassVar[str] = "Copilot CLI"
    release: ClassVar[str | None] = "1.0.102"
    facts = (
        Fact("files", "`.github/copilot-instructions.md` and `AGENTS.md` in the root, the working folder, "
             "the folders between, and the folders on the path to a file it works on; all combined", DOCS,
             "docs", "2026-12-04"),
        Fact("files", "`.github/instructions/**/*.instructions.md` and `.claude/rules/**/*.md` (whose "
             "`paths` it takes as `applyTo`); `AGENTS.md`, `CLAUDE.md`, `GEMINI.md`; at the root, and in "
             "any folder above a file it views, the nested ones arriving after the view, their patterns "
             "matched from the repository root", RUN, "code", "2026-12-07"),
        Fact("files", "skills: `.github/skills`, `.claude/skills` and `.agents/skills` (`<name>/SKILL.md`), "
             "listed for the model, which picks one by its description", SKILLS_HELP, "code", "2026-12-07"),
        Fact("loading", "moments: only `view` brings a path's files; `edit` and `create` load nothing beyond "
             "the start's files", RUN, "code", "2026-12-07"),
        Fact("keys", "`applyTo`: a string split on its commas outside braces (nested braces counted: "
             "`{a/**/*.{ts,tsx},b/**}` is one pattern), or a list whose items are not split; "
             "`excludeAgent: \"coding-agent\"` or `\"cloud-agent\"` hides the file from the CLI", RUN, "code",
             "2026-12-05"),
        Fact("loading", "no `applyTo`, or `\"\"`, `**`, `*`, `**/*`: pasted whole into the prompt at start; "
             "a real pattern: listed for the model, the text injected after the agent views a matching file",
             RUN, "code", "2026-12-05"),
        Fact("dialect", "the `globset` crate, `*` stopping at `/`, case-sensitive, dotfiles included, from "
             "the repository root, `./` stripped; a pattern without `/` matches the file name at any depth",
             RUN, "code", "2026-12-05"),
        Fact("loading", "`@path` imports in `AGENTS.md`, `CLAUDE.md`, `GEMINI.md` and "
             "`copilot-instructions.md` (not in `.instructions.md` or `.claude/rules` files, sent as "
             "written): an `@` not right after a letter, digit "
             "or one of `._%+-*[`, the path to the next whitespace less trailing punctuation, holding a `.` "
             "or `/`, not in fenced code or a code span (indented code and HTML comments are read); resolved "
             "from the importing file's folder, inside the repository (absolute and `~/` paths refused), "
             "eight levels deep; each inlined after the `@path` as an `<imported_custom_instruction>`; a "
             "missing file or a folder is skipped and the text left as written; a folder import is not "
             "expanded",
             RUN + ", its strings \"Skipping instruction import\", \"Could not resolve instruction import\"",
             "code", "2026-12-07"),
    )
    keys = ("applyTo",)
    flags = GLOBSET
    from_root = False  # a pattern without `/` matches at any depth
    source = f"{RELEASE}, run; {DOCS}"
    import_syntax = COPILOT_CLI  # its `@path` imports (agents/imports.py)
    import_code = "copilot-cli-import-missing"
    codes = frozenset(("copilot-cli-any-depth", "copilot-cli-import-missing"))
    borrows = ("AGENTS.md", *FOLDER_FILES, "SKILL.md")
    file_globs = ("**/.github/copilot-instructions.md", "**/.github/instructions/**/*.instructions.md",
                  "**/AGENTS.md", "**/.claude/rules/**/*.md", *(f"**/{n}" for n in FOLDER_FILES),
                  *(f"{d}/*/SKILL.md" for d in SKILLS))
    per_moment = True
    # Its probe runs the binary on whole projects (`view`); an edit and a create, run end to end
    # on 75 real repositories (bench/agents_e2e.py) and in tests/conformance/e2e, bring nothing
    # after the tool.
    end_to_end = frozenset(("read", "edit", "create"))

    def discover(self) -> list[str]:
        # Every path `folder_of` can accept ends with one of these: searched in bulk, then tested.
        maybe = {*self.ctx.named("AGENTS.md", REPO_WIDE, *FOLDER_FILES), *self.ctx.ending(".instructions.md")}
        found = {p for p in maybe if self.folder_of(p) is not None}
        # The root's instruction folder is read even when git ignores it (changelog 1.0.35).
        found.update(self.ctx.scan(".github/instructions", (".instructions.md",)))
        found.update(n for n in (REPO_WIDE, "AGENTS.md", *FOLDER_FILES) if self.ctx.is_file(n))
        found.update(self.ctx.scan(".claude/rules", (".md",)))
        for folder in nested(self.ctx, ".claude/rules"):
            found.update(self.ctx.scan(folder, (".md",)))
        found.update(p for d in SKILLS for p in self.ctx.scan(d, ("SKILL.md",))
                     if p.count("/") == 3 and p.endswith("/SKILL.md"))
        return sorted(found, key=lambda p: (_depth(self.folder_of(p) or ""), p))

    @staticmethod
    def folder_of(rel: str) -> str | None:
        """The folder whose files `rel` is one of: they load for the files below it, after a
        view of one where it is not the root (None when the CLI does not read it)."""
        head, name = rel.rpartition("/")[::2]
        if name in ("AGENTS.md", *FOLDER_FILES):
            return head
        if rel.startswith(CLAUDE_RULES) or rel.startswith(SKILLS):
            return ""
        if "/" + CLAUDE_RULES in rel:
            return rel.partition("/" + CLAUDE_RULES)[0]
        if rel == REPO_WIDE or rel.endswith("/" + REPO_WIDE):
            return rel[: -len(REPO_WIDE)].rstrip("/")
        if name.endswith(".instructions.md") and (rel.startswith(INSTRUCTIONS) or "/" + INSTRUCTIONS in rel):
            return "" if rel.startswith(INSTRUCTIONS) else rel.partition("/" + INSTRUCTIONS)[0]
        return None

    def glob_base(self, f: AgentFile) -> str:
        # Instruction files match from the repository root wherever they are (`scope` says where
        # they load); the others load for every file below their folder.
        return "" if self.is_instructions(f) else self.scope(f)

    def scope(self, f: AgentFile) -> str:
        """The folder below which `f` loads at all ("" for the root's files)."""
        return self.folder_of(f.rel) or ""

    @staticmethod
    def is_instructions(f: AgentFile) -> bool:
        return f.rel.endswith(".instructions.md") or _in_claude_rules(f.rel)

    @staticmethod
    def is_skill(f: AgentFile) -> bool:
        return f.rel.startswith(SKILLS)

    def compared(self, f: AgentFile) -> bool:
        return not self.is_skill(f)  # listed by its description: no key of its own scopes it

    def triggers(self, path: str, on: Moment) -> bool:
        return on == "read"  # only `view` brings a path's files (run: `create`, `edit` alone)

    def moment_note(self, path: str, on: Moment) -> str | None:
        if on == "read":
            return None
        return (f"Copilot CLI loads a path's instruction files when it views the file, not when it "
                f"{'edits' if on == 'edit' else 'creates'} it (run, {RELEASE}): only the start's files here"
                + ("; viewing the file first brings the rest" if on == "edit" else ""))

    def fields(self, f: AgentFile) -> dict[str, Any]:
        return f.data if f.data is not None else {}

    def split_value(self, value: str) -> list[str] | None:
        return [p.strip() for p in split_outside_braces(value) if p.strip()]

    def patterns(self, f: AgentFile) -> list[str]:
        if not self.is_instructions(f):
            return []
        value = self.fields(f).get("paths" if _in_claude_rules(f.rel) else "applyTo")
        if isinstance(value, str):
            return self.split_value(value) or []
        if isinstance(value, list):
            return [str(v).strip() for v in value if isinstance(v, str) and v.strip()]
        return []

    def key_line(self, f: AgentFile) -> int:
        return f.line_of("paths" if _in_claude_rules(f.rel) else "applyTo")

    def excluded(self, f: AgentFile) -> bool:
        """Whether `excludeAgent` keeps `f` from the coding agent, and so from the CLI."""
        value = self.fields(f).get("excludeAgent")
        values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        return any(isinstance(v, str) and v.strip().lower() in CODING_AGENT for v in values)

    def pattern_matches(self, pattern: str, path: str) -> bool:
        effective = _effective(pattern)
        return effective is None or matches(effective, path, self.flags)

    def hits_among(self, pattern: str, paths: Iterable[str]) -> Iterator[str]:
        # `pattern_matches` for every project path: the pattern read once, and the paths without
        # its literal ending (`.ts` of `**/*.ts`), which `matches` turns away first, skipped here.
        effective = _effective(pattern)
        if effective is None:
            return iter(paths)
        return matching(effective, self.flags, paths)

    def scanned(self, pattern: str) -> Iterable[str]:
        # A pattern with a `/` is matched from the root, case-sensitively: a path it matches
        # starts with its leading plain folder names (`src/app` of `src/app/**/*.ts`).
        effective = _effective(pattern)
        prefix = _plain_prefix(effective) if effective is not None else ""
        return starting_with(self.ctx.paths, prefix) if prefix else self.ctx.paths

    def decide(self, f: AgentFile, path: str) -> Decision:
        if self.is_skill(f):
            return maybe(f, "agent-decides")  # listed; the model picks it by its description
        if self.excluded(f):
            return None
        scope = self.scope(f)
        if scope and not path.startswith(scope + "/"):
            return None  # another folder's files: the CLI reads them only on the way to a file there
        how = "directory" if scope else "always"
        if not self.is_instructions(f):
            return self.load(f, how)
        patterns = self.patterns(f)
        if all(p in ALWAYS for p in patterns):
            return self.load(f, how)  # whole: at start at the root, after the view below it
        hits = self.matching(patterns, path)  # root-relative: each pattern's hits are remembered
        return self.load(f, "glob", hits[:1]) if hits else None

    def glob_loads(self, f: AgentFile) -> list[str] | None:
        # A root instruction file with a real pattern loads exactly where one of its patterns
        # matches the root-relative path (`decide`): its coverage is the patterns' remembered hits.
        if self.is_skill(f):
            return []
        if not self.is_instructions(f) or self.excluded(f) or self.scope(f):
            return None
        patterns = self.patterns(f)
        return None if all(p in ALWAYS for p in patterns) else patterns

    def loads_for(self, f: AgentFile, paths: Sequence[str]) -> set[str]:
        """The paths below the file's folder; an instruction file's, only those its `applyTo` matches."""
        if self.excluded(f) or self.is_skill(f):
            return set()
        base = self.scope(f)
        scope = starting_with(paths, base + "/") if base else paths
        patterns = self.patterns(f)
        if not self.is_instructions(f) or all(p in ALWAYS for p in patterns):
            return set(scope)
        return super().loads_for(f, scope) if scope else set()

    def folder_loads(self, f: AgentFile) -> str | None:
        """A nested file without a real pattern: whole for every file below its folder."""
        scope = self.scope(f)
        if not scope or self.excluded(f) or self.is_skill(f):
            return None
        if self.is_instructions(f) and not all(p in ALWAYS for p in self.patterns(f)):
            return None
        return scope

    def matches_any_in(self, f: AgentFile, pattern: str) -> bool:
        """A nested instruction file's pattern, from the root, against the files below its folder."""
        base = self.scope(f)
        if not base or not self.is_instructions(f):
            return super().matches_any_in(f, pattern)
        return any(p.startswith(base + "/") for p in self.pattern_hits(pattern))

    def view(self, path: str, on: Moment = "read") -> list[Load | Maybe]:
        ordered = sorted(super().view(path, on), key=lambda d: _depth(self.folder_of(d.file) or ""))
        return with_imports(ordered, self.imports_of)  # each file's `@path` imports in its place

    def imports_of(self, rel: str) -> list[Imported]:
        """What `rel`'s `@path` imports load: those of `AGENTS.md`, `CLAUDE.md`, `GEMINI.md` and
        `copilot-instructions.md`; a `.instructions.md` or `.claude/rules` file is sent as written."""
        f = self.file(rel)
        if f is None or self.is_instructions(f) or "@" not in f.text:
            return []
        return self.follower().of(rel, f.text)

    def coverage_key(self, f: AgentFile) -> tuple[str, ...]:
        return (self.id, f.rel)

    def file_traps(self, f: AgentFile) -> list[Problem]:
        if self.is_skill(f):
            return []  # Claude Code's and VS Code's findings cover a skill's frontmatter
        # A `.claude/rules` file's YAML is Claude Code's finding: one finding per cause.
        out = [] if _in_claude_rules(f.rel) else super().file_traps(f)
        if f.rel.endswith(REPO_WIDE):
            out = [self._whole_anyway(p) if p.code == "agent-yaml-invalid" else p for p in out]
        if f.rel.endswith(".instructions.md") and not self.excluded(f):
            out.extend(self.any_depth_traps(f))
        if "@" in f.text and not self.is_instructions(f):
            out.extend(self.import_traps(f))
        return out

    @staticmethod
    def _whole_anyway(p: Problem) -> Problem:
        """Invalid YAML atop `copilot-instructions.md` changes nothing Copilot CLI loads: it sends
        the file whole, frontmatter and all, at every start, valid or not (run against a fake model)."""
        return replace(p, severity="info", message=
                       f"{p.message.split(' (', 1)[0]}, but it loads this file whole at every start, "
                       f"frontmatter included, whether its YAML reads or not (confirmed by running "
                       f"{RELEASE}), and no key here changes that. Quote the values for other tools, or "
                       "drop the frontmatter.")

    def import_message(self, path: str, named: str, why: str) -> str:
        """Copilot CLI skips an import that loads no file (its log says why) and leaves the text as
        written."""
        what = {
            "missing": (f"`{named}`, which the project does not have "
                        "(\"Could not resolve instruction import\")"),
            "folder": f"`{named}`, a folder (\"is not a file\")",
            "absolute": ("an absolute or home path "
                         "(\"absolute and home-relative imports are not allowed\")"),
        }.get(why, "a file outside the project (\"outside the allowed instruction import root\")")
        return (f"Copilot CLI reads `@{path}` as an import of {what}: it skips it and leaves the text "
                f"as written, so the model gets no file (confirmed by running {RELEASE}). Name a file of "
                "the project, relative to this file, or write it in backticks to keep it as text.")

    def nothing_patterns(self, f: AgentFile) -> list[str]:
        return [] if self.is_skill(f) else self.patterns(f)

    def any_depth_traps(self, f: AgentFile) -> list[Problem]:
        """An `applyTo` pattern without a folder, which Copilot CLI matches against the file name in
        every folder, where that reaches nested project files a root-only reading would not."""
        out: list[Problem] = []
        for pattern in self.patterns(f):
            name = pattern
            while name.startswith("./"):
                name = name[2:]
            if "/" in name or name in ALWAYS or name.startswith("!"):
                continue
            # The project's own files first: the instruction files matching themselves say little.
            nested = sorted((p for p in self.pattern_hits(pattern) if "/" in p),
                            key=lambda p: (p.startswith("."), p))
            if not nested:
                continue
            such = f"`{nested[0]}`" + (" and more" if len(nested) > 1 else "")
            out.append(problem(
                f, self.key_line(f), "info", "copilot-cli-any-depth",
                f"Copilot CLI matches `{pattern}`, a pattern without a folder, against the file name in "
                f"every folder, so this file also loads for {such} (confirmed by running {RELEASE}). If "
                f"you meant the root's files only: a leading `/` does not anchor it (`/{name}` matches no "
                "file) and no pattern without a folder stays at the root; name the folders instead "
                "(`src/*.ts`)."))
        return out


def _in_claude_rules(rel: str) -> bool:
    return rel.startswith(CLAUDE_RULES) or "/" + CLAUDE_RULES in rel


def _effective(pattern: str) -> str | None:
    """The glob the CLI matches for `pattern`: `./` stripped, `**/` before a pattern without a
    `/`; None for one that matches every path."""
    while pattern.startswith("./"):
        pattern = pattern[2:]
    if pattern in ALWAYS:
        return None
    return pattern if "/" in pattern else "**/" + pattern


def _plain_prefix(pattern: str) -> str:
    """The leading segments of `pattern` that are names of letters, digits, `.`, `_` and `-`
    (not `.` or `..`) and followed by another segment: text every match starts with, in any
    reading of a glob."""
    out: list[str] = []
    for segment in pattern.split("/")[:-1]:
        if segment in ("", ".", "..") or not _PLAIN_NAME.issuperset(segment):
            break
        out.append(segment)
    return "/".join(out)


_PLAIN_NAME = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


def _depth(folder: str) -> int:
    return folder.count("/") + 1 if folder else 0
