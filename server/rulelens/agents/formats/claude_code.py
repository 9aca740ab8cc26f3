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
- a file whose text after the frontmatter is blank is dropped;
- `.claude/rules` below the root load when a file below their folder is read, edited or
  created: a rule without `paths` for any such file, one with `paths` matched relative to the
  folder that holds that `.claude/` (the nested walk: one folder at a time from the root to the
  file's, each folder's `CLAUDE.md` and `.claude/rules`);
- the moments (run end to end on 2026-12-07, a fake Anthropic API on loopback): a file's
  path rules and folder files arrive after the tool result of a Read, an Edit or a Write alike;
  Read refuses a file by its extension (`.mp3`, `.zip`… but not the images and PDFs it reads),
  so nothing beyond the start loads for it; Edit and Write refuse to overwrite a file whose bytes
  are not text (a NUL in the first 8 KB, not UTF-8, UTF-16 without its order mark), while
  creating a new file is never refused.
tests/conformance/claude_code compares this module with that code, case by case.
"""

from __future__ import annotations

import contextlib
import os
import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property
from typing import Any, ClassVar

from rulelens.agents.base import GlobAgent, maybe, nested, problem
from rulelens.agents.facts import Fact
from rulelens.agents.formats.claude_permissions import matcher, read_denied
from rulelens.agents.imports import CLAUDE_CODE, Imported, with_imports
from rulelens.agents.model import AgentFile, Budget, Decision, Load, Maybe, Moment
from rulelens.agents.observe_hook import ObserveHook, Silence
from rulelens.glob_engines import ignore_js
from rulelens.glob_engines.dialects import UNDOCUMENTED
from rulelens.rules.format.reading import split_lines
from rulelens.rules.model import Problem
from rulelens.workspace.sorted_paths import starting_with

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
# The extensions Read takes for binary (its `kW` list as written, tested against the lower-cased
# text from the last `.` on); `read_refuses` leaves out the images and PDFs Read shows itself.
BINARY_EXTENSIONS = frozenset((
    ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".ico", ".webp", ".tiff", ".tif", ".heic", ".heif",
    ".avif", ".psd", ".ai", ".eps", ".mp4", ".mov", ".avi", ".mkv", ".webm", ".wmv", ".flv", ".m4v",
    ".mpeg", ".mpg", ".mp3", ".wav", ".ogg", ".flac", ".aac", ".m4a", ".wma", ".aiff", ".opus", ".zip",
    ".tar", ".gz", ".bz2", ".7z", ".rar", ".xz", ".z", ".tgz", ".iso", ".zst", ".lz4", ".whl", ".exe",
    ".dll", ".so", ".dylib", ".bin", ".o", ".a", ".obj", ".lib", ".app", ".msi", ".deb", ".rpm",
    ".dmg", ".apk", ".pdf", ".doc", ".docx", ".docm", ".dotx", ".dotm", ".xls", ".xlsx", ".xlsm",
    ".xlsb", ".xltx", ".xltm", ".ppt", ".pptx", ".pptm", ".ppsx", ".ppsm", ".potx", ".potm", ".odt",
    ".ods", ".odp", ".numbers", ".epub", ".ttf", ".otf", ".woff", ".woff2", ".eot", ".pyc", ".pyo",
    ".class", ".jar", ".war", ".ear", ".node", ".wasm", ".rlib", ".sqlite", ".sqlite3", ".db", ".mdb",
    ".idx", ".parquet", ".feather", ".npy", ".npz", ".pickle", ".sketch", ".fig", ".xd", ".blend",
    ".3ds", ".max", ".swf", ".fla", ".lockb", ".dat", ".data",
))
READ_ITSELF = frozenset(("png", "jpg", "jpeg", "gif", "webp", "pdf"))
_SNIFF = 8000  # the bytes the write path searches for a NUL


def read_refuses(path: str) -> bool:
    """Whether Claude Code's Read refuses `path` as a binary file, by its name alone: the text
    from its last `.` (the last character where it has none) in the list, and its extension as
    Node's `path.extname` gives it not one Read shows itself."""
    at = path.rfind(".")
    if path[at:].lower() not in BINARY_EXTENSIONS:
        return False
    name = path.rpartition("/")[2]
    dot = name.rfind(".")
    extname = name[dot + 1:].lower() if dot > 0 else ""  # `.png` alone has no extension in Node
    return extname not in READ_ITSELF


