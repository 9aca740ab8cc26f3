"""Claude Code: `.claude/rules/**/*.md` with `paths`, skills, and the `CLAUDE.md` files up the tree.

Modelled from Claude Code 2.1.337's own code (the JavaScript embedded in the npm package
`@anthropic-ai/claude-code-linux-x64`, read on 2026-12-05), which outranks its docs:
- `paths` (a string or a list, each string split on commas outside braces, trimmed,
  brace-expanded, a trailing `/**` removed) is matched by its rewrite of the `ignore` package
  (`glob_engines/ignore_js.py`), case-insensitively, against the path relative to the folder
  that holds `.claude/`;
- it never fails closed: frontmatter that does not parse (after one retry that quotes values
  holding YAML's special characters), a `paths` that is empty, `**` or neither a string nor a
  list, or a rule without `paths` at all (`globs:`, `applyTo:`) loads for every file;
- a file whose text after the frontmatter is blank is dropped.
tests/agents/released/claude_code compares this module with that code, case by case.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

from rulelens.agents.base import GlobAgent, maybe, problem
from rulelens.agents.facts import Fact
from rulelens.agents.import_syntax import looks_like_file, span
from rulelens.agents.imports import CLAUDE_CODE, Follower, Imported, named_file, with_imports
from rulelens.agents.model import AgentFile, Budget, Decision, Load, Maybe
from rulelens.glob_engines import ignore_js
from rulelens.glob_engines.dialects import UNDOCUMENTED
from rulelens.rules.format.reading import split_lines
from rulelens.rules.model import Problem

RULES = ".claude/rules"
OWN_INSTRUCTIONS = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")
SKILLS = ".claude/skills"
RELEASE = "Claude Code 2.1.337"
SOURCE = "@anthropic-ai/claude-code-linux-x64@2.1.337 (npm), its embedded JavaScript"
# The keys other agents use for a rule's globs, which Claude Code does not read.
OTHER_KEYS = ("globs", "applyTo")
# Claude Code's budget for brace expansion over one `paths` value: results and bytes.
_BRACE_RESULTS, _BRACE_BYTES = 1000, 4194304
# The retry's test for a value worth quoting, and the lines it quotes.
_SPECIAL = re.compile(r"[{}[\]*&#!|>%@`]|: ")
_KEY_LINE = re.compile(r"^([a-zA-Z_-]+):\s+(\S.*)$")


def split_paths(value: Any) -> list[str]:
    """The patterns Claude Code takes from a `paths` value: each string (a list's items too)
    split on commas outside braces, trimmed, then brace-expanded within one shared budget (past
    it a pattern stays unexpanded); anything but strings gives none."""
    budget = [_BRACE_RESULTS, _BRACE_BYTES]
    return [x for part in _comma_parts(value) for x in _expand(part, budget)]


def _comma_parts(value: Any) -> list[str]:
    if isinstance(value, list):
        return [x for item in value for x in _comma_parts(item)]
    if not isinstance(value, str):
        return []
    parts: list[str] = []
    current, depth = "", 0
    for ch in value:
        if ch == "," and depth == 0:
            if current.strip():
                parts.append(current.strip())
            current = ""
            continue
        depth += 1 if ch == "{" else -1 if ch == "}" else 0
        current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def _expand(pattern: str, budget: list[int]) -> list[str]:
    """Claude Code's brace expansion, by hand because no library reads its dialect (bracex is
    bash's): the first `{` at a time, its items split on commas at its own depth and trimmed, so
    braces nest and a single item expands too; a first `{` left open, or `{}`, stays as written."""
    if "{" not in pattern:
        return [pattern]
    out: list[str] = []
    stack = [pattern]
    while stack:
        current = stack.pop()
        found = _first_braces(current)
        if found is None:
            out.append(current)
            continue
        start, end, items = found
        budget[1] -= len(current)
        count = len(out) + len(stack) + len(items)
        if budget[1] < 0 or count > budget[0] or count * len(pattern) > budget[1]:
            return [pattern]
        stack.extend(current[:start] + item + current[end + 1:] for item in reversed(items))
    budget[0] -= len(out)
    budget[1] -= len(out) * len(pattern)
    return out


def _first_braces(text: str) -> tuple[int, int, list[str]] | None:
    """Where the first `{` opens and closes, with its items; None when it is open or empty."""
    start = text.find("{")
    depth, item_start = 0, start + 1
    items: list[str] = []
    for at in range(start, len(text)):
        ch = text[at]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                if at <= start + 1:
                    return None
                return start, at, [*items, text[item_start:at].strip()]
        elif ch == "," and depth == 1:
            items.append(text[item_start:at].strip())
            item_start = at + 1
    return None


def _truthy(value: Any) -> bool:
    """JavaScript's truth: an empty list or mapping is true, 0 and "" are not."""
    if isinstance(value, list | dict):
        return True
    return bool(value) and value == value  # NaN is false


def rule_patterns(value: Any) -> list[str] | None:
    """The patterns a rule's `paths` gives, or None where the rule loads for every file."""
    if not _truthy(value):
        return None
    found = [p[:-3] if p.endswith("/**") else p for p in split_paths(value)]
    found = [p for p in found if p]
    return None if all(p == "**" for p in found) else found


def skill_patterns(value: Any) -> list[str] | None:
    """A skill's: None where it has none, and the model picks it by its description."""
    return rule_patterns(value)


def quoted_retry(head: str) -> str:
    """The frontmatter as Claude Code's second try reads it: a `key: value` line whose value
    holds one of YAML's special characters is quoted (unless already quoted or a flow list),
    and leading tabs become two spaces each."""
    lines = []
    for line in head.split("\n"):
        m = _KEY_LINE.match(line)
        value = m.group(2) if m else ""
        if (m and not (len(value) > 1 and value[0] == value[-1] and value[0] in "\"'")
                and not _flow_list(value) and _SPECIAL.search(value)):
            line = f'{m.group(1)}: "' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        lines.append(line)
    return re.sub(r"^\t+", lambda t: "  " * len(t.group(0)), "\n".join(lines), flags=re.M)


def _flow_list(value: str) -> bool:
    if not (value.startswith("[") and value.endswith("]")):
        return False
    return isinstance(_yaml(value), list)


def _yaml(text: str) -> Any:
    import yaml  # only for a frontmatter the first reading refused

    try:
        return yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError):
        return _FAILED


