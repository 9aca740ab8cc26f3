"""Editor workspace folders → project roots, each with its RuleRepository and file list.

A document belongs to the deepest root that contains it; documents outside every root,
untitled buffers and non-`file:` URIs resolve to None and get nothing.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote_from_bytes

from pygls.uris import to_fs_path

from rulelens.agents.base import Agent
from rulelens.agents.editing import is_agent_path
from rulelens.agents.formats.gemini_cli import DEFAULT as GEMINI_DEFAULT
from rulelens.agents.formats.gemini_cli import settings_file_names
from rulelens.agents.observed import Observed, observed_file, read_observations
from rulelens.agents.project import AgentProject
from rulelens.lsp.wire.payloads import Kind
from rulelens.rules.repository import BOOST, RuleRepository
from rulelens.workspace.filelist import FileList
from rulelens.workspace.filetree import FileTree
from rulelens.workspace.git import GitSession
from rulelens.workspace.reads import Reads
from rulelens.workspace.root import RULES_DIR, find_root, writable
from rulelens.workspace.stat_stamp import Stamp, stamp

# A relative path that pathlib keeps as written: no empty, `.` or leading-slash segment.
_NORMAL_REL = re.compile(r"(?!\.?(?:/|$))[^/]+(?:/(?!\.?(?:/|$))[^/]+)*")

FILES_TTL = 30.0  # seconds a file list lives when no watcher tells us about new files
_SKIP = (".git/",)


class Root:
    """One project root: its rules, and its file list loaded lazily and cached."""

    def __init__(self, path: Path, rules_folder: str, explicit: bool = False) -> None:
        # Each glob bucket compiles the first time a lookup reaches it, on the request path: a
        # warm-up thread would compete (GIL) with the first diagnostics for regexes most
        # sessions never reach.
        self.repo = RuleRepository(path, rules_folder, writable=writable(path, explicit, rules_folder))
        self.path = self.repo.root
        self.uri = self.path.as_uri()
        self.rules_folder = rules_folder
        self.folder: Path | None = None  # the workspace folder it came from (its settings)
        # What git told this root (workspace/git.py): a yes to "work tree", where its caches
        # live. Its own, so that roots never share an answer, and dropped with the root.
        self.git = GitSession()
        self.repo.frontmatter.git = self.git
        self._files: FileList | None = None
        self._tree: FileTree | None = None
        self._files_at = 0.0
        self._quick: tuple[Stamp | None, ...] | None = None
        self._full_at = 0.0
        self._agents: AgentProject | None = None
        self._agents_key: tuple[object, object] | None = None
        self._agents_at = 0.0
        self._uris: dict[str, str] = {}
        self._agents_sig: tuple[tuple[str, Stamp | None], ...] | None = None
        self._named: tuple[str, ...] | None = None
        # The agents' observed loads (agents/observed.py), read again when the hook appends.
        self._observed: tuple[Stamp | None, Observed] | None = None
        self.config_error: str | None = None  # the broken configuration last shown, once
        # Per position encoding, each rule file's parts of a diagnostic already turned into
        # JSON text (features/diagnostics.py fills it): kept with the root, not in the feature.
        self.rendered: dict[str, dict[int, Any]] = {}

    def rel(self, path: str | Path) -> str | None:
        rel = self.repo.rel(path)
        if rel is None:
            real = os.path.realpath(path)
            if real != str(path):
                rel = self.repo.rel(real)
        return rel

    def uri_of(self, rel: str) -> str:
        # Kept: every diagnostic names its rule files' URIs, and `as_uri` is slow next to it.
        uri = self._uris.get(rel)
        if uri is None:
            if len(self._uris) >= 8192:
                self._uris.clear()
            if _NORMAL_REL.fullmatch(rel):  # what `as_uri` gives, without building a Path
                base = self.uri if self.uri.endswith("/") else f"{self.uri}/"
                uri = base + quote_from_bytes(os.fsencode(rel))
            else:
                uri = (self.path / rel).as_uri()
            self._uris[rel] = uri
        return uri

    def writer(self) -> RuleRepository:
        """A repository of this root for one write on another thread (lsp/writes.py)."""
        return RuleRepository(self.path, self.rules_folder, writable=self.repo.writable)

    # -- the project's file list ---------------------------------------------------------
    def files(self, ttl: float | None = None) -> FileList:
        now = time.monotonic()
        if self._files is None or (ttl is not None and now - self._files_at > ttl):
            self._files = FileList.for_root(self.path, self.git)
            self._tree = None
            self._files_at = now
        return self._files

    def tree(self, ttl: float | None = None) -> FileTree:
        files = self.files(ttl)
        if self._tree is None:
            self._tree = FileTree(files.paths)
        return self._tree

    def forget_files(self) -> None:
        self._files = None
        self._tree = None

    # -- other agents' rule files ---------------------------------------------------------
    def agents(self, ttl: float | None = None) -> AgentProject:
        """Every agent's reading of the project, kept until an agent file, a rule file or the
        file list changes (watchers and polling call `forget_agents`)."""
        files = self.files(ttl)
        key = (files, self.repo.files)
        if self._agents is None or self._agents_key is None or any(
                a is not b for a, b in zip(key, self._agents_key, strict=True)):
            self._agents = AgentProject(self.repo, files)
            self._agents_key = key
            self._agents_at = time.monotonic()
            self._agents_sig = self._agent_stats()
        return self._agents

    def observed(self) -> Observed:
        """What real sessions showed agents load here, read again when its file changed."""
        path = observed_file(self.path, self.git)
        seen = stamp(path) if path is not None else None
        if self._observed is None or self._observed[0] != seen:
            self._observed = (seen, Observed(read_observations(path, self.path) if seen else ()))
        return self._observed[1]

    def forget_agents(self) -> None:
        self._agents = None
        self._named = None

    def named_context_files(self) -> tuple[str, ...]:
        """The context file names Gemini CLI reads here besides `GEMINI.md` (its settings can
        name any file), which the cheap path test cannot know."""
        if self._named is None:
            names = settings_file_names(self.path, Reads())[0]
            self._named = tuple(n for n in names if n not in GEMINI_DEFAULT)
        return self._named

    def is_agent_rel(self, rel: str) -> bool:
        """Whether `rel` may be some agent's rule file: a known place or a configured name."""
        return is_agent_path(rel) or any(rel == n or rel.endswith("/" + n)
                                         for n in self.named_context_files())

    def agent_owner(self, rel: str, ttl: float | None = None) -> Agent | None:
        """The agent whose rule file `rel` is; None for every other file (a cheap path test
        first, so source files never read the agents)."""
        if not self.is_agent_rel(rel):
            return None
        owner = self.agents(ttl).owner_of(rel)
        if owner is None and time.monotonic() - self._agents_at > 1.0 and (self.path / rel).is_file():
            self.forget_agents()  # created since the last reading, before any watcher said so
            owner = self.agents(ttl).owner_of(rel)
        return owner

    def _agent_stats(self) -> tuple[tuple[str, Stamp | None], ...]:
        sig: list[tuple[str, Stamp | None]] = []
        for agent in self._agents.present if self._agents is not None else []:
            if agent.home:
                continue
            sig += [(f.rel, stamp(self.path / f.rel)) for f in agent.files]
        return tuple(sig)

    def agents_moved(self) -> bool:
        """Whether an agent file read last time changed on disk (for clients without watchers;
        new agent files come with the file list)."""
        if self._agents is None:
            return False
        moved = self._agent_stats() != self._agents_sig
        if moved:
            self.forget_agents()
        return moved

    # -- cheap change detection for clients without file watching -------------------------
    def poll(self, full_every: float = 1.0) -> bool:
        """Reload the rules when the folders' mtimes moved, or every `full_every` seconds.

        Atomic writes (rulelens, Boost, git) rename into the folder and so move its mtime: one
        stat per request catches them. In-place edits only change the file, so a full re-stat
        of the rule files runs at most once per `full_every` seconds.
        """
        quick = self._quick_signature()
        now = time.monotonic()
        if quick == self._quick and now - self._full_at < full_every:
            return False
        first = self._quick is None
        files_moved = not first and quick[-2:] != (self._quick or ())[-2:]
        self._quick = quick
        self._full_at = now
        if files_moved:  # a checkout, add or commit: glob counts may have changed
            self.forget_files()
        rules_moved = self.repo.refresh()
        agents_moved = self.agents_moved()
        return not first and (rules_moved or files_moved or agents_moved)  # the first load replaced nothing

    def _quick_signature(self) -> tuple[Stamp | None, ...]:
        """The stamps of both rules folders, then of `.git/index` and `.git/HEAD`."""
        git = self.path / ".git"
        return tuple(stamp(path) for path in (self.repo.rules_path, self.repo.rules_path / BOOST,
                                              git / "index", git / "HEAD"))


