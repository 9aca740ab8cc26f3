"""Codex: the `AGENTS.md` chain from the project root down to the working folder.

Read in Codex's released binary (`@openai/codex` 0.171.0 on npm, driven against a fake model by
tests/conformance/codex): the project root is the nearest folder at or above the working
folder holding `.git` (a folder, or a file as a submodule or worktree has); without one, Codex
reads the working folder's file alone. In each folder from the root down, the first of
`AGENTS.override.md`, `AGENTS.md` and the configured fallback names that exists is that
folder's file, even when it is empty (then the folder adds nothing). The files are joined root
first until `project_doc_max_bytes` (32 KiB by default) is spent: the file that crosses it is
cut there, and the ones after it are not read. A trusted project's `.codex/config.toml` can set
the fallback names and the cap.

Codex reads the chain once, at start, for the folder it starts in, and never again: reading,
editing or creating a file below a nested `AGENTS.md` does not load it (run end to end on 75
repositories and on generated projects). rulelens answers for Codex started at the project root,
as people start it and as the end-to-end runs do: the root's file loads; each nested file on the
path's way is listed as loading only when Codex is started in its folder or below it (a
`start-folder` maybe). `chain(path)` is the whole chain of an agent started in the path's folder,
which tests/conformance/codex checks against the binary.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar

from rulelens.agents.base import Context, problem
from rulelens.agents.facts import Fact
from rulelens.agents.formats.folder_chain import FolderChain, folder_of
from rulelens.agents.model import AgentFile, Budget, Decision, Load, Maybe, Moment
from rulelens.rules.format.reading import decode
from rulelens.rules.model import Problem
from rulelens.workspace.sorted_paths import prefix_span, starting_with

NAMES: tuple[str, ...] = ("AGENTS.override.md", "AGENTS.md")
RELEASE = "Codex 0.171.0"
CODE = "@openai/codex@0.171.0 (npm): the codex binary"
DOCS = "https://developers.openai.com/codex/guides/agents-md"
CONFIG = ".codex/config.toml"
DEFAULT_CAP = 32 * 1024
MAX_CONFIG = 1024 * 1024


def project_settings(text: str) -> tuple[tuple[str, ...], int, str | None]:
    """The fallback file names and the cap a `.codex/config.toml` sets, and what is wrong with
    it (None when nothing is): Codex does not start with a config it cannot read."""
    from rulelens.rules.format.toml_text import TomlError, toml_loads

    try:
        data: dict[str, Any] = toml_loads(text)
    except TomlError as e:
        return (), DEFAULT_CAP, f"it is not valid TOML ({e})"
    names: Any = data.get("project_doc_fallback_filenames", [])
    cap: Any = data.get("project_doc_max_bytes", DEFAULT_CAP)
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return (), DEFAULT_CAP, "`project_doc_fallback_filenames` is not a list of strings"
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 0:
        return tuple(names), DEFAULT_CAP, "`project_doc_max_bytes` is not a whole number of bytes"
    return tuple(n for n in names if n), cap, None


class Codex(FolderChain):
    id: ClassVar[str] = "codex"
    name: ClassVar[str] = "Codex"
    release: ClassVar[str | None] = "0.171.0"
    facts: ClassVar[tuple[Fact, ...]] = (
        Fact("files", "in each folder from the project root down to the working folder, the first of "
             "`AGENTS.override.md`, `AGENTS.md` and the fallback names that exists (a file or a link); an "
             "empty or blank one still claims its folder, which then adds nothing",
             f"{CODE} `codex exec`, first request's AGENTS.md instructions", "code", "2026-12-05"),
        Fact("files", "the project root is the nearest folder at or above the working folder holding `.git` "
             "(a folder or a file); with none, only the working folder's file is read; "
             "`project_root_markers` in the user's config changes the markers, a project's config cannot",
             f"{CODE} `codex exec` in trees with and without `.git`", "code", "2026-12-05"),
        Fact("files", "`project_doc_fallback_filenames` and `project_doc_max_bytes` in the project's "
             "`.codex/config.toml` apply once the user trusts the project; the names are case-sensitive "
             "(`agents.md` is not read on Linux)", f"{CODE} `codex exec` with a trusted project", "code",
             "2026-12-05"),
        Fact("loading", "the chain, root first, once per run, joined by blank lines; the global "
             "`$CODEX_HOME/AGENTS.override.md` (else `AGENTS.md`, an empty override not claiming it) goes "
             "before it and does not count against the cap", f"{CODE} `codex exec`", "code", "2026-12-05"),
        Fact("loading", "the chain is read once, at start, for the folder Codex starts in, and never again: "
             "reading, editing or creating a file below a nested `AGENTS.md` does not load it; rulelens "
             "answers for Codex started at the project root (the root's file), and lists each nested file "
             "on the path's way as loading only when Codex is started in its folder or below",
             f"{CODE} `codex exec` run end to end (agent_runs) at the root and in a subfolder, "
             "on generated projects and 75 real repositories", "code", "2026-12-07"),
        Fact("cap", "`project_doc_max_bytes` (32 KiB by default) over the chain's bytes: the file that "
             "crosses it is cut at the byte that spends it, the files after it are not read; a blank "
             "file, or a cut that is all blank, costs nothing and the next file gets the rest; 0 reads no "
             "project file", f"{CODE} `codex exec` with files around the cap",
             "code", "2026-12-05"),
    )
    budget: Budget | None = Budget(
        DEFAULT_CAP, "bytes", "path", f"`project_doc_max_bytes`, confirmed in {RELEASE}", True)
    source = DOCS
    # One answer for every moment (the chain loads at start), run end to end for each: the read
    # and the create on 75 real repositories (bench/agents_e2e.py), all three on generated
    # projects in tests/conformance/e2e.
    per_moment = True
    end_to_end = frozenset(("read", "edit", "create"))

    codes = frozenset(("codex-shadowed", "codex-empty-shadows", "codex-config-invalid",
                       "codex-no-project-root"))
    file_globs: ClassVar[tuple[str, ...]] = ("**/AGENTS.md", "**/AGENTS.override.md", CONFIG)
    # The file names of the chain, the first preferred in a folder.
    names: ClassVar[tuple[str, ...]] = NAMES

    def __init__(self, ctx: Context) -> None:
        self.config_problem: str | None = None
        self.fallbacks: tuple[str, ...] = ()
        self.read_config(ctx)
        super().__init__(ctx)
        if self.config_problem is not None:  # listed so `check` and the editor show the finding
            self.files.append(ctx.read_file(CONFIG, self.id))

    def read_config(self, ctx: Context) -> None:
        """The project's fallback names and cap, as Codex reads them in a trusted project."""
        try:
            raw = ctx.reads.read_bytes(ctx.root / CONFIG, MAX_CONFIG + 1)
        except FileNotFoundError:
            return
        except OSError as e:
            self.config_problem = f"it cannot be read ({e.strerror or e})"
            return
        names, cap, self.config_problem = project_settings(decode(raw)[0])
        self.fallbacks = tuple(n for n in names if n not in NAMES and "/" not in n)
        if cap != DEFAULT_CAP and self.budget is not None:
            self.budget = Budget(cap, "bytes", "path", f"`project_doc_max_bytes` in `{CONFIG}`", True)

    @property
    def chain_names(self) -> tuple[str, ...]:
        """The names Codex looks for in each folder, in order."""
        return self.names + self.fallbacks

    def discover(self) -> list[str]:
        """The listed files of the chain's names, and those on disk that git's list leaves out
        (an `AGENTS.override.md` is often a local, ignored file, and Codex reads it all the same)
        in the root and in each folder that has one of them."""
        names = self.chain_names
        found = set(self.ctx.named(*names))
        for folder in {"", *(folder_of(rel) for rel in found)}:
            prefix = folder + "/" if folder else ""
            found.update(prefix + n for n in names if self.ctx.is_file(prefix + n))
        return sorted(found, key=lambda p: (p.count("/"), p))

    def chosen(self) -> dict[str, AgentFile]:
        """The one file Codex takes in each folder: the first name there that is a file (a link
        that leads nowhere is passed over), empty or not."""
        if not hasattr(self, "_chosen"):
            by_folder: dict[str, AgentFile] = {}
            for name in reversed(self.chain_names):  # the later names first, so earlier replace them
                for f in self.files:
                    if f.rel.rpartition("/")[2] == name and self.ctx.is_file(f.rel):
                        by_folder[folder_of(f.rel)] = f
            self._chosen = by_folder
        return self._chosen

    @cached_property
    def _markers(self) -> dict[str, bool]:
        """`has_marker`'s answers, by folder."""
        return {}

    @cached_property
    def _by_rel(self) -> dict[str, AgentFile]:
        """The agent's files by path (`blank_starts`)."""
        return {f.rel: f for f in self.files}

    def has_marker(self, folder: str) -> bool:
        """Whether `folder` (root-relative) holds `.git`, Codex's project root marker; remembered.
        Inside a repository, git lists no file of a repository nested in it, so a folder with a
        listed file in it holds none: only the others are looked at (a monorepo has 50,000)."""
        known = self._markers
        if folder not in known:
            known[folder] = not (folder and self.marked_above and self.lists_inside(folder)) and \
                self.ctx.reads.exists(self.ctx.root / folder / ".git")
        return known[folder]

    def lists_inside(self, folder: str) -> bool:
        """Whether the file list holds a file below `folder` (not git's `folder/` entry for a
        repository it does not enter)."""
        paths, prefix = self.ctx.paths, folder + "/"
        start, end = prefix_span(paths, prefix)
        return any(paths[i] != prefix for i in range(start, min(end, start + 2)))

    @cached_property
    def marked_above(self) -> bool:
        """Whether the root or a folder above it holds `.git`."""
        here = self.ctx.root.resolve()
        return any(os.path.exists(d / ".git") for d in (here, *here.parents))

    def chain_start(self, folder: str) -> str:
        """Where Codex's chain starts when it works in `folder`: the nearest folder at or above
        it holding `.git`; the root when only the root or a folder above it does; else `folder`
        itself (Codex then has no project root and reads that folder alone)."""
        parts = folder.split("/") if folder else []
        for depth in range(len(parts), 0, -1):
            if self.has_marker("/".join(parts[:depth])):
                return "/".join(parts[:depth])
        return "" if self.marked_above else folder

    def reads(self, chain: str, path: str) -> bool:
        """Whether Codex working in `path`'s folder reads the file of the folder `chain`."""
        folder = folder_of(path)
        if chain and folder != chain and not folder.startswith(chain + "/"):
            return False
        start = self.chain_start(folder)
        return not start or chain == start or chain.startswith(start + "/")

    def decide(self, f: AgentFile, path: str) -> Decision:
        folder = folder_of(f.rel)
        if self.chosen().get(folder) is not f or not f.text.strip():
            return None
        return self.load(f, "directory") if self.reads(folder, path) else None

    def blank_starts(self, loads: Sequence[Load]) -> dict[str, int]:
        by_rel = self._by_rel
        out: dict[str, int] = {}
        for load in loads:
            f = by_rel.get(load.file)
            if f is not None:
                out[load.file] = len(f.text.encode("utf-8")) - len(f.text.lstrip().encode("utf-8"))
        return out

    def loads_for(self, f: AgentFile, paths: Sequence[str]) -> set[str]:
        """The paths below the file's folder whose chain reaches it, when it is the folder's
        chosen file: no per-path test (the first path need not be below it, so the base
        class's shortcut would miss)."""
        folder = folder_of(f.rel)
        if self.chosen().get(folder) is not f or not f.text.strip():
            return set()
        below = starting_with(paths, folder + "/") if folder else paths
        starts: dict[str, bool] = {}
        out: set[str] = set()
        for path in below:
            at = folder_of(path)
            if at not in starts:
                starts[at] = self.reads(folder, path)
            if starts[at]:
                out.add(path)
        return out

    def chain(self, path: str) -> list[Load]:
        """The chain Codex reads when started in `path`'s folder, root first: only the files of
        the folders on its way are asked."""
        found: list[tuple[int, int, Load]] = []
        for _, files in self.on_the_way(path):
            for i, f in files:
                d = self.decide(f, path)
                if isinstance(d, Load):
                    found.append((d.file.count("/"), i, d))
        return [d for _, _, d in sorted(found, key=lambda t: t[:2])]

    def started_in_folder(self, path: str) -> list[Load]:
        return self.chain(path)

    def view(self, path: str, on: Moment = "read") -> list[Load | Maybe]:
        """What Codex started at the project root loads for `path` (at any moment: it reads the
        chain once, at start): the root's file; the nested files of the path's chain load only
        when it is started in their folder or below."""
        out: list[Load | Maybe] = []
        root = self.chosen().get("")
        if root is not None and root.text.strip():
            out.append(self.load(root, "always"))
        out += [Maybe(d.file, "start-folder") for d in self.chain(path) if folder_of(d.file)]
        return out

    def file_traps(self, f: AgentFile) -> list[Problem]:
        if f.rel == CONFIG:
            wrong = project_settings(f.text)[2] if f.text.strip() else self.config_problem  # as typed
            if wrong is None:
                return []
            return [problem(f, 0, "error", "codex-config-invalid",
                            f"{self.name} cannot read this project config: {wrong}. In a "
                            f"trusted project it stops at start ({RELEASE}); rulelens reads the default "
                            "`AGENTS.md` chain until it is fixed. Fix the file, such as "
                            '`project_doc_fallback_filenames = ["CLAUDE.md"]`.')]
        folder = folder_of(f.rel)
        winner = self.chosen().get(folder)
        if winner is not None and winner.rel == f.rel and f.text.strip():
            return self.root_traps(f, folder)
        if winner is None or not f.text.strip():
            return []
        if not winner.text.strip():
            return [problem(f, 0, "warning", "codex-empty-shadows",
                            f"{self.name} takes the empty `{winner.rel}` as this folder's file and stops "
                            f"looking, so it never reads this one (confirmed in {RELEASE}). Delete the "
                            "empty file, or move these instructions into it.")]
        return [problem(f, 0, "info", "codex-shadowed",
                        f"{self.name} reads `{winner.rel}` in this folder instead, so it never reads "
                        "this file.")]


    def root_traps(self, f: AgentFile, folder: str) -> list[Problem]:
        """A folder's file that no subfolder's work reaches: there is no `.git` to root the chain."""
        if self.marked_above or self.has_marker(folder):
            return []
        below = next((d for d in sorted(self.ctx.folders) if d.startswith(folder + "/" if folder else "")
                      and d != folder and self.chain_start(d) == d), None)
        if below is None:
            return []
        return [problem(f, 0, "info", "codex-no-project-root",
                        f"{self.name} finds no `.git` in this project or above it, so it has no project root "
                        "and reads only the `AGENTS.md` of the folder it starts in: this file does not "
                        f"reach work started in `{below}/` (confirmed in {RELEASE}). Make the project a git "
                        "repository, or set `project_root_markers` in your Codex config.")]