_FAILED = object()


class ClaudeCode(GlobAgent):
    id: ClassVar[str] = "claude-code"
    name: ClassVar[str] = "Claude Code"
    facts = (
        Fact('files', '`.claude/rules/**/*.md` (recursive, symlinks followed); `CLAUDE.md`, '
             '`CLAUDE.local.md` and `.claude/CLAUDE.md` up the folder chain; with no `CLAUDE.md`, '
             '`AGENTS.md` and '
             '`.claude/AGENTS.md` in its place (a built-in plugin, on by default)',
             f'{SOURCE}: the memory file list and the agents-md plugin\'s file names', 'code', '2026-12-05'),
        Fact('files', '`.claude/skills/*/SKILL.md`: with `paths`, conditional like a rule; '
             'without, the model picks it by `description`',
             f'{SOURCE}: the skill loader\'s `paths` reading', 'code', '2026-12-05'),
        Fact('keys', '`paths`: a string or a list; every string split on commas outside braces, trimmed, '
             'brace-expanded, a trailing `/**` removed; other keys (`globs`, `applyTo`) are not read',
             f'{SOURCE}: the frontmatter\'s `paths` reading', 'code', '2026-12-05'),
        Fact('loading', 'no usable `paths` (none, empty, `**`, neither a string nor a list): at session '
             'start, for every file; with `paths`: when the agent reads a matching file',
             f'{SOURCE}: the rules walk', 'code', '2026-12-05'),
        Fact('loading', 'frontmatter that does not parse, after one retry that quotes values holding '
             'YAML\'s special characters: read as empty, so the rule loads for every file',
             f'{SOURCE}: the frontmatter parser', 'code', '2026-12-05'),
        Fact('loading', 'a file whose text after the frontmatter is blank is dropped',
             f'{SOURCE}: the memory file reader', 'code', '2026-12-05'),
        Fact('dialect', 'gitignore-style (its rewrite of the `ignore` package), case-insensitive, against '
             'the path relative to the folder that holds `.claude/`; a path starting with `..` never '
             'matches; a pattern that does not compile is dropped',
             f'{SOURCE}: the rules filter', 'code', '2026-12-05'),
        Fact('loading', '`@path` imports in `CLAUDE.md`, `CLAUDE.local.md`, `.claude/CLAUDE.md`, '
             '`.claude/rules` files, `AGENTS.md` read in their place, nested ones and imported files: an `@` '
             'starting a text token of its Markdown lexer (after whitespace, or inside `**…**`, `_…_`, '
             '`[…]`), not in code (fenced, indented, spans) or an HTML comment, not escaped (`\\@`); the '
             'path runs to the next whitespace, `#…` cut off, and must start `./`, `~/`, `/` or a letter, '
             'digit, `.`, `_` or `-`',
             f'{SOURCE}: `tVr` (the tokens walked), `oVr` (the paths kept), run against a fake model', 'code',
             '2026-12-07'),
        Fact('loading', 'an import resolves from the importing file\'s folder (`~/` from the home folder); '
             'each imported file is its own `Contents of` block right after its importer, four levels deep '
             '(a fifth is not read), each file once per load; a file outside the project (`~/` and `../` '
             'ones too) loads only where the user approved external imports; a missing file, a folder, a '
             'blank file or an extension not in its text list (`.png`) is skipped without a word',
             f'{SOURCE}: `lte` (depth `S7s` = 5, the processed set, `includeExternal`), `ASt` (`zKr`, '
             '"Skipping non-text file in @include"), run against a fake model', 'code', '2026-12-07'),
        Fact('loading', 'the imports of a `.claude/rules` file with `paths` load at session start with the '
             'unconditional files, whether or not the rule loads for the path',
             f'{SOURCE}: `HQe` keeps the imported files (which have no globs) in the unconditional pass; run '
             'against a fake model', 'code', '2026-12-07'),
        Fact('cap', 'docs recommend a `CLAUDE.md` under about 200 lines',
             'https://code.claude.com/docs/en/memory', 'docs', '2026-12-03'),
    )
    keys = ("paths",)
    flags = UNDOCUMENTED  # the plain-glob helpers' reading; matching goes through ignore_js
    from_root = False  # gitignore-style patterns match at any depth, and case-insensitively
    budget = Budget(200, "lines", "file", "Claude Code docs: keep CLAUDE.md under about 200 lines", True)
    source = "Claude Code 2.1.337's code (npm); code.claude.com memory docs"
    codes = frozenset(("claude-wrong-key", "claude-loads-always", "claude-dot-slash", "claude-empty-body",
                       "claude-import-missing"))

    borrows = ("AGENTS.md",)
    file_globs = ("**/CLAUDE.md", ".claude/rules/**/*.md", ".claude/skills/*/SKILL.md", "**/AGENTS.md")

    def split_value(self, value: str) -> list[str] | None:
        return split_paths(value)

    def discover(self) -> list[str]:
        memory = self.ctx.named("CLAUDE.md")
        if self.ctx.is_file("CLAUDE.md") and "CLAUDE.md" not in memory:
            memory.insert(0, "CLAUDE.md")
        # No instruction file of the project's own at the root: the root's AGENTS.md and
        # .claude/AGENTS.md instead, and nested ones on read.
        if not any(n in memory or self.ctx.is_file(n) for n in OWN_INSTRUCTIONS):
            claimed = {p.rpartition("/")[0] for p in memory}
            memory += [p for p in self.ctx.named("AGENTS.md")
                       if p.rpartition("/")[0] not in claimed and p != ".claude/AGENTS.md"]
            for name in (".claude/AGENTS.md", "AGENTS.md"):
                if self.ctx.is_file(name) and name not in memory:
                    memory.insert(0, name)
        skills = [p for p in self.ctx.scan(SKILLS, ("SKILL.md",)) if p.count("/") == 3]
        return [*memory, *self.ctx.scan(RULES, (".md",)), *skills]

    @staticmethod
    def is_memory(f: AgentFile) -> bool:
        return not f.rel.startswith((RULES + "/", SKILLS + "/"))

    @staticmethod
    def is_skill(f: AgentFile) -> bool:
        return f.rel.startswith(SKILLS + "/")

    def frontmatter(self, f: AgentFile) -> dict[str, Any]:
        """The frontmatter as Claude Code reads it: a second try with special values quoted
        where the first fails; a mapping, else empty."""
        if f.data is not None:
            return f.data
        if not f.has_frontmatter or not f.head.strip():
            return {}
        cache: dict[str, dict[str, Any]] = self.__dict__.setdefault("_retried", {})
        if f.rel not in cache:
            data = _yaml(quoted_retry(f.head))
            cache[f.rel] = data if isinstance(data, dict) else {}
        return cache[f.rel]

    def unparsed(self, f: AgentFile) -> bool:
        """Whether Claude Code reads no frontmatter where the file has one (it then loads always)."""
        if f.data is not None or not f.has_frontmatter or not f.head.strip():
            return False
        return not self.frontmatter(f) and _yaml(quoted_retry(f.head)) is _FAILED

    def rule_globs(self, f: AgentFile) -> list[str] | None:
        return rule_patterns(self.frontmatter(f).get("paths"))

    def patterns(self, f: AgentFile) -> list[str]:
        """As written (`src/**`, each comma part apart): `pattern_matches` reads each as Claude Code does."""
        if self.is_memory(f) or self.rule_globs(f) is None:
            return []
        return _comma_parts(self.frontmatter(f).get("paths"))

    def pattern_matches(self, pattern: str, path: str) -> bool:
        if path.startswith(".."):
            return False
        return ignore_js.ignores([p[:-3] if p.endswith("/**") else p for p in split_paths(pattern)], path)

    def hits_among(self, pattern: str, paths: Iterable[str]) -> Iterator[str]:
        # `check` asks each pattern of every file about every project path: `ignored` tests each
        # folder once for all the paths below it, where `ignores` tests it again for each path.
        rules = [p[:-3] if p.endswith("/**") else p for p in split_paths(pattern)]
        if isinstance(paths, list) and paths is self.ctx.paths:
            # the project's sorted list: answered mostly in C (the `..` paths, one slice, left out)
            start = bisect_left(paths, "..")
            end = bisect_left(paths, "./", start)  # "/" follows "."
            kept = paths[:start] + paths[end:] if end > start else paths
            return iter(ignore_js.ignored_sorted(rules, kept))
        return ignore_js.ignored(rules, (p for p in paths if not p.startswith("..")))

    def matches_any(self, pattern: str) -> bool:
        # Every path's answer at once costs little more than the first one's here, and copies of
        # a rule share its patterns with the coverage `check` reads next.
        return bool(self.pattern_hits(pattern))

    def folder_loads(self, f: AgentFile) -> str | None:
        if not self.is_memory(f) or not f.body:
            return None
        return f.rel.rpartition("/")[0].removesuffix(".claude").rstrip("/") or None

    def glob_loads(self, f: AgentFile) -> list[str] | None:
        if self.is_memory(f):
            return None
        if not f.body:
            return []  # dropped: it loads for no path
        found = self.rule_globs(f)
        if found is None:
            return [] if self.is_skill(f) else None  # picked by its description, else always
        return None if any(p.startswith("!") for p in found) else found  # `!` needs the whole list

    def decide(self, f: AgentFile, path: str) -> Decision:
        if not f.body:
            return None  # Claude Code drops a file with nothing after its frontmatter
        if self.is_memory(f):
            folder = f.rel.rpartition("/")[0].removesuffix(".claude").rstrip("/")
            if not folder:
                return self.load(f, "always")
            return self.load(f, "directory") if path.startswith(folder + "/") else None
        found = self.rule_globs(f)
        if found is None:
            # a skill without `paths` is picked by its description; a rule loads for every file
            return maybe(f, "agent-decides") if self.is_skill(f) else self.load(f, "always")
        if path.startswith("..") or not ignore_js.ignores(found, path):
            return None
        # shown as written (`src/**`, not the `src` Claude Code makes of it)
        written = _comma_parts(self.frontmatter(f).get("paths"))
        hit = [p for p in written if not p.startswith("!") and self.pattern_matches(p, path)]
        return self.load(f, "glob", hit or found)

    def view(self, path: str) -> list[Load | Maybe]:
        """Each loaded file followed by the files its `@path` imports load. A rule with `paths`
        has its imports read at session start, with the unconditional files, whether or not the
        rule itself loads for the path (confirmed in Claude Code 2.1.337)."""
        decided: list[Load | Maybe] = []
        carriers: list[tuple[int, str]] = []
        for f in self.files:
            if self.imports_at_start(f):
                carriers.append((len(decided), f.rel))
            d = self.decide(f, path)
            if d is not None:
                decided.append(d)
        return with_imports(decided, self.imports_of, carriers)

    def imports_at_start(self, f: AgentFile) -> bool:
        rule = not self.is_memory(f) and not self.is_skill(f)
        return rule and bool(f.body) and self.rule_globs(f) is not None

    def follower(self) -> Follower:
        found: Follower | None = self.__dict__.get("_follower")
        if found is None:
            found = self.__dict__["_follower"] = Follower(self.ctx.root, self.ctx.reads, CLAUDE_CODE)
        return found

    def imports_of(self, rel: str) -> list[Imported]:
        """What `rel`'s imports load: a memory file's or a rule's, not a skill's."""
        f = self.file(rel)
        if f is None or self.is_skill(f) or "@" not in f.text:
            return []
        return self.follower().of(rel, f.text)

    def on_invalid_yaml(self) -> str:
        return (f"Claude Code then reads no frontmatter and loads this rule for every file, not only for "
                f"its `paths` (confirmed in {RELEASE}). Quote each glob: `- \"src/**/*.ts\"`.")

    def nothing_traps(self, f: AgentFile) -> list[Problem]:
        # `./` patterns have their own finding (claude-dot-slash)
        return [p for p in super().nothing_traps(f) if "`./" not in p.message]

    def file_budget_note(self, f: AgentFile) -> str | None:
        lines = len(split_lines(f.text))
        if not self.is_memory(f) or lines <= 200:
            return None
        return f"{f.rel} has {lines} lines; Claude Code's docs recommend a CLAUDE.md under about 200"

    def file_traps(self, f: AgentFile) -> list[Problem]:
        out = super().file_traps(f) if self.unparsed(f) else []
        if not f.body and (not self.is_memory(f) or f.text.strip()):
            out.append(problem(f, 0, "warning", "claude-empty-body",
                               "Claude Code drops this file: it has no text after its frontmatter "
                               f"(confirmed in {RELEASE}). Write the rule below the frontmatter, or delete "
                               "the file."))
        elif not self.is_memory(f):
            out.extend(self.rule_traps(f))
        if not self.is_skill(f) and f.body and "@" in f.text:
            out.extend(self.import_traps(f))
        if self.is_memory(f) and self.budget is not None:
            lines = len(split_lines(f.text))
            if lines > self.budget.limit:
                name = f.rel.rpartition("/")[2]
                which = (f"This {name}" if name.startswith("CLAUDE") else
                         f"Claude Code reads this {name} in place of a CLAUDE.md; it")
                out.append(problem(f, 0, "info", "agent-budget-exceeded",
                                   f"{which} has {lines} lines; Claude Code's docs recommend a CLAUDE.md "
                                   "under about 200, since it loads in full every session. Move parts "
                                   "into `.claude/rules/` files with `paths`."))
        return out

    def import_traps(self, f: AgentFile) -> list[Problem]:
        """Each `@path` Claude Code takes for an import that loads no file: it skips it without a
        word, and the model sees only the text."""
        out: list[Problem] = []
        for imp, why in self.follower().broken(f.rel, f.text):
            if not looks_like_file(imp.path):
                continue
            named = named_file(f.rel, imp.path)
            what = {
                "missing": f"`{named}`, which the project does not have",
                "folder": f"`{named}`, a folder, which it does not read",
                "outside": (f"`{named}`, outside the project, which it loads only where you approved "
                            "external imports"),
                "type": f"`{named}`, whose extension is not one of the text types it imports",
            }.get(why, f"`{named}`")
            line, col, end = span(f.text, imp)
            out.append(Problem(
                f.rel, line, "warning", "claude-import-missing",
                f"Claude Code reads `@{imp.path}` as an import of {what}: it skips it without a word, so "
                f"the model sees only the text `@{imp.path}` (confirmed in {RELEASE}). Name a file of "
                f"the project (relative to this file), or write it in backticks to keep it as text.",
                col, end))
        return out

    def rule_traps(self, f: AgentFile) -> list[Problem]:
        """A rule or skill that loads otherwise than written, in Claude Code's own terms."""
        if self.unparsed(f):
            return []  # agent-yaml-invalid says it, with the parser's reason
        data = self.frontmatter(f)
        kind = "skill" if self.is_skill(f) else "rule"
        if "paths" not in data:
            other = next((k for k in OTHER_KEYS if k in data or k in f.loose), None)
            if other is None:
                return []
            then = ("the model picks it by its description alone" if self.is_skill(f) else
                    "it loads this rule for every file")
            # The key's span: a fix renames it, and several files' findings are one cause.
            return [Problem(f.rel, f.line_of(other), "warning", "claude-wrong-key",
                            f"Claude Code reads `paths:`, not `{other}:`; it ignores the key, so {then} "
                            f"(confirmed in {RELEASE}). Rename `{other}:` to `paths:`.", 0, len(other))]
        found = self.rule_globs(f)
        line = f.line_of("paths")
        if found is None and not self.is_skill(f):
            value = data.get("paths")
            why = ("is empty" if not _truthy(value) or not split_paths(value) else
                   "is neither a string nor a list" if not isinstance(value, str | list) else
                   "matches everything")
            return [problem(f, line, "warning", "claude-loads-always",
                            f"This `paths` {why}, so Claude Code loads this {kind} for every file, at every "
                            f"session start (confirmed in {RELEASE}). List the globs it is for, or remove "
                            "`paths:` if it is meant for every file.")]
        return [problem(f, line, "warning", "claude-dot-slash",
                        f"Claude Code matches `{p}` against paths like `src/a.ts`, which never start with "
                        f"`./`, so this pattern never loads the {kind} (confirmed in {RELEASE}). Write "
                        f"`{p[2:]}`.")
                for p in found or [] if p.startswith("./")]
