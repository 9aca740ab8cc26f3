"""Gemini CLI: the context-file chain (`GEMINI.md` by default), named by the project's settings.

As its released code (0.61.0) does: started at the project root, Gemini CLI loads the files of
every name in `context.fileName` (one name or a list, put in front of `GEMINI.md`) found in the
root; when a tool reads, lists or edits a path, it adds those in the path's folder and each
folder above it up to the root (just in time, once each). It stats these paths: ignore files do
not hide them, and it scans no folder below. Each file's `@path` imports are read in its place
(`gemini_imports`). rulelens reports the root's files as loaded always and the others for the
paths below their folder. tests/conformance/gemini_cli runs the npm package's own loading
on the same cases.

The names come from the project's `.gemini/settings.json`: the user's `~/.gemini/settings.json`
and a system settings file can name others on one machine, but rulelens reports what the project
itself sets, the same on every machine.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from rulelens.agents.base import Context, problem
from rulelens.agents.facts import Fact
from rulelens.agents.formats.folder_chain import FolderChain
from rulelens.agents.formats.gemini_imports import imported, imports, target
from rulelens.agents.model import AgentFile, Decision, Load, Maybe, Moment
from rulelens.rules.format.reading import decode
from rulelens.rules.model import Problem
from rulelens.workspace.reads import Reads
from rulelens.workspace.sorted_paths import starting_with

DOCS = "https://geminicli.com/docs/cli/gemini-md"
RELEASE = "@google/gemini-cli@0.61.0 (npm): "
CONFIRMED = "confirmed in Gemini CLI 0.61.0"
CHECKED = "2026-12-05"
SETTINGS = ".gemini/settings.json"
DEFAULT = ("GEMINI.md",)
MAX_SETTINGS = 1024 * 1024


def strip_json_comments(text: str) -> str:
    """`text` without `//` and `/* */` comments outside strings, as Gemini CLI's reader
    (strip-json-comments) drops them. Hand-written: the standard library has no JSON-with-comments
    reader, and a dependency for one settings file is not worth it."""
    out: list[str] = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            out.append(" ")
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def context_file_names(text: str) -> tuple[tuple[str, ...], str | None]:
    """The context file names a settings file's text sets, and what is wrong with it (None when
    nothing is). Anything unusable falls back to `GEMINI.md`."""
    try:
        data: Any = json.loads(strip_json_comments(text))
    except ValueError as e:
        return DEFAULT, f"it is not valid JSON ({e})"
    if not isinstance(data, dict):
        return DEFAULT, "it does not hold a JSON object"
    context = data.get("context")
    if context is None:
        return DEFAULT, None
    if not isinstance(context, dict):
        return DEFAULT, "`context` is not an object"
    value = context.get("fileName")
    if value is None:
        return DEFAULT, None
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return DEFAULT, "`context.fileName` is neither a string nor a list of strings"
    names = tuple(dict.fromkeys(posixpath.normpath(v.strip()) for v in value if v.strip()))
    if not names:
        return DEFAULT, None  # Gemini CLI keeps its default for an empty name or list
    if any(n.startswith(("../", "/")) or n == ".." for n in names):
        return DEFAULT, "`context.fileName` names a file outside each folder"
    # The names go in front of the ones already set, which at start is `GEMINI.md`: it still loads
    # (Gemini CLI 0.61.0's `setGeminiMdFilename`).
    return tuple(dict.fromkeys((*names, *DEFAULT))), None


def stops_at_start(text: str) -> bool:
    """Whether Gemini CLI 0.61.0 refuses to start with this settings file: `loadSettings` throws
    on anything but a JSON object, and `setGeminiMdFilename` trims each name of a `fileName`
    that JavaScript takes for true, so a name that is not a string throws."""
    try:
        data: Any = json.loads(strip_json_comments(text))
    except ValueError:
        return True
    if not isinstance(data, dict):
        return True
    context = data.get("context")
    value = context.get("fileName") if isinstance(context, dict) else None
    if value is None or value is False or value == "" or (type(value) in (int, float) and value == 0):
        return False  # false in JavaScript: the default name
    return not all(isinstance(v, str) for v in (value if isinstance(value, list) else [value]))


def settings_file_names(root: Path, reads: Reads) -> tuple[tuple[str, ...], str | None]:
    """The context file names the project's settings under `root` set, and what is wrong with
    the settings file (None when nothing is, or when there is none)."""
    try:
        raw = reads.read_bytes(root / SETTINGS, MAX_SETTINGS + 1)
    except FileNotFoundError:
        return DEFAULT, None
    except OSError as e:
        return DEFAULT, f"it cannot be read ({e.strerror or e})"
    if len(raw) > MAX_SETTINGS:
        return DEFAULT, "it is over 1 MiB"
    return context_file_names(decode(raw)[0])


def settings_import_format(root: Path, reads: Reads) -> str:
    """`context.importFormat` in the project's settings ("tree" when unset or unreadable): Gemini
    CLI reads the imports of the files it loads at start "flat" when it says so."""
    try:
        raw = reads.read_bytes(root / SETTINGS, MAX_SETTINGS)
        data: Any = json.loads(strip_json_comments(decode(raw)[0]))
    except (OSError, ValueError):
        return "tree"
    context = data.get("context") if isinstance(data, dict) else None
    return "flat" if isinstance(context, dict) and context.get("importFormat") == "flat" else "tree"


class GeminiCli(FolderChain):
    id: ClassVar[str] = "gemini-cli"
    name: ClassVar[str] = "Gemini CLI"
    release: ClassVar[str | None] = "0.61.0"
    facts = (
        Fact("files", "the files of every name in `context.fileName` (a string or a list; `GEMINI.md` "
             "when unset) in the folder it starts in and each folder above it, up to the nearest one "
             "holding `.git` (`context.memoryBoundaryMarkers`)",
             RELEASE + "packages/core/src/utils/memoryDiscovery.ts `getEnvironmentMemoryPaths`, "
             "`findUpwardGeminiFiles`", "code", CHECKED),
        Fact("files", "when a tool reads, lists, edits or writes a path: the same names in the path's "
             "folder and each folder above it up to that root, those not loaded yet (just in time)",
             RELEASE + "packages/core/src/utils/memoryDiscovery.ts `loadJitSubdirectoryMemory`, called "
             "from tools/jit-context.ts `discoverJitContext`", "code", CHECKED),
        Fact("files", "started in a folder below the root, the start folder's files and those above it up "
             "to the root load at start, and a tool's path below the start adds the rest just in time; "
             "rulelens answers for Gemini CLI started at the project root",
             RELEASE + "packages/core/src/utils/memoryDiscovery.ts `getEnvironmentMemoryPaths`; run end "
             "to end (agent_runs) at the root and in a subfolder", "code", "2026-12-07"),
        Fact("files", "no folder below the start is scanned, and `.gitignore` and `.geminiignore` hide "
             "no context file: each candidate path is only tested for access",
             RELEASE + "packages/core/src/utils/memoryDiscovery.ts `findUpwardGeminiFiles`", "code", CHECKED),
        Fact("files", "the read tool refuses a path that `.gitignore` or `.geminiignore` ignores, so reading "
             "there adds no context; writing or editing there does",
             RELEASE + "packages/core/src/tools/read-file.ts `validateToolParamValues`; write-file.ts, "
             "edit.ts call `discoverJitContext` without that test; run against a fake model", "code",
             CHECKED),
        Fact("files", "with several names, the files of every name load (not the first found)",
             RELEASE + "packages/core/src/utils/memoryDiscovery.ts `findUpwardGeminiFiles`", "code", CHECKED),
        Fact("files", "`context.fileName` adds its names in front of `GEMINI.md`, which still loads",
             RELEASE + "packages/core/src/tools/memoryTool.ts `setGeminiMdFilename`, "
             "called once at start from the CLI's config", "code", CHECKED),
        Fact("files", "`context.fileName` comes from `.gemini/settings.json` in the folder Gemini CLI "
             "starts in (comments allowed), merged with the user's and the system's settings, which "
             "rulelens does not read; a file that is not a JSON object, or a `fileName` holding anything "
             "but strings, stops Gemini CLI at start",
             RELEASE + "packages/cli/src/config/settings.ts `loadSettings`, packages/core/src/tools/"
             "memoryTool.ts `setGeminiMdFilename`", "code", CHECKED),
        Fact("loading", "in a folder the user has not trusted (folder trust is on by default), no project "
             "context file loads, at start or just in time",
             RELEASE + "packages/core/src/context/memoryContextManager.ts `discoverMemoryPaths`, "
             "`discoverContext`", "code", CHECKED),
        Fact("loading", "`@path` (at the start or after whitespace, outside backticks) imports a file in "
             "the importing file's place, five levels deep, from inside the project; one that names no "
             "readable file there becomes an `Import failed` comment",
             RELEASE + "packages/core/src/utils/memoryImportProcessor.ts `processImports`", "code", CHECKED),
        Fact("loading", "with `context.importFormat: \"flat\"`, the files loaded at start follow imports at "
             "every depth and leave a failed import as written; those loaded just in time are still read "
             "five levels deep",
             RELEASE + "packages/core/src/utils/memoryImportProcessor.ts `processImports` (`processFlat`); "
             "memoryDiscovery.ts `loadJitSubdirectoryMemory` reads \"tree\"", "code", CHECKED),
        Fact("loading", "the files concatenated in path order; empty files add nothing",
             RELEASE + "packages/core/src/utils/memoryDiscovery.ts `concatenateInstructions`", "code",
             CHECKED),
    )
    budget = None
    source = DOCS
    # Run end to end on 75 real repositories (bench/agents_e2e.py) for a read, an edit and a
    # create, and in tests/conformance/e2e: each brings the path's files after its tool.
    end_to_end = frozenset(("read", "edit", "create"))
    per_moment = True
    codes = frozenset(("gemini-settings-invalid", "gemini-cli-import-failed"))
    file_globs = ("**/GEMINI.md", SETTINGS)
    names: ClassVar[tuple[str, ...]] = DEFAULT  # the default; `file_names` holds the project's

    def __init__(self, ctx: Context) -> None:
        self.settings_problem: str | None = None
        self.file_names = self.read_names(ctx)
        # Only the files loaded at start: those loaded just in time are always read "tree".
        self.flat_at_start = settings_import_format(ctx.root, ctx.reads) == "flat"
        super().__init__(ctx)
        # Listed so that `check` and the editor show its finding, and so that a project whose
        # context files git ignores (Gemini CLI still loads them) has Gemini CLI present.
        if self.settings_problem is not None or ctx.is_file(SETTINGS):
            self.files.append(ctx.read_file(SETTINGS, self.id))

    def read_names(self, ctx: Context) -> tuple[str, ...]:
        names, self.settings_problem = settings_file_names(ctx.root, ctx.reads)
        return names

    def named(self, rel: str) -> str | None:
        """The configured name `rel` ends with (a name may hold folders: `docs/CONTEXT.md`)."""
        return next((n for n in self.file_names if rel == n or rel.endswith("/" + n)), None)

    def chain_folder(self, rel: str) -> str:
        """The folder whose chain link `rel` is: the one the configured name is relative to."""
        name = self.named(rel) or rel.rpartition("/")[2]
        return rel[: -len(name)].rstrip("/")

    def discover(self) -> list[str]:
        found = set(self.ctx.named(*self.file_names))  # what `named` finds, searched in bulk
        found.update(n for n in self.file_names if self.ctx.is_file(n))
        return sorted(found, key=lambda p: (self.chain_folder(p).count("/") + bool(self.chain_folder(p)), p))

    def chosen(self) -> dict[str, AgentFile]:
        """Not one file a folder: every non-empty file of every name loads."""
        return {f.rel: f for f in self.files if f.text.strip()}

    def decide(self, f: AgentFile, path: str) -> Decision:
        """The root's files load at start; the others when a tool touches a path below them."""
        if f.rel == SETTINGS or not f.text.strip():
            return None
        folder = self.chain_folder(f.rel)
        if not folder:
            return self.load(f, "always")
        return self.load(f, "directory") if path.startswith(folder + "/") else None

    def loads_for(self, f: AgentFile, paths: Sequence[str]) -> set[str]:
        if f.rel == SETTINGS or not f.text.strip():
            return set()
        folder = self.chain_folder(f.rel)
        return set(starting_with(paths, folder + "/") if folder else paths)

    @cached_property
    def _unlisted(self) -> dict[str, list[AgentFile]]:
        """`unlisted`'s answers, by folder."""
        return {}

    @cached_property
    def _imported(self) -> dict[str, list[str]]:
        """`imported`'s answers, by importing file."""
        return {}

    @cached_property
    def _import_texts(self) -> dict[str, str]:
        """The imported files' texts, read once for every importer."""
        return {}

    @cached_property
    def _import_via(self) -> dict[str, dict[str, str]]:
        """Per importing file, each imported file's importer and line."""
        return {}

    def unlisted(self, folder: str) -> list[AgentFile]:
        """The context files in `folder` that the project's file list leaves out (ignored by git):
        Gemini CLI tests each name's path, so it loads them."""
        cache = self._unlisted
        if folder not in cache:
            found = []
            for name in self.file_names:
                rel = f"{folder}/{name}" if folder else name
                if self.file(rel) is None and self.ctx.is_file(rel):
                    found.append(self.ctx.read_file(rel, self.id))
            cache[folder] = found
        return cache[folder]

    def flat(self, f: AgentFile) -> bool:
        """Whether Gemini CLI reads `f`'s imports "flat": a file it loads at start, when the
        settings say so."""
        return self.flat_at_start and not self.chain_folder(f.rel)

    def imported(self, f: AgentFile) -> list[str]:
        """The files `f`'s `@path` imports pull in, at every depth Gemini CLI follows."""
        cache = self._imported
        if f.rel not in cache:
            texts = self._import_texts
            via = self._import_via.setdefault(f.rel, {})
            found = (imported(self.ctx.root, f.rel, f.text, texts, self.ctx.reads, self.flat(f), via)
                     if "@" in f.text else [])
            cache[f.rel] = found
        return cache[f.rel]

    def view(self, path: str, on: Moment = "read") -> list[Load | Maybe]:
        """The chain for `path`, root first, each file followed by the files it imports (loaded
        with it), and the files git ignores on the way."""
        out: list[Load | Maybe] = []
        seen: set[str] = set()
        for folder, files in self.on_the_way(path):
            here = [f for _, f in files] + self.unlisted(folder)
            for f in sorted(here, key=lambda x: x.rel):
                d = self.decide(f, path)
                if not isinstance(d, Load) or d.file in seen:
                    continue
                out.append(d)
                seen.add(d.file)
                for rel in self.imported(f):
                    if rel not in seen:
                        size = len(self.__dict__["_import_texts"][rel].encode("utf-8"))
                        out.append(Load(rel, d.how, (), size, self.__dict__["_import_via"][f.rel].get(rel)))
                        seen.add(rel)
        return out

    def file_traps(self, f: AgentFile) -> list[Problem]:
        if f.rel != SETTINGS:
            return self.import_traps(f)
        wrong = context_file_names(f.text)[1] if f.text.strip() else self.settings_problem
        if wrong is None:
            return []
        fatal = stops_at_start(f.text)  # an empty or unreadable file too: JSON.parse("") throws
        if fatal:
            then = ("Gemini CLI does not start until it is fixed (it reports the file and asks you to fix "
                    f"it; {CONFIRMED})")
        elif "outside" in wrong:
            then = "Gemini CLI looks for such a name above each folder, which rulelens does not follow"
        else:
            then = "Gemini CLI warns that the settings are invalid"
        return [Problem(
            SETTINGS, 0, "warning", "gemini-settings-invalid",
            f"Gemini CLI cannot take its context file names from this settings file: {wrong}. {then}; "
            "rulelens reads the default `GEMINI.md` chain meanwhile. Write valid JSON, such as "
            '`"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}`.')]

    def import_traps(self, f: AgentFile) -> list[Problem]:
        """Each `@word` Gemini CLI takes for an import of a file it cannot read: it puts an
        `Import failed` comment in the text's place, so the model never sees the text."""
        out: list[Problem] = []
        if self.flat(f):  # read "flat", a failed import stays as written
            return out
        for imp in imports(f.text) if "@" in f.text and f.text.strip() else ():
            _, why = target(self.ctx.root, f.rel, imp.path, self.ctx.reads)
            if why is None:
                continue
            line = f.text.count("\n", 0, imp.start)
            col = imp.start - (f.text.rfind("\n", 0, imp.start) + 1)
            named = posixpath.normpath(posixpath.join(posixpath.dirname(f.rel), imp.path))
            where = ("a file outside the project, which it refuses" if why == "outside"
                     else f"the file `{named}`, which the project does not have")
            message = (f"Gemini CLI reads `@{imp.path}` as an import of {where}: it replaces the text "
                       f"with an `Import failed` comment, so the model never sees it ({CONFIRMED}). "
                       "Put it in backticks "
                       f"(`` `@{imp.path}` ``) to keep it as text, or name a file inside the project.")
            p = problem(f, line, "warning", "gemini-cli-import-failed", message)
            out.append(Problem(p.file, p.line, p.severity, p.code, p.message, col, col + imp.end - imp.start))
        return out