def chain_reads(loads: Sequence[Load], limit: int, blank: Mapping[str, int] | None = None) -> list[int]:
    """The bytes Codex reads of each file of a root-first chain: whole files while the cap
    lasts, the rest of the cap from the file that crosses it, nothing after. A cut that is all
    blank (`blank`: each file's leading blank bytes) is passed over and spends nothing, so the
    next file gets the rest."""
    left = limit
    out: list[int] = []
    for load in loads:
        n = min(load.bytes, left)
        if n < load.bytes and n <= (blank or {}).get(load.file, 0):
            n = 0
        out.append(n)
        left -= n
    return out


def chain_overflow(loads: Sequence[Load], limit: int,
                   blank: Mapping[str, int] | None = None) -> tuple[int, list[str]]:
    """Total bytes of a root-first chain, and the files Codex cuts or does not read past the
    limit."""
    read = chain_reads(loads, limit, blank)
    return sum(load.bytes for load in loads), [load.file for load, n in zip(loads, read, strict=True)
                                               if n < load.bytes]


def cap_words(limit: int, noun: bool = False) -> str:
    """"32 KiB", or the bytes of a cap that is not whole KiB: "4,000-byte" before "cap", else
    "4,000 bytes"."""
    if limit and limit % 1024 == 0:
        return f"{limit // 1024} KiB"
    return f"{limit:,} bytes" if noun else f"{limit:,}-byte"


def overflow_words(loads: Sequence[Load], limit: int, blank: Mapping[str, int] | None = None) -> str:
    """What the cap leaves out of a chain: the file it cuts, and the ones it does not read."""
    read = chain_reads(loads, limit, blank)
    cut = [f"`{load.file}` is cut after {n:,} of its {load.bytes:,} bytes"
           for load, n in zip(loads, read, strict=True) if 0 < n < load.bytes]
    skipped = [f"`{load.file}`" for load, n in zip(loads, read, strict=True) if n == 0]
    if skipped:
        cut.append(f"{', '.join(skipped)} {'is' if len(skipped) == 1 else 'are'} not read")
    return " and ".join(cut)
