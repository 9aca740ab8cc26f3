"""`stale-path` and `stale-name`: rule text that names files or code that no longer exist.

What one check needs about the project (where each file name lives, which names occur in the
files, what git ignores) is computed once per file list and kept with it, so that `check_all`
searches every identifier of every rule in one pass, and the language server, which keeps one
file list for a while, does not search again for names it has already looked up. Between runs,
the search's results, the mentions of each rule text and the commits of the history are kept in
git's folder (search_cache.py, mention_cache.py, drift.py).
"""

from __future__ import annotations

import bisect
import posixpath
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from rulelens.rules.check.stale import DRIFT_AFTER
from rulelens.rules.check.stale.drift import History, drift_problem
from rulelens.rules.check.stale.evidence import Evidence, Removal
from rulelens.rules.check.stale.mention_cache import MentionStore
from rulelens.rules.check.stale.mention_cache import key as mention_key
from rulelens.rules.check.stale.mentions import Identifier, Mention, find_mentions, identifier_in
from rulelens.rules.check.stale.text_search import Search, cached_scan_for
from rulelens.rules.check.stale.words import present
from rulelens.rules.format.reading import split_lines
from rulelens.rules.model import Problem, RuleFile
from rulelens.workspace.filelist import FileList
from rulelens.workspace.git import GitSession
from rulelens.workspace.later import Later, in_thread

MAX_SUGGESTIONS = 3
UNREAD = frozenset({"file-too-large", "file-binary", "file-unreadable", "rule-symlink"})


@dataclass(frozen=True)
class StalePath:
    """A path a rule names that is not in the project, and same-named files or folders elsewhere."""

    mention: Mention
    candidates: tuple[str, ...]
    removal: Removal | None = None  # the commit that deleted it, when the history is read

    @property
    def replacement(self) -> str | None:
        """The one clear replacement, when there is exactly one candidate."""
        return self.candidates[0] if len(self.candidates) == 1 else None