@dataclass(frozen=True)
class Target:
    """An open document that rulelens has something to say about."""

    uri: str
    path: Path
    root: Root
    rel: str
    kind: Kind
    agent: Agent | None = None  # the owner of an "agent" file


def path_of_uri(uri: str) -> Path | None:
    """The local path of a `file:` URI; None for untitled, remote or malformed URIs."""
    try:
        fs = to_fs_path(uri)  # None for any other scheme
    except (ValueError, TypeError):
        return None
    return Path(fs) if fs else None


class Roots:
    """The roots of the current workspace; rebuilt when folders or a rules folder change.

    Each workspace folder names its rules folder (its own settings); a root found from a
    document when there are no folders uses the default one.
    """

    def __init__(self, explicit: Path | None = None) -> None:
        self.explicit = explicit
        self.rules_folder = RULES_DIR  # for roots adopted from documents
        self._folders: list[Path] = []
        self._roots: dict[Path, Root] = {}
        self._lazy = True  # no workspace folders: find roots from the documents themselves

    def configure(self, folders: Iterable[tuple[Path, str]], default_rules_folder: str) -> None:
        """`folders`: each workspace folder with its rules folder."""
        pairs = list(folders)
        self._folders = [f for f, _ in pairs]
        self.rules_folder = default_rules_folder
        wanted: dict[Path, tuple[str, Path | None]] = {}
        if self.explicit is not None:
            near = [(f, rf) for f, rf in pairs
                    if f == self.explicit or f in self.explicit.parents or self.explicit in f.parents]
            owner, folder = near[0] if near else (None, default_rules_folder)
            wanted[find_root(self.explicit, self.explicit, folder)] = (folder, owner)
        else:
            for f, folder in pairs:
                wanted.setdefault(find_root(f, None, folder), (folder, f))
        self._lazy = not wanted
        old = self._roots
        roots: dict[Path, Root] = {}
        for path, (folder, workspace_folder) in wanted.items():
            kept = old.get(path)
            root = kept if kept is not None and kept.rules_folder == folder else Root(
                path, folder, explicit=self.explicit is not None)
            root.folder = workspace_folder
            roots[path] = root
        self._roots = roots

    @property
    def folders(self) -> list[Path]:
        return list(self._folders)

    def all(self) -> list[Root]:
        return list(self._roots.values())

    def for_path(self, path: Path) -> tuple[Root, str] | None:
        best: tuple[Root, str] | None = None
        for root in self._roots.values():
            rel = root.rel(path)
            if rel is not None and (best is None or len(root.path.parts) > len(best[0].path.parts)):
                best = (root, rel)
        if best is None and self._lazy:
            best = self._adopt(path)
        return best

    def _adopt(self, path: Path) -> tuple[Root, str] | None:
        for folder in Path(os.path.realpath(path)).parents:
            if (folder / self.rules_folder).is_dir():
                root = self._roots.setdefault(folder, Root(folder, self.rules_folder))
                rel = root.rel(path)
                return (root, rel) if rel is not None else None
        return None

    def target(self, uri: str, files_ttl: float | None = FILES_TTL) -> Target | None:
        path = path_of_uri(uri)
        if path is None:
            return None
        found = self.for_path(path)
        if found is None:
            return None
        root, rel = found
        if rel.startswith(_SKIP):
            return None
        kind: Kind = "source"
        owner: Agent | None = None
        if root.repo.is_index(rel):
            kind = "index"
        elif root.repo.is_rule_file(rel):
            kind = "rule"
        else:
            owner = root.agent_owner(rel, files_ttl)
            if owner is not None:
                kind = "agent"
        return Target(uri, path, root, rel, kind, owner)

    def by_uri(self, uri: str) -> Root | None:
        path = path_of_uri(uri)
        if path is None:
            return None
        resolved = Path(os.path.realpath(path))
        return next((r for r in self._roots.values() if r.path in (path, resolved)), None)
