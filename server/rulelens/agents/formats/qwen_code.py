"""Qwen Code: `QWEN.md` and `AGENTS.md` up the folder chain, and `.qwen/rules/**/*.md` scoped by
`paths`, as Qwen Code 0.24.4's own code reads them (its `rulesDiscovery` and `memoryDiscovery`,
run from the npm package in tests/conformance/qwen_code).

A rule with `paths` is injected once a tool touches a matching file; one without is part of the
first request. `paths` is a list (each item made a string) or one string, never split on commas;
patterns are matched by picomatch with `{dot: true}` against the path from the git root. A
frontmatter its YAML parser refuses is read by its simple line parser; a rule whose text is
empty once HTML comments are removed is dropped.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from rulelens.agents.base import GlobAgent
from rulelens.agents.facts import Fact
from rulelens.agents.imports import QWEN_CODE, Imported, with_imports
from rulelens.agents.model import AgentFile, Decision, Load, Maybe, Moment
from rulelens.agents.observe_hook import ObserveHook, Silence
from rulelens.glob_engines.dialects import picomatch_matches
from rulelens.rules.model import Problem

RULES = ".qwen/rules"
MEMORY = ("QWEN.md", "AGENTS.md")
RELEASE = "Qwen Code 0.24.4"
CODE = "@qwen-code/qwen-code@0.24.4 (npm): packages/core/src/config/rulesDiscovery.ts"
MEMORY_CODE = "@qwen-code/qwen-code@0.24.4 (npm): packages/core/src/memory/memoryDiscovery.ts"
_COMMENT = re.compile(r"<!--[\s\S]*?-->")


def rule_body(body: str) -> str:
    """The text Qwen Code keeps: HTML comments removed (until none is left), then any `<!--`."""
    while True:
        stripped = _COMMENT.sub("", body)
        if stripped == body:
            return stripped.replace("<!--", "").strip()
        body = stripped


def simple_frontmatter(head: str) -> dict[str, Any]:
    """Qwen Code's line parser, its reading when the YAML parser refuses a frontmatter: `key:
    value` lines, and `  - item` lines (two spaces) under a key with no value."""
    lines = [line for line in head.split("\n") if line.strip() and not line.strip().startswith("#")]
    out: dict[str, Any] = {}
    key, in_list = "", False
    items: list[Any] = []
    for i, line in enumerate(lines):
        if line.startswith("  - "):
            if not in_list:
                in_list, items = True, []
            items.append(_simple_value(line[4:].strip()))
            continue
        if in_list:
            out[key], in_list, items, key = items, False, [], ""
        if line.startswith("  "):
            continue  # a nested mapping's line: no key rulelens reads
        if ":" in line:
            name, _, value = line.partition(":")
            if value.strip():
                out[name.strip()] = _simple_value(value.strip())
            elif i + 1 < len(lines) and lines[i + 1].startswith("  - "):
                key = name.strip()
    if in_list:
        out[key] = items
    return out


def _simple_value(value: str) -> Any:
    if value in ("true", "false"):
        return value == "true"
    if value == "null":
        return None
    if len(value) >= 2 and value.startswith('"') and value.endswith('"'):
        return value[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    try:
        number = float(value)
    except ValueError:
        return value
    return value if number != number or number in (float("inf"), float("-inf")) else number


def _js_string(value: Any) -> str:
    """JavaScript's `String(value)` for what a YAML list can hold."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def rule_paths(data: dict[str, Any]) -> list[str] | None:
    """The patterns of a rule's `paths`, or None where the rule loads at start."""
    value = data.get("paths")
    if isinstance(value, list):
        found = [_js_string(v) for v in value if v is not None and _js_string(v)]
        return found or None
    if isinstance(value, str) and value:
        return [value]
    return None


class QwenCode(GlobAgent):
    id: ClassVar[str] = "qwen-code"
    name: ClassVar[str] = "Qwen Code"
    release: ClassVar[str | None] = "0.24.4"
    facts = (
        Fact("files", "every `.md` file below `.qwen/rules/` of the git root, subfolders included (in a "
             "trusted folder)", CODE, "code", "2026-12-05"),
        Fact("files", "`QWEN.md` and `AGENTS.md` in the folder it starts in and each folder up to the git "
             "root (none below)", MEMORY_CODE, "code", "2026-12-05"),
        Fact("loading", "the folder chain is read at start only: started at the project root (as rulelens "
             "answers), a nested `QWEN.md` or `AGENTS.md` never loads, whatever a tool reads below it; "
             "rulelens lists each on the path's way as loading only when Qwen Code is started in its folder "
             "or below", "@qwen-code/qwen-code@0.24.4 (npm), run end to end (agent_runs) on generated "
             "projects and 75 real repositories", "code", "2026-12-07"),
        Fact("keys", "`paths`: a list (each item made a string) or one string, never split on commas; "
             "`description`", CODE, "code", "2026-12-05"),
        Fact("loading", "with `paths`: injected once a tool touches a matching file; without (or empty): in "
             "the first request; a frontmatter its YAML parser refuses is read line by line; a rule whose "
             "text is empty without its HTML comments is dropped", CODE, "code", "2026-12-05"),
        Fact("dialect", "picomatch with `{dot: true}`, against the path from the git root", CODE, "code",
             "2026-12-05"),
        Fact("loading", "`@path` imports in `QWEN.md` and `AGENTS.md` (not in `.qwen/rules`): an `@` at the "
             "start or after a space, tab or line break, the path to the next one, starting with `.`, `/` or "
             "a letter, not in code (fenced, indented, spans); the file is read in the importer's place from "
             "its folder, five levels deep, inside the git root; a missing file stays as written, one "
             "outside or a folder becomes an `Import failed` comment",
             "@qwen-code/qwen-code@0.24.4 (npm): packages/core/src/utils/memoryImportProcessor.ts "
             "`findImports`, `findCodeRegions`, `processImports`; memoryDiscovery.ts `readMemoryFiles`",
             "code", "2026-12-07"),
    )
    # Its hook system fires InstructionsLoaded from readMemoryFiles alone: context files
    # (QWEN.md, AGENTS.md, .qwen/QWEN.local.md) and what they import, never `.qwen/rules`.
    # Project hooks live in `.qwen/settings.json`, the project's shared settings: Qwen Code
    # 0.24.4 has no local settings file of a project's own.
    observe_hook = ObserveHook(
        event="InstructionsLoaded",
        settings=".qwen/settings.json",
        local=False,
        fires="for each context file (QWEN.md, AGENTS.md, .qwen/QWEN.local.md) at session start "
              "(session_start) and when context files are reloaded (refresh), and for each file "
              "they import (include)",
        silent_files=(
            Silence("Qwen Code injects `.qwen/rules` files without running the hook", under=".qwen/rules"),
        ),
        silent_when=("rules with `paths`, injected when a tool touches a matching file, never run it",),
        needs="a trusted folder (project hooks are not read in an untrusted one)",
        source="@qwen-code/qwen-code@0.24.4 (npm): packages/core/src/hooks and memoryDiscovery.ts",
    )
    keys = ("paths",)
    import_syntax = QWEN_CODE  # its `@path` imports (agents/imports.py)
    import_code = "qwen-import-missing"
    codes = frozenset(("qwen-import-missing",))
    source = f"{RELEASE}'s code (npm)"
    # Run end to end on 75 real repositories (bench/agents_e2e.py) for a read, an edit and a
    # create, and in tests/conformance/e2e.
    end_to_end = frozenset(("read", "edit", "create"))
    per_moment = True
    file_globs = ("**/QWEN.md", "**/AGENTS.md", ".qwen/rules/**/*.md")
    borrows = ("AGENTS.md",)

    def pattern_matches(self, pattern: str, path: str) -> bool:
        return picomatch_matches(pattern, path)

    def triggers(self, path: str, on: Moment) -> bool:
        # Its edit tool refuses a file not read in the session (EDIT_REQUIRES_PRIOR_READ), and a
        # refused tool brings no rule (run): an edit comes after a read, which brings them.
        return on != "edit"

    def moment_note(self, path: str, on: Moment) -> str | None:
        if on != "edit":
            return None
        return (f"Qwen Code edits only a file it has read in the session (run, {RELEASE}): an edit "
                "alone is refused, so only the start's files here; the read before it brings the rest")

    def discover(self) -> list[str]:
        memory = sorted(self.ctx.named(*MEMORY), key=lambda p: (p.count("/"), p))
        return [*memory, *self.ctx.scan(RULES, (".md",))]

    @staticmethod
    def is_memory(f: AgentFile) -> bool:
        return not f.rel.startswith(RULES + "/")

    def frontmatter(self, f: AgentFile) -> dict[str, Any]:
        if f.data is not None:
            return f.data
        return simple_frontmatter(f.head) if f.has_frontmatter else {}

    def rule_patterns(self, f: AgentFile) -> list[str] | None:
        return rule_paths(self.frontmatter(f))

    def patterns(self, f: AgentFile) -> list[str]:
        if self.is_memory(f):
            return []
        return self.rule_patterns(f) or []

    def folder_loads(self, f: AgentFile) -> str | None:
        return (f.rel.rpartition("/")[0] or None) if self.is_memory(f) else None

    def glob_loads(self, f: AgentFile) -> list[str] | None:
        if self.is_memory(f):
            return None
        if not rule_body(f.body):
            return []
        found = self.rule_patterns(f)
        return None if found is None or any(p.startswith("!") for p in found) else found

    def decide(self, f: AgentFile, path: str) -> Decision:
        if self.is_memory(f):
            folder = f.rel.rpartition("/")[0]
            if not folder:
                return self.load(f, "always")
            # For a start in the path's folder (the coverage `check` and `map` read); `view`
            # answers for a start at the root.
            return self.load(f, "directory") if path.startswith(folder + "/") else None
        if not rule_body(f.body):
            return None  # dropped: nothing is left of its text
        patterns = self.rule_patterns(f)
        if patterns is None:
            return self.load(f, "always")
        hit = [p for p in patterns if self.pattern_matches(p, path)]
        return self.load(f, "glob", hit) if hit else None

    def view(self, path: str, on: Moment = "read") -> list[Load | Maybe]:
        """Each loaded file followed by the files its `@path` imports put in its place; a nested
        file that loads only when Qwen Code starts in its folder, with its imports alike."""
        # Read at start from the start folder up, and never after (run end to end): started at the
        # root, Qwen Code loads a nested one only when started in its folder or below.
        decided = [Maybe(d.file, "start-folder") if isinstance(d, Load) and d.how == "directory" else d
                   for d in super().view(path, on)]
        out: list[Load | Maybe] = []
        for d in with_imports(decided, self.imports_of):
            out.append(d)
            if isinstance(d, Maybe) and d.how == "start-folder":
                listed = {x.file for x in out}
                out += [Maybe(i.file, "start-folder", i.via) for i in self.imports_of(d.file)
                        if i.file not in listed]
        return out

    def imports_of(self, rel: str) -> list[Imported]:
        """What `rel`'s imports load: a `QWEN.md`'s or an `AGENTS.md`'s (its rules' are not read)."""
        f = self.file(rel)
        if f is None or not self.is_memory(f) or "@" not in f.text:
            return []
        return self.follower().of(rel, f.text)

    def file_traps(self, f: AgentFile) -> list[Problem]:
        out = super().file_traps(f)
        if self.is_memory(f) and "@" in f.text:
            out.extend(self.import_traps(f))
        return out

    def import_message(self, path: str, named: str, why: str) -> str:
        """Qwen Code keeps a missing file's import as written; one outside the project, or a
        folder, becomes an `Import failed` comment."""
        if why == "missing":
            what = f"`{named}`, which the project does not have: it leaves the text as written"
        elif why == "folder":
            what = f"`{named}`, a folder: it puts an `Import failed` comment in the text's place"
        else:
            what = ("a file outside the project: it puts an `Import failed` comment (path traversal) in "
                    "the text's place")
        return (f"Qwen Code reads `@{path}` as an import of {what}, and the model gets no file "
                f"(confirmed in {RELEASE}). Name a file of the project (relative to this file), or write "
                "it in backticks to keep it as text.")
