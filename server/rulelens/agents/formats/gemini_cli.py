"""Gemini CLI: the context-file chain (`GEMINI.md` by default), named by the project's settings.

Gemini CLI reads every file named in `context.fileName` (one name or a list; `GEMINI.md` when
unset) in the working folder and each folder above it up to the project root, and, when a tool
touches a file, in that file's folder and the folders between; all are concatenated, root
first. rulelens takes the edited file's folder as the working folder, so the chain is the root's
files down to that folder's.

The names come from the project's `.gemini/settings.json`: the user's `~/.gemini/settings.json`
and a system settings file can name others on one machine, but rulelens reports what the project
itself sets, the same on every machine.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from rulelens.agents.base import Context
from rulelens.agents.facts import Fact
from rulelens.agents.formats.codex import Codex
from rulelens.agents.model import AgentFile, Decision
from rulelens.agents.reading import read_agent_file
from rulelens.rules.format.reading import decode
from rulelens.rules.model import Problem
from rulelens.rules.project.sorted_paths import starting_with

DOCS = "https://geminicli.com/docs/cli/gemini-md"
SETTINGS_DOCS = "https://geminicli.com/docs/reference/configuration"
CODE = "google-gemini/gemini-cli packages/core/src/utils/memoryDiscovery.ts, tools/memoryTool.ts"
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


def settings_file_names(root: Path) -> tuple[tuple[str, ...], str | None]:
    """The context file names the project's settings under `root` set, and what is wrong with
    the settings file (None when nothing is, or when there is none)."""
    try:
        raw = (root / SETTINGS).read_bytes()[:MAX_SETTINGS + 1]
    except FileNotFoundError:
        return DEFAULT, None
    except OSError as e:
        return DEFAULT, f"it cannot be read ({e.strerror or e})"
    if len(raw) > MAX_SETTINGS:
        return DEFAULT, "it is over 1 MiB"
    return context_file_names(decode(raw)[0])


class GeminiCli(Codex):
    id: ClassVar[str] = "gemini-cli"
    name: ClassVar[str] = "Gemini CLI"
    facts = (
        Fact("files", "every file named by `context.fileName` (a string or a list; `GEMINI.md` when unset) "
             "in each folder from the root down to the working folder, and in the folders of files a tool "
             "touches", DOCS, "docs", "2026-12-04"),
        Fact("files", "`context.fileName` from the project's `.gemini/settings.json` (comments allowed); "
             "user and system settings files can override it on one machine, and rulelens does not read "
             "them", SETTINGS_DOCS, "docs", "2026-12-04"),
        Fact("files", "with several names, the files of every name load (not the first found)", CODE, "code",
             "2026-12-04"),
        Fact("files", "`context.fileName` adds its names in front of `GEMINI.md`, which still loads",
             "@google/gemini-cli@0.61.0 (npm): packages/core/src/tools/memoryTool.ts `setGeminiMdFilename`, "
             "called once at start from the CLI's config", "code", "2026-12-05"),
        Fact("loading", "the chain, concatenated root first; empty files add nothing", CODE, "code",
             "2026-12-04"),
    )
    budget = None
    source = DOCS
    codes = frozenset(("gemini-settings-invalid",))
    file_globs = ("**/GEMINI.md", SETTINGS)
    names: ClassVar[tuple[str, ...]] = DEFAULT  # the default; `file_names` holds the project's

    def __init__(self, ctx: Context) -> None:
        self.settings_problem: str | None = None
        self.file_names = self.read_names(ctx)
        super().__init__(ctx)
        if self.settings_problem is not None:  # listed so `check` and the editor show the finding
            self.files.append(read_agent_file(ctx.root, SETTINGS, self.id))

    def read_names(self, ctx: Context) -> tuple[str, ...]:
        names, self.settings_problem = settings_file_names(ctx.root)
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
        found.update(n for n in self.file_names if (self.ctx.root / n).is_file())
        return sorted(found, key=lambda p: (self.chain_folder(p).count("/") + bool(self.chain_folder(p)), p))

    def chosen(self) -> dict[str, AgentFile]:
        """Not one file a folder: every non-empty file of every name loads."""
        return {f.rel: f for f in self.files if f.text.strip()}

    def decide(self, f: AgentFile, path: str) -> Decision:
        if f.rel == SETTINGS or not f.text.strip():
            return None
        folder = self.chain_folder(f.rel)
        return self.load(f, "directory") if not folder or path.startswith(folder + "/") else None

    def loads_for(self, f: AgentFile, paths: Sequence[str]) -> set[str]:
        if f.rel == SETTINGS or not f.text.strip():
            return set()
        folder = self.chain_folder(f.rel)
        return set(starting_with(paths, folder + "/") if folder else paths)

    def file_traps(self, f: AgentFile) -> list[Problem]:
        if f.rel != SETTINGS:
            return []
        wrong = context_file_names(f.text)[1] if f.text.strip() else self.settings_problem
        if wrong is None:
            return []
        return [Problem(
            SETTINGS, 0, "warning", "gemini-settings-invalid",
            f"Gemini CLI cannot take its context file names from this settings file: {wrong}. rulelens reads "
            "the default `GEMINI.md` chain until it is fixed (what Gemini CLI itself then does is not "
            'documented). Write valid JSON, such as `"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}`.')]

    def coverage_key(self, f: AgentFile) -> tuple[str, ...]:
        return (self.id, f.rel)