def not_text(data: bytes) -> bool:
    """Whether Edit and Write refuse to overwrite a file holding `data` (their `notText`): UTF-16
    LE (its order mark) of an odd length, UTF-16 BE's order mark, a NUL in the first 8,000 bytes,
    or bytes that are not UTF-8."""
    if data[:2] == b"\xff\xfe":
        return len(data) % 2 != 0
    if data[:2] == b"\xfe\xff" or b"\0" in data[:_SNIFF]:
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def _memory_folder(rel: str) -> str:
    """The folder a memory file is for: `pkg/.claude/CLAUDE.md` is `pkg`'s."""
    folder = rel.rpartition("/")[0]
    if folder == ".claude":
        return ""
    return folder[: -len("/.claude")] if folder.endswith("/.claude") else folder


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
    release: ClassVar[str | None] = "2.1.337"
    facts = (
        Fact('files', '`.claude/rules/**/*.md` (recursive, symlinks followed); `CLAUDE.md`, '
             '`CLAUDE.local.md` and `.claude/CLAUDE.md` up the folder chain; with no `CLAUDE.md`, '
             '`AGENTS.md` and '
             '`.claude/AGENTS.md` in its place (a built-in plugin, on by default)',
             f'{SOURCE}: the memory file list and the agents-md plugin\'s file names', 'code', '2026-12-05'),
        Fact('files', 'the AGENTS.md fallback is off for the whole project once a `CLAUDE.md`, '
             '`.claude/CLAUDE.md` or `CLAUDE.local.md` is at its root: no nested `AGENTS.md` is read '
             'then, even in a folder without a `CLAUDE.md`; an `AGENTS.md` whose text equals a file '
             'already loaded is skipped',
             f'{SOURCE}: the agents-md plugin (`isClaudeProject`, and its dedup by trimmed content)',
             'code', '2026-12-07'),
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
        Fact('files', '`.claude/rules` below the root, read when a file below its folder is read, edited or '
             'created: without `paths` it loads for any such file; its `paths` are matched relative to '
             'the folder that holds that `.claude/`',
             f'{SOURCE}: the nested memory walk (each folder\'s `CLAUDE.md` and `.claude/rules`, '
             'conditional rules matched from the folder above `.claude/rules`); run 2026-12-07', 'code',
             '2026-12-07'),
        Fact('loading', 'moments: a path\'s rules and folder files arrive after the tool result of a Read, '
             'an Edit or a Write alike; Read refuses a binary file by its extension (not images or PDFs), '
             'so nothing but the start\'s files loads for it; Edit and Write refuse to overwrite a file '
             'whose bytes are not text; creating a file is never refused',
             f'{SOURCE}: the Read tool\'s `validateInput` (the binary extension list), the write path '
             'shared by Edit and Write (`notText`, then the nested memory trigger); run 2026-12-07', 'code',
             '2026-12-07'),
        Fact('loading', 'a `Read(...)` deny rule in `permissions.deny` keeps a memory file, a rule or an '
             'imported file out (and what only it imports): a `.gitignore` line matched case-insensitively '
             'from the root (`Read(CLAUDE.md)` and `Read(./CLAUDE.md)` at any depth, `Read(/CLAUDE.md)` the '
             'root\'s only); reading, editing or creating a denied path loads nothing after the tool; '
             'rulelens reads `.claude/settings.json` and `.claude/settings.local.json`, not the user\'s or '
             'managed settings; `Edit(...)` rules change nothing',
             f'{SOURCE}: the memory loader reads each file through the Read permission check (`held`, '
             '"denied"); run end to end with each rule shape against a fake model', 'code', '2026-12-07'),
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
    import_syntax = CLAUDE_CODE  # its `@path` imports (agents/imports.py)
    import_code = "claude-import-missing"
    codes = frozenset(("claude-wrong-key", "claude-loads-always", "claude-dot-slash", "claude-empty-body",
                       "claude-agents-md-unseen", "claude-import-missing"))

    borrows = ("AGENTS.md",)
    # Read from its code: the hook input is built in one place and sent from two, the memory walk
    # at session start (and again after the main session compacts) and the nested-memory
    # attachment when a read file pulls in a CLAUDE.md or a rule with `paths`.
    observe_hook = ObserveHook(
        event="InstructionsLoaded",
        settings=".claude/settings.local.json",
        local=True,
        fires="for each CLAUDE.md, CLAUDE.local.md and .claude/rules file at session start "
              "(load_reason session_start, or compact after the main session is compacted), for "
              "each file an @-import pulls in (include), and when a read file pulls in a nested "
              "CLAUDE.md (nested_traversal) or a rule with `paths` (path_glob_match, with "
              "trigger_file_path)",
        silent_files=(
            Silence("Claude Code adds AGENTS.md through its built-in agents-md plugin, after the "
                    "memory walk that runs the hook", name="AGENTS.md"),
            Silence("skills load through the Skill tool, not the memory walk that runs the hook",
                    under=".claude/skills"),
        ),
        silent_when=(
            "a file already in the session's read state (loaded before, or read by the model "
            "itself) is not announced again",
            "a nested file whose text was already announced is not reported again",
            "the memory walk reruns without the hook except at session start and after the main "
            "session compacts",
            "auto-memory, managed-settings and cloud instruction files never run it",
            "it starts the hook without waiting for it, so a headless (-p) session that ends "
            "right after a read can end before the hook records that read's loads",
        ),
        needs="the project's local settings are read (the default; not with --setting-sources "
              "that leaves out local)",
        source=f"{SOURCE}: the InstructionsLoaded hook input and its two call sites",
    )
    file_globs = ("**/CLAUDE.md", "**/.claude/rules/**/*.md", ".claude/skills/*/SKILL.md", "**/AGENTS.md")
    per_moment = True
    # tests/conformance/e2e runs the binary on whole projects for a read, an edit and a create
    end_to_end = frozenset(("read", "edit", "create"))

    def split_value(self, value: str) -> list[str] | None:
        return split_paths(value)

    def discover(self) -> list[str]:
        # CLAUDE.md and CLAUDE.local.md in every folder, read up the chain at start and below it
        # on read; a link that leads nowhere is none (Claude Code then reads AGENTS.md instead).
        memory = [p for p in self.ctx.named("CLAUDE.md", "CLAUDE.local.md") if self.ctx.is_file(p)
                  and not p.endswith(".claude/CLAUDE.local.md")]  # only CLAUDE.md is read in .claude/
        memory += [n for n in ("CLAUDE.md", "CLAUDE.local.md")  # the root's, also where git ignores them
                   if n not in memory and self.ctx.is_file(n)]
        memory.sort(key=lambda p: (p.rpartition("/")[0], p.endswith("CLAUDE.local.md")))  # as it reads them
        # No instruction file of the project's own at the root: the root's AGENTS.md and
        # .claude/AGENTS.md instead, and nested ones on read.
        if not any(self._own(n) for n in OWN_INSTRUCTIONS):
            # Only the root's: a nested AGENTS.md is not read in place of a CLAUDE.md (run end to
            # end: tests/conformance/e2e/test_claude_code_loading.py).
            for name in (".claude/AGENTS.md", "AGENTS.md"):
                if self.ctx.is_file(name) and name not in memory:
                    memory.insert(0, name)
        skills = [p for p in self.ctx.scan(SKILLS, ("SKILL.md",)) if p.count("/") == 3]
        rules = self.ctx.scan(RULES, (".md",))
        for folder in nested(self.ctx, RULES):  # read on the way to a file below them
            rules += self.ctx.scan(folder, (".md",))
        return [*memory, *rules, *skills]

    def _own(self, rel: str) -> bool:
        """Whether the root's `rel` is an instruction file of the project's own, which turns the
        AGENTS.md fallback off: a file with text (a blank one, or a link that leads nowhere, does
        not; run end to end: tests/conformance/e2e/test_claude_code_loading.py)."""
        if not self.ctx.is_file(rel):
            return False
        try:
            return bool(self.ctx.reads.read_bytes(self.ctx.root / rel, 65536).strip())
        except OSError:
            return False

    @staticmethod
    def is_memory(f: AgentFile) -> bool:
        return not (f.rel.startswith((RULES + "/", SKILLS + "/")) or "/" + RULES + "/" in f.rel)

    def glob_base(self, f: AgentFile) -> str:
        """A nested `.claude/rules` file's folder (the one holding its `.claude/`): it loads for
        the files below it, its `paths` matched from there; "" for the root's files."""
        return f.rel.partition("/" + RULES + "/")[0] if "/" + RULES + "/" in f.rel else ""

    def read_denied(self, rel: str) -> str | None:
        """The project settings file whose `Read` deny rule keeps `rel` out (for a link, the
        file it leads to too), or None (agents/formats/claude_permissions.py)."""
        found: Any = self.__dict__.get("_denied")
        if found is None:
            rules = read_denied(self.ctx.root, self.ctx.reads)
            found = self.__dict__["_denied"] = matcher(rules) if rules else (lambda rel: None)
        hit: str | None = found(rel)
        if hit is None and rel != "..":
            real = os.path.realpath(self.ctx.root / rel)
            base = os.path.realpath(self.ctx.root)
            if real.startswith(base + os.sep) and (inner := os.path.relpath(real, base)) != rel:
                hit = found(inner.replace(os.sep, "/"))
        return hit

    def triggers(self, path: str, on: Moment) -> bool:
        if self.read_denied(path) is not None:
            return False  # run: a Read, an Edit and a Write of a denied path load nothing after it
        if on == "read":
            return not read_refuses(path)
        if on == "edit":
            try:
                data = self.ctx.reads.read_bytes(self.ctx.root / path)
            except OSError:
                return True  # no file to refuse: the Edit writes it as new text
            return not not_text(data)
        return True  # a new file: nothing to refuse

    def moment_note(self, path: str, on: Moment) -> str | None:
        if self.triggers(path, on):
            return None
        if (settings := self.read_denied(path)) is not None:
            return (f"a `Read` deny rule in `{settings}` covers this path, so no rule or folder file loads "
                    f"for it when Claude Code reads, edits or creates it (run, {RELEASE})")
        if on == "read":
            ext = path[path.rfind("."):].lower()
            return (f"Claude Code's Read refuses `{ext}` files as binary, so no rule or folder file loads "
                    f"for this path when it reads it; an Edit or a Write of it loads them (run, {RELEASE})")
        return (f"Claude Code's Edit refuses to overwrite this file (its bytes are not text), so no rule or "
                f"folder file loads for it when it edits it (run, {RELEASE})")

    @staticmethod
    def is_skill(f: AgentFile) -> bool:
        return f.rel.startswith(SKILLS + "/")

    @cached_property
    def _retried(self) -> dict[str, dict[str, Any]]:
        """The second reading of frontmatters the first could not read, by file."""
        return {}

    def frontmatter(self, f: AgentFile) -> dict[str, Any]:
        """The frontmatter as Claude Code reads it: a second try with special values quoted
        where the first fails; a mapping, else empty."""
        if f.data is not None:
            return f.data
        if not f.has_frontmatter or not f.head.strip():
            return {}
        cache = self._retried
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
        if not f.body:
            return None
        if not self.is_memory(f):
            base = self.glob_base(f)  # a nested rule without `paths`: every file below its folder
            return base if base and self.rule_globs(f) is None else None
        return f.rel.rpartition("/")[0].removesuffix(".claude").rstrip("/") or None

    def loads_for(self, f: AgentFile, paths: Sequence[str]) -> set[str]:
        base = self.glob_base(f)
        if base and self.rule_globs(f) is not None:  # a nested rule's `paths`: only below its folder
            paths = starting_with(paths, base + "/")
        return super().loads_for(f, paths)

    def glob_loads(self, f: AgentFile) -> list[str] | None:
        if self.is_memory(f) or self.glob_base(f):
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
        inner = self.within(f, path)
        if inner is None:
            return None  # a nested rule: read on the way to a file below its folder only
        found = self.rule_globs(f)
        if found is None:
            # a skill without `paths` is picked by its description; a rule loads for every file
            # (a nested one for every file below its folder, once one is read)
            if self.is_skill(f):
                return maybe(f, "agent-decides")
            return self.load(f, "directory" if self.glob_base(f) else "always")
        if inner.startswith("..") or not ignore_js.ignores(found, inner):
            return None
        # shown as written (`src/**`, not the `src` Claude Code makes of it)
        written = _comma_parts(self.frontmatter(f).get("paths"))
        hit = [p for p in written if not p.startswith("!") and self.pattern_matches(p, inner)]
        return self.load(f, "glob", hit or found)

    def view(self, path: str, on: Moment = "read") -> list[Load | Maybe]:
        """Each loaded file followed by the files its `@path` imports load. A rule with `paths`
        has its imports read at session start, with the unconditional files, whether or not the
        rule itself loads for the path (confirmed in Claude Code 2.1.337)."""
        decided = [d for d in super().view(path, on) if self.read_denied(d.file) is None]
        order = {f.rel: i for i, f in enumerate(self.files)}
        carriers = [(sum(order.get(d.file, -1) < order[f.rel] for d in decided), f.rel)
                    for f in self.files if self.imports_at_start(f) and self.read_denied(f.rel) is None]
        return with_imports(decided, self.imports_of, carriers)

    def imports_at_start(self, f: AgentFile) -> bool:
        rule = not self.is_memory(f) and not self.is_skill(f)
        return rule and bool(f.body) and self.rule_globs(f) is not None

    def imports_of(self, rel: str) -> list[Imported]:
        """What `rel`'s imports load: a memory file's or a rule's, not a skill's."""
        f = self.file(rel)
        if f is None or self.is_skill(f) or "@" not in f.text:
            return []
        # A file a `Read` deny rule keeps out is not read, nor are the files only it imports.
        kept, out = {rel}, []
        for imp in self.follower().of(rel, f.text):
            if imp.importer in kept and self.read_denied(imp.file) is None:
                kept.add(imp.file)
                out.append(imp)
        return out

    def on_invalid_yaml(self) -> str:
        return (f"Claude Code then reads no frontmatter and loads this rule for every file, not only for "
                f"its `paths` (confirmed in {RELEASE}). Quote each glob: `- \"src/**/*.ts\"`.")

    def nothing_patterns(self, f: AgentFile) -> list[str]:
        # `./` patterns have their own finding (claude-dot-slash)
        return [p for p in self.patterns(f) if not p.startswith("./")]

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

    def traps(self) -> list[Problem]:
        return [*super().traps(), *self.unseen_agents_md()]

    def unseen_agents_md(self) -> list[Problem]:
        """`claude-agents-md-unseen`: an `AGENTS.md` in a folder without a `CLAUDE.md`, which Claude
        Code never reads (its fallback reads the root's AGENTS.md alone, and none where the root
        has a CLAUDE.md), while other folders' `CLAUDE.md` bring in their own `AGENTS.md`: the team
        means Claude Code to read these."""
        root_own = next((n for n in OWN_INSTRUCTIONS if self._own(n)), None)
        why = (f"`{root_own}` at the root turns its AGENTS.md fallback off for the whole project"
               if root_own else
               "its AGENTS.md fallback reads only the root's AGENTS.md, never one in a folder")
        mine = {f.rel for f in self.files}
        memory = [f for f in self.files if self.is_memory(f) and f.rel.rpartition("/")[2] != "AGENTS.md"]
        claimed = {_memory_folder(f.rel) for f in memory}
        bringing = [f for f in memory if f.rel.rpartition("/")[0] and self._brings_agents_md(f)]
        if not bringing:
            return []
        example = bringing[0]
        how = "a link to its `AGENTS.md`" if self._links_agents_md(example) else "`@AGENTS.md`"
        unseen: list[str] = []
        for rel in self.ctx.named("AGENTS.md"):
            folder = rel.rpartition("/")[0]
            if rel in mine or not folder or folder.endswith(".claude") or folder in claimed:
                continue
            if any(rel in f.text for f in memory):
                continue  # a CLAUDE.md names it (an import by path)
            unseen.append(rel)
        if not unseen:
            return []
        # One cause, one finding: every such folder misses a CLAUDE.md for the same reason (a
        # template's 33 folders are one fix to make, not 33 warnings); on the first, naming the rest.
        first = unseen[0].rpartition("/")[0]
        others = len(bringing)
        brings = (f"while {others} other {'folder brings' if others == 1 else 'folders bring'} in their "
                  f"AGENTS.md through their CLAUDE.md (such as `{example.rel}`, with {how})")
        if len(unseen) == 1:
            return [Problem(unseen[0], 0, "warning", "claude-agents-md-unseen",
                            f"Claude Code never reads this file: {why} (confirmed in {RELEASE}), and "
                            f"`{first}/` has no CLAUDE.md, {brings}. Add `{first}/CLAUDE.md` holding "
                            "`@AGENTS.md`.")]
        folders = [f"`{rel.rpartition('/')[0]}/`" for rel in unseen]
        named = ", ".join(folders[:3]) + (f" and {len(folders) - 3} more" if len(folders) > 3 else "")
        return [Problem(unseen[0], 0, "warning", "claude-agents-md-unseen",
                        f"Claude Code never reads this file nor {len(unseen) - 1} other AGENTS.md: {why} "
                        f"(confirmed in {RELEASE}), and {len(unseen)} folders with an AGENTS.md have no "
                        f"CLAUDE.md ({named}), {brings}. Add a CLAUDE.md holding `@AGENTS.md` in each, "
                        f"such as `{first}/CLAUDE.md`.")]

    def _links_agents_md(self, f: AgentFile) -> bool:
        folder = f.rel.rpartition("/")[0]
        sibling = f"{folder}/AGENTS.md"
        if not self.ctx.is_file(sibling):
            return False
        with contextlib.suppress(OSError):
            root = self.ctx.root
            return os.path.realpath(root / f.rel) == os.path.realpath(root / sibling)
        return False

    def _brings_agents_md(self, f: AgentFile) -> bool:
        """Whether a nested CLAUDE.md brings in its folder's AGENTS.md: a link to it, or an import."""
        return self._links_agents_md(f) or re.search(r"(?m)@(?:\./)?AGENTS\.md\b", f.text) is not None

    def import_message(self, path: str, named: str, why: str) -> str:
        """Claude Code skips an import that loads no file without a word: the model sees only the text."""
        what = {
            "missing": f"`{named}`, which the project does not have",
            "folder": f"`{named}`, a folder, which it does not read",
            "outside": (f"`{named}`, outside the project, which it loads only where you approved "
                        "external imports"),
            "type": f"`{named}`, whose extension is not one of the text types it imports",
        }.get(why, f"`{named}`")
        return (f"Claude Code reads `@{path}` as an import of {what}: it skips it without a word, so "
                f"the model sees only the text `@{path}` (confirmed in {RELEASE}). Name a file of "
                f"the project (relative to this file), or write it in backticks to keep it as text.")

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