@dataclass
class ProjectScan:
    """Facts about one project's files, computed on first use and kept for this file list."""

    root: Path
    files: FileList
    rules_dir: str
    _names: dict[str, list[str]] = field(default_factory=dict)
    _folders: dict[str, list[str]] = field(default_factory=dict)
    _indexed: set[str] = field(default_factory=set)
    _wanted: set[str] = field(default_factory=set)
    _top: frozenset[str] | None = None
    _folder_set: frozenset[str] = frozenset()
    _search: Search | None = None
    _first: Search | None = None  # answers a first round from the cache (search_cache.py)
    _searched: bool = False
    _present: dict[str, bool] = field(default_factory=dict)
    _excused: dict[str, bool] = field(default_factory=dict)
    _missing: dict[str, tuple[str, tuple[str, ...]] | None] = field(default_factory=dict)
    _mentions: dict[tuple[str, str], list[Mention]] = field(default_factory=dict)
    _git: bool | None = None
    _history: History | None = None
    _history_read: bool = False
    _history_reading: Later[History | None] | None = None
    _evidence: Evidence | None = None
    _evidence_read: bool = False
    _evidence_lock: threading.Lock = field(default_factory=threading.Lock)
    _store: MentionStore | None = None
    _pending: Later[None] | None = None
    keep_caches: bool = True  # False: read the caches in git's folder, write none (read-only workspace)
    _session: GitSession | None = None

    @property
    def git(self) -> GitSession:
        """The session the file list was listed through (git.py); a list made another way (a
        test's, a review's) gets one of its own, for this scan."""
        if self.files.git is not None:
            return self.files.git
        if self._session is None:
            self._session = GitSession()
        return self._session

    # -- where names live ---------------------------------------------------------------
    def _sets(self) -> None:
        self._folder_set = self.files.folders  # kept by the file list: the agents' view needs them too
        self._top = frozenset(f for f in self._folder_set if "/" not in f)

    def _index(self, names: set[str]) -> None:
        """Files and folders with these names, for paths that are not where the rule says: one
        pass over the list for the names asked so far (most mentions are exact and need none)."""
        wanted = names - self._indexed
        if not wanted:
            return
        for path in self.files.paths:
            name = path[path.rfind("/") + 1 :]
            if name in wanted:
                self._names.setdefault(name, []).append(path)
        for folder in sorted(self._folder_set):
            name = folder[folder.rfind("/") + 1 :]
            if name in wanted:
                self._folders.setdefault(name, []).append(folder)
        self._indexed |= wanted

    @property
    def top_folders(self) -> frozenset[str]:
        if self._top is None:
            self._sets()
        assert self._top is not None
        return self._top

    def _named(self, name: str) -> tuple[list[str], list[str]]:
        if self._top is None:
            self._sets()
        self._index({name} | self._wanted)
        return self._names.get(name, []), self._folders.get(name, [])

    def want_names(self, texts: Iterable[str]) -> None:
        """Names that `missing` will look up, gathered so that one pass over the list finds them."""
        self._wanted.update(posixpath.basename(t.rstrip("/")) for t in texts)

    def mentions(self, rule: RuleFile) -> list[Mention]:
        key = (rule.rel, rule.text)
        if key not in self._mentions:
            store = self._store
            digest = mention_key(rule.text, self.top_folders) if store is not None else ""
            found = store.get(digest) if store is not None else None
            if found is None:
                found = find_mentions(rule, self.top_folders)
                if store is not None:
                    store.put(digest, found)
            self._mentions[key] = found
        return self._mentions[key]

    def keep_mentions(self) -> None:
        """Read the mentions of earlier runs (in git's folder), for `save_mentions` to update."""
        if self._store is None and self.is_git:
            self._store = MentionStore(self.root, self.git)

    def save_mentions(self) -> None:
        if self._store is not None and self.keep_caches:
            self._store.save()

    def unlisted(self, text: str) -> bool:
        """A quick guess at `missing`, before the names are indexed: the path is neither listed
        where written nor on disk (it may still be the tail of a longer path, or ignored)."""
        if self._top is None:
            self._sets()
        rel = posixpath.normpath(text.removeprefix("./").strip("/"))
        return not (rel in self._folder_set or self._listed(rel) or self.files.reads.exists(self.root / rel))

    def missing(self, text: str) -> tuple[str, tuple[str, ...]] | None:
        if text not in self._missing:
            self._missing[text] = self._find_missing(text)
        return self._missing[text]

    def _listed(self, rel: str) -> bool:
        """By bisection of the sorted list: a set of 500,000 paths would be 30 MB more."""
        paths = self.files.paths
        at = bisect.bisect_left(paths, rel)
        return at < len(paths) and paths[at] == rel

    def _find_missing(self, text: str) -> tuple[str, tuple[str, ...]] | None:
        if self._top is None:
            self._sets()
        """None when a mentioned path is in the file list (at the root, or as the tail of a longer
        path, as `Models/User.php` names `app/Models/User.php`); else the path normalised and the
        same-named files or folders elsewhere."""
        anchored = text.startswith(("/", "./"))
        rel = posixpath.normpath(text.removeprefix("./").strip("/"))
        if rel in self._folder_set or (self._listed(rel) and not text.endswith("/")):
            return None
        # Below a listed file: a submodule or a symlinked folder, whose content is not listed.
        if any(self._listed(rel[:i]) for i in range(len(rel)) if rel[i] == "/"):
            return None
        name = rel.rpartition("/")[2]
        files, folders = self._named(name)
        pool = folders if text.endswith("/") else files + folders
        for candidate in pool:
            if candidate == rel or (not anchored and candidate.endswith("/" + rel)):
                return None
        # A path that differs only in case (`Bootstrap/app.php`) has one clear replacement.
        folded = [c for c in pool if c.casefold() == rel.casefold()
                  or c.casefold().endswith("/" + rel.casefold())]
        return rel, tuple(sorted(folded or pool, key=lambda p: (p.count("/"), p)))

    def excused(self, rels: Iterable[str]) -> set[str]:
        """Of paths missing from the list, those that exist here (an ignored local file) or that
        git ignores: `.env` and `storage/logs/` are never in the file list, and are not stale.
        One `git check-ignore --stdin` for all of them (`--no-index`: these are not tracked, and
        reading a large index costs more than the check)."""
        rels = list(rels)
        todo = sorted({r for r in rels if r not in self._excused})
        for rel in todo:
            self._excused[rel] = (self.files.reads.exists(self.root / rel)
                                  or rel.startswith(self.rules_dir + "/"))
        ask = [r for r in todo if not self._excused[r]]
        if ask and self.is_git:
            # check-ignore exits 1 when nothing is ignored: read its output whatever the status.
            out = self.git.completed(self.root, "check-ignore", "--no-index", "-z", "--stdin",
                            input="\0".join(ask).encode("utf-8") + b"\0")
            ignored = set(out.stdout.decode("utf-8", "replace").split("\0")) if out is not None else set()
            for rel in ask:
                self._excused[rel] = rel in ignored
        return {r for r in rels if self._excused.get(r)}

    @property
    def history(self) -> History | None:
        """Recent git history (read once per file list), or None outside git."""
        reading, self._history_reading = self._history_reading, None
        if reading is not None:
            reading.wait()  # what it failed on, it fails on again here
        return self._read_history()

    def _read_history(self) -> History | None:
        if not self._history_read:
            self._history = History.read(self.root, self.rules_dir, git=self.git) if self.is_git else None
            self._history_read = True
        return self._history

    @property
    def evidence(self) -> Evidence | None:
        """What HEAD's history shows was removed (read once per file list); None outside git, in
        a shallow clone or before the first commit."""
        with self._evidence_lock:
            if not self._evidence_read:
                self._evidence = Evidence.read(self.root, self.rules_dir, self.git) if self.is_git else None
                self._evidence_read = True
        return self._evidence

    def evidence_in_background(self) -> Later[Evidence | None]:
        """Read the deleted paths while the rule texts are read for mentions."""
        return in_thread(lambda: self.evidence, name="rulelens-evidence", daemon=True)

    def history_in_background(self) -> None:
        """Start `git log` now, so that it runs while the rule texts are read for mentions."""
        if self._history_read or self._history_reading is not None:
            return
        self._history_reading = in_thread(self._read_history, name="rulelens-history", daemon=True)

    @property
    def is_git(self) -> bool:
        if self._git is None:
            self._git = self.git.work_tree(self.root)
        return self._git

    # -- which names occur ----------------------------------------------------------------
    def prefetch_in_background(self, identifiers: Iterable[Identifier]) -> None:
        """Start the search now, so that grep reads the files while this process checks globs
        and reads git history on the other core; the next `prefetch` waits for it."""
        self._wait()
        wanted = list(identifiers)
        self._pending = in_thread(lambda: self._prefetch(wanted), name="rulelens-stale-search", daemon=True)

    def _wait(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.wait()  # what it failed on, the search that follows fails on again

    def prefetch(self, identifiers: Iterable[Identifier]) -> None:
        """Search every needle not looked up yet, in one pass."""
        self._wait()
        self._prefetch(identifiers)

    def _prefetch(self, identifiers: Iterable[Identifier]) -> None:
        todo = sorted({n for ident in identifiers for alt in ident.alternatives for n in alt
                       if n not in self._present})
        if not todo:  # nothing to search: no list of the files to search made (4 MB at 500,000)
            return
        if not self._searched:
            found_scan = cached_scan_for(self.root, self.files, self.rules_dir,
                                         keep=self.keep_caches)
            if found_scan is not None:
                self._search, self._first = found_scan
            self._searched = True
        if self._search is None or not todo:
            return
        found = present(self._search, todo, first=self._first)
        if found is None:
            return
        for needle in todo:
            self._present[needle] = needle in found

    def is_present(self, ident: Identifier) -> bool | None:
        """True or False once searched; None when the files' text cannot be searched."""
        self.prefetch([ident])
        verdicts = []
        for alt in ident.alternatives:
            states = [self._present.get(n) for n in alt]
            if any(s is None for s in states):
                return None
            verdicts.append(all(states))
        return any(verdicts)


def _scans(files: FileList) -> dict[tuple[Path, str], ProjectScan]:
    """The scans kept with this file list, by project root and rules folder: they live as long
    as the list (a `check`'s, or a language-server root's until its files change)."""
    kept: dict[tuple[Path, str], ProjectScan] = files.kept.setdefault(__name__, {})
    return kept


def root_of(rule: RuleFile) -> tuple[Path, str]:
    """The project root and rules folder a rule file sits in (`rel` is root-relative)."""
    return _root_of(rule.path, rule.rel, rule.is_boost)


@lru_cache(maxsize=4096)
def _root_of(path: Path, rel: str, is_boost: bool) -> tuple[Path, str]:
    depth = rel.count("/") + 1
    folder = rel.rsplit("/", 2 if is_boost else 1)[0]
    return path.parents[depth - 1], folder


def scan_of(rule: RuleFile, files: FileList, keep_caches: bool = True) -> ProjectScan:
    root, rules_dir = root_of(rule)
    per_list = _scans(files)
    key = (root, rules_dir)
    if key not in per_list:
        per_list[key] = ProjectScan(root, files, rules_dir)
    per_list[key].keep_caches = keep_caches
    return per_list[key]


def stale_paths(rule: RuleFile, scan: ProjectScan) -> list[StalePath]:
    """Paths the rule names that are not in the project. With git history, only those that the
    history shows were there (deleted or moved): a path never committed is one the rule asks for,
    one in another repository or one generated at run time, not a stale one."""
    found = [(m, scan.missing(m.text)) for m in scan.mentions(rule) if m.kind == "path"]
    gone = [(m, miss) for m, miss in found if miss is not None]
    excused = scan.excused(rel for _, (rel, _) in gone)
    evidence = scan.evidence if any(rel not in excused for _, (rel, _) in gone) else None
    out = []
    for m, (rel, candidates) in gone:
        if rel in excused:
            continue
        removal = None
        if evidence is not None:
            removal = evidence.path_removal(rel, m.text.startswith(("/", "./")), m.text.endswith("/"))
            if removal is None:
                continue
        out.append(StalePath(m, candidates, removal))
    return out


def declared_names(ident: Identifier) -> list[str]:
    """The names whose declaration would make the identifier the project's: a class for
    `App\\Billing\\Invoice`, the method or its class for `Money::fromCents()`."""
    if "::" in ident.text:
        owner, _, member = ident.text.partition("::")
        return [member.removesuffix("()").lstrip("$"), owner.rpartition("\\")[2]]
    text = ident.text.removesuffix("()").lstrip("$\\")
    return [text.rpartition("\\")[2]]


def stale_names(rule: RuleFile, scan: ProjectScan) -> list[tuple[Mention, Removal]]:
    """Names that no file holds now and whose declaration the history shows was deleted; without
    history, none (a name absent now may never have been the project's)."""
    idents = [(m, identifier_in(m.text)) for m in scan.mentions(rule) if m.kind == "name"]
    scan.prefetch(i for _, i in idents if i is not None)
    absent = [(m, i) for m, i in idents if i is not None and scan.is_present(i) is False]
    evidence = scan.evidence if absent else None
    if evidence is None:
        return []
    evidence.explain(n for _, i in absent for n in declared_names(i))
    out = []
    for m, i in absent:
        removal = evidence.name_removal(declared_names(i))
        if removal is not None:
            out.append((m, removal))
    return out


def prepare(rules: Sequence[RuleFile], files: FileList | None, drift_after: int = DRIFT_AFTER,
            keep_caches: bool = True) -> None:
    """Search every identifier of every rule in one pass, and ask git about every missing path at
    once, before the files are checked one by one."""
    if files is None or not rules:
        return
    chosen = [r for r in rules if not r.is_boost and not any(p.code in UNREAD for p in r.problems)]
    scans: dict[int, tuple[ProjectScan, list[RuleFile]]] = {}
    for rule in chosen:
        scan = scan_of(rule, files, keep_caches)
        scans.setdefault(id(scan), (scan, []))[1].append(rule)
    for scan, own in scans.values():
        if drift_after > 0:
            scan.history_in_background()
        # The search first: grep reads the files on the other core while the rest runs here.
        scan.keep_mentions()
        mentions: list[Mention] = []
        reading = None
        for rule in own:
            found = scan.mentions(rule)
            mentions.extend(found)
            if reading is None and any(m.kind == "path" and scan.unlisted(m.text) for m in found):
                # Likely missing: the history's deleted paths are read on the other core while
                # the remaining rule texts are read (a long history's pass is most of a first run).
                reading = scan.evidence_in_background()
        scan.save_mentions()
        idents = [i for m in mentions if m.kind == "name" for i in [identifier_in(m.text)] if i is not None]
        scan.prefetch_in_background(idents)
        paths = [m.text for m in mentions if m.kind == "path"]
        scan.want_names(paths)
        gone = {miss[0] for text in paths for miss in [scan.missing(text)] if miss is not None}
        # The history is read only for something missing: on a long history its deleted paths
        # take most of a first run's time (0.65 s of 1.1 s over 20,000 commits), for nothing
        # when every path and name a rule mentions is there.
        lost = gone - scan.excused(gone)
        if reading is None and lost:
            reading = scan.evidence_in_background()
        if drift_after > 0 and scan.history is not None:
            scan.history.cover_all(own, drift_after)
        named = [i for i in idents if scan.is_present(i) is False]
        # A guess that proved wrong is not waited for: git's exit hook ends it (git.py).
        evidence = scan.evidence if lost or named else None
        if evidence is not None:
            # Every absent name of every rule file in one `git log -G`.
            evidence.explain(n for i in named for n in declared_names(i))
            if scan.keep_caches:  # a read-only workspace keeps what it learnt in memory
                evidence.save()


def replacements(path: str, written: str, candidates: tuple[str, ...]) -> tuple[str, ...]:
    """What could replace the written mention: each candidate written as the mention was (a
    leading `./` or `/`, a trailing `/`, a `:line` suffix kept), for at most MAX_SUGGESTIONS."""
    if not candidates or len(candidates) > MAX_SUGGESTIONS or not written.startswith(path):
        return ()
    lead = "./" if path.startswith("./") else "/" if path.startswith("/") else ""
    trail = "/" if path.endswith("/") else ""
    suffix = written[len(path):]
    return tuple(f"{lead}{c.strip('/')}{trail}{suffix}" for c in candidates)


def name_message(text: str, removal: Removal) -> str:
    name = text.strip("`")
    if removal.file:
        return f"`{name}`'s file `{removal.path}` was deleted in {removal.when()}; nothing declares it now."
    return f"`{name}` was deleted in {removal.when()}; nothing declares it now."


def _moved(candidates: tuple[str, ...]) -> str:
    if not candidates:
        return ""
    if len(candidates) > MAX_SUGGESTIONS:
        shown = ", ".join(f"`{c}`" for c in candidates[:MAX_SUGGESTIONS])
        return f" {len(candidates)} paths of that name exist, such as {shown}."
    return " Moved to " + " or ".join(f"`{c}`" for c in candidates) + "?"


def staleness_problems(rule: RuleFile, files: FileList | None,
                       drift_after: int = DRIFT_AFTER, keep_caches: bool = True) -> list[Problem]:
    """The `stale-path`, `stale-name` and `rule-drift` findings of one rule file (none without a
    file list; `drift_after` 0 turns `rule-drift` off)."""
    # Boost writes `boost/` from its own generic guidelines: the project cannot fix their text.
    if files is None or rule.is_boost or any(p.code in UNREAD for p in rule.problems):
        return []
    scan = scan_of(rule, files, keep_caches)
    out = []
    lines = split_lines(rule.text)
    for stale in stale_paths(rule, scan):
        m = stale.mention
        written = lines[m.line][m.col:m.end_col] if m.line < len(lines) else m.text
        since = f" since {stale.removal.when()}" if stale.removal is not None else ""
        out.append(Problem(rule.rel, m.line, "warning", "stale-path",
                           f"`{m.text}` is not in the project{since}.{_moved(stale.candidates)}",
                           m.col, m.end_col, replacements(m.text, written, stale.candidates)))
    for m, removal in stale_names(rule, scan):
        out.append(Problem(rule.rel, m.line, "warning", "stale-name", name_message(m.text, removal),
                           m.col, m.end_col))
    history = scan.history if drift_after > 0 else None
    drift = drift_problem(rule, history, drift_after) if history is not None else None
    if drift is not None:
        out.append(drift)
    return sorted(out, key=lambda p: (p.line, p.col))
