"""One project's rules: the single class every front talks to (after Boost's RuleRepository)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from rulelens.glob_engines.boost import expand
from rulelens.rules.format.conflicts import first_conflicted
from rulelens.rules.format.index_render import render_index
from rulelens.rules.format.reading import MAX_BYTES, decode, read_rule_file
from rulelens.rules.format.yaml_cache import FrontmatterCache
from rulelens.rules.match.matcher import RuleSet
from rulelens.rules.match.visibility import IndexRow, miss_reason, parse_index, same_for_every_path
from rulelens.rules.model import (
    Entry,
    Match,
    Problem,
    RecordPlan,
    RecordResult,
    RuleError,
    RuleFile,
    cannot_read,
    unwritable_reason,
)
from rulelens.rules.write.atomic import (
    crash_point,
    ensure_inside,
    exclusive_lock,
    remove_stale_temps,
    write_atomic,
)
from rulelens.workspace.root import NOT_A_PROJECT, RULES_DIR
from rulelens.workspace.stat_stamp import Stamp, stamp

if TYPE_CHECKING:
    from rulelens.rules.write.record import Rule, TextOf

BOOST = "boost"
INDEX = "index.md"
BOM = b"\xef\xbb\xbf"

Signature = Stamp  # workspace/stat_stamp.py
# Matches kept for reuse (one per rule file and set of its globs that matched; a path's lookup
# then builds nothing for a rule file an earlier path met the same way).
_MATCHES_KEPT = 65_536
_Hit = tuple[object, ...]  # (owner, *its globs that matched)


@dataclass
class _Cached:
    """A rule file read, with the signature of the file it was read from."""

    signature: Signature
    rule: RuleFile


def _listed(entry: os.DirEntry[str]) -> bool:
    """A file, or a link to no folder: a link whose target is gone (or a loop of links) is a
    rule file that cannot be read, listed so that it is reported and the index is not
    rewritten without its row."""
    try:
        if entry.is_file():
            return True
    except OSError:
        pass
    try:
        return entry.is_symlink() and not entry.is_dir()
    except OSError:
        return entry.is_symlink()


INVALID_FRONTMATTER = frozenset({"frontmatter-invalid", "frontmatter-bom"})


class RuleRepository:
    """Reads, matches, records and indexes the rules below one project root (`check` is
    rules.check.rules_check, over it)."""

    def __init__(self, root: Path, rules_dir: str = RULES_DIR, writable: bool = True) -> None:
        self.root = root.resolve()
        root_text = str(self.root)
        self._root_prefix = root_text if root_text.endswith("/") else f"{root_text}/"  # what `rel` cuts off
        # False when the root is only the folder a front was started in, not a project: reads
        # work, writes are refused (a client started from the home folder must not get .ai/ there).
        self.writable = writable
        self.rules_dir = rules_dir.strip("/") or RULES_DIR
        self.rules_path = self.root / self.rules_dir
        self.index_path = self.rules_path / INDEX
        self._cache: dict[str, _Cached] = {}
        # Parsed frontmatters of this project's rule files and agents' files, kept between runs:
        # read by every front, written by `check` (check_project), never by an editor's reading.
        self.frontmatter = FrontmatterCache(self.root)
        self._files: list[RuleFile] = []
        self._unread: list[RuleFile] = []
        self._ruleset: RuleSet | None = None
        self._loaded = False
        self._rows: tuple[Signature, dict[str, IndexRow]] | None = None
        # The `Match` of one rule file for one set of its globs that matched, for every path
        # they select, while the rules and the committed index are those it was made from.
        self._matches: tuple[RuleSet, dict[str, IndexRow] | None, dict[_Hit, Match]] | None = None

    # -- paths -------------------------------------------------------------------------
    def rel(self, path: Path | str) -> str | None:
        """Root-relative POSIX path, or None for a path outside the root.

        On POSIX, by string: what `PurePath.relative_to` answers of the normalized path, without
        the three Paths it builds (the language server asks on every request, 20 µs a time)."""
        if os.sep == "/":
            prefix = self._root_prefix
            text = os.path.normpath(os.path.join(prefix, os.fspath(path)))
            if not text.startswith(prefix):
                return None
            rel = text[len(prefix):]
            if not rel.startswith("/"):  # `//x`: POSIX's other root, which Path keeps apart
                return rel or None
        return self._rel_by_path(path)

    def _rel_by_path(self, path: Path | str) -> str | None:
        p = Path(path)
        if not p.is_absolute():
            p = self.root / p
        try:
            rel = Path(os.path.normpath(p)).relative_to(self.root)
        except ValueError:
            return None
        text = rel.as_posix()
        return None if text == "." or text.startswith("../") else text

    def is_index(self, rel: str) -> bool:
        return rel == f"{self.rules_dir}/{INDEX}"

    def is_rule_file(self, rel: str) -> bool:
        parent, _, name = rel.rpartition("/")
        if not name.endswith(".md"):
            return False
        return (parent == self.rules_dir and name != INDEX) or parent == f"{self.rules_dir}/{BOOST}"

    # -- reading -----------------------------------------------------------------------
    def _listing(self) -> dict[str, tuple[Path, bool]]:
        found: dict[str, tuple[Path, bool]] = {}
        for folder, is_boost in ((self.rules_path, False), (self.rules_path / BOOST, True)):
            with contextlib.suppress(OSError), os.scandir(folder) as entries:
                for entry in entries:
                    if not entry.name.endswith(".md") or (not is_boost and entry.name == INDEX):
                        continue
                    if _listed(entry):
                        rel = f"{self.rules_dir}/{BOOST + '/' if is_boost else ''}{entry.name}"
                        found[rel] = (Path(entry.path), is_boost)
        return found

    @staticmethod
    def _signature(path: Path, link: bool = False) -> Signature | None:
        """The file's stamp, or with `link` the link's own where its target cannot be reached."""
        return stamp(path, link=link)

    def refresh(self) -> bool:
        """Re-stat the rules folder; reload changed files. True when anything changed."""
        listing = self._listing()
        changed = not self._loaded or set(listing) != set(self._cache)
        fresh: dict[str, _Cached] = {}
        for rel, (path, is_boost) in listing.items():
            sig = self._signature(path, link=True)
            if sig is None:
                changed = True
                continue
            old = self._cache.get(rel)
            if old is not None and old.signature == sig:
                fresh[rel] = old
                continue
            fresh[rel] = _Cached(sig, self._read(path, rel, is_boost))
            changed = True
        self._cache = fresh
        self._loaded = True
        if changed:
            self._files = [fresh[rel].rule for rel in sorted(fresh, key=lambda r: r.encode())]
            self._unread = [f for f in self._files if cannot_read(f) is not None]
            self._ruleset = None
        return changed

    def _read(self, path: Path, rel: str, is_boost: bool) -> RuleFile:
        if path.is_symlink():
            try:
                target = path.resolve()
            except (OSError, RuntimeError):  # a loop of links (RuntimeError before Python 3.13)
                return read_rule_file(path, rel, is_boost, cache=self.frontmatter)
            if target != self.root and self.root not in target.parents:
                rule = read_rule_file(path, rel, is_boost, raw=b"")
                rule.problems.append(Problem(
                    rel, 0, "error", "rule-symlink",
                    f"This rule file is a symbolic link to {target}, outside the project; "
                    "rulelens does not read or write it.",
                ))
                return rule
        return read_rule_file(path, rel, is_boost, cache=self.frontmatter)

    def read_paths(self) -> list[Path]:
        """What reading the rules took from disk, for a front that keeps an answer (workspace/
        reads.py): the rules folder and its `boost/` folder (listed), each rule file, the index."""
        self._ensure()
        return [self.rules_path, self.rules_path / BOOST, self.index_path,
                *(f.path for f in self._files)]

    def _ensure(self) -> None:
        if not self._loaded:
            self.refresh()

    @property
    def files(self) -> list[RuleFile]:
        """Root and `boost/` rule files, in index order."""
        self._ensure()
        return self._files

    def unread(self) -> list[RuleFile]:
        """Rule files whose globs rulelens could not read (`rules.model.UNREAD`)."""
        self._ensure()
        return self._unread

    def first_unread(self) -> str | None:
        """`<file> could not be read (<why>)` for the first unreadable rule file, or None."""
        return next((said for rule in self.unread() if (said := cannot_read(rule)) is not None), None)

    def _refuse_unread(self) -> None:
        """Refuse a write of the index while a rule file's globs are unknown: the index would
        drop its row, and agents would stop finding the file."""
        said = self.first_unread()
        if said is not None:
            raise RuleError(f"{said}; the index would lose its row, so nothing was written. "
                            "Fix or remove the file first.")

    def first_invalid(self) -> str | None:
        """`<file> has invalid frontmatter (line N)` for the first rule file whose globs only the
        lenient reading has (invalid YAML, a BOM): Boost reads no paths there, so the index (as
        Boost writes it, byte for byte) has no row for it, though its author meant one. None when
        there is none."""
        for rule in self.files:
            broken = next((p for p in rule.problems if p.code in INVALID_FRONTMATTER), None)
            if broken is not None and rule.lenient_paths and not rule.strict_paths:
                return f"{rule.rel} has invalid frontmatter (line {broken.line + 1})"
        return None

    def first_blocking(self) -> str | None:
        """What keeps `rulelens index` from writing: an unread rule file, else an invalid one."""
        return self.first_unread() or self.first_invalid()

    def file(self, path: Path | str) -> RuleFile | None:
        rel = self.rel(path) if Path(path).is_absolute() else str(path)
        return next((f for f in self.files if f.rel == rel), None)

    # -- matching ----------------------------------------------------------------------
    @property
    def ruleset(self) -> RuleSet:
        self._ensure()
        if self._ruleset is None:
            self._ruleset = RuleSet([f.lenient_paths for f in self._files])
        return self._ruleset

    @property
    def built_ruleset(self) -> RuleSet | None:
        """The index of the rules as read, if a lookup has built it; None otherwise."""
        return self._ruleset

    def rules_for(self, rel_path: str) -> list[Match]:
        """Rule files whose globs select the path (lenient reading), in index order, each saying
        whether the committed index leads agents to it for this path."""
        ruleset = self.ruleset
        found = ruleset.selecting(rel_path)
        if not found:
            return []
        rows = self.committed_rows()
        kept = self._kept_matches(ruleset, rows)
        out = []
        for owner, hit in found:
            match = kept.get((owner, *hit))
            if match is None:
                match = self._match(ruleset, rows, kept, owner, hit, rel_path)
            out.append(match)
        return out

    def _kept_matches(self, ruleset: RuleSet, rows: dict[str, IndexRow] | None
                      ) -> dict[_Hit, Match]:
        said = self._matches
        if said is None or said[0] is not ruleset or said[1] is not rows:
            said = self._matches = (ruleset, rows, {})
        return said[2]

    def _match(self, ruleset: RuleSet, rows: dict[str, IndexRow] | None,
               kept: dict[_Hit, Match], owner: int, hit: list[str],
               rel_path: str) -> Match:
        """The `Match` of rule file `owner` when `hit` (its including globs) selected `rel_path`,
        kept when it says the same for every path `hit` selects."""
        rule = self._files[owner]
        items, alternatives = ruleset.reported(owner, hit, rel_path)
        why = miss_reason(rule, rel_path, rows)
        match = Match(rule, items, alternatives, why is None, why)
        if not ruleset.negated(owner) and same_for_every_path(rule, rows):
            if len(kept) >= _MATCHES_KEPT:
                kept.clear()
            kept[(owner, *hit)] = match
        return match

    def prepare_matches(self, owner: int) -> None:
        """Make ahead the `Match` of rule file `owner` (index order) for each of its globs
        alone, the way most paths meet it (for a front that prepares between requests)."""
        ruleset = self.ruleset
        rows = self.committed_rows()
        rule = self._files[owner]
        if ruleset.negated(owner) or not same_for_every_path(rule, rows):
            return
        kept = self._kept_matches(ruleset, rows)
        # The path is read for neither a file without excluding globs nor a row that lists the
        # file's own globs (`same_for_every_path`): one answer for all its globs.
        why = miss_reason(rule, "", rows)
        for glob in ruleset.including(owner):
            key = (owner, glob)
            if key not in kept:
                if len(kept) >= _MATCHES_KEPT:
                    return
                hit = [glob]
                kept[key] = Match(rule, ruleset.reported(owner, hit, "")[0], hit, why is None, why)

    def led_to(self, rule_rel: str, paths: Iterable[str]) -> set[str]:
        """The paths among `paths` for which the committed index leads agents to one rule file:
        those whose `rules_for` has it with `agents_see`, without matching every other file."""
        owner = next((i for i, f in enumerate(self.files) if f.rel == rule_rel), None)
        if owner is None:
            return set()
        rule, ruleset, rows = self._files[owner], self.ruleset, self.committed_rows()
        return {p for p in paths if ruleset.selects(owner, p) and miss_reason(rule, p, rows) is None}

    def committed_rows(self) -> dict[str, IndexRow] | None:
        """The committed index's rows by rule file (re-read when the file changes); None if absent."""
        sig = self._signature(self.index_path)
        if sig is None:
            return None
        if self._rows is None or self._rows[0] != sig:
            text = self.current_index()
            self._rows = (sig, parse_index(text) if text is not None else {})
        return self._rows[1]

    @staticmethod
    def suggest_globs(rel_path: str) -> list[str]:
        """Globs for the file, its folder and its kind in that folder."""
        p = PurePosixPath(rel_path)
        parent = p.parent.as_posix()
        out = [rel_path]
        if parent != ".":
            out.append(f"{parent}/**")
            if p.suffix:
                out.append(f"{parent}/*{p.suffix}")
        elif p.suffix:
            out.append(f"*{p.suffix}")
        return out

    def search(self, query: str) -> list[tuple[RuleFile, Entry]]:
        """Entries whose title or note contains the query, case-insensitively."""
        q = query.strip().casefold()
        if not q:
            return []
        return [
            (f, e)
            for f in self.files
            for e in f.entries
            if q in e.title.casefold() or q in e.note.casefold()
        ]

    # -- index -------------------------------------------------------------------------
    def index_text(self) -> str:
        return render_index(self.files)

    def current_index(self) -> str | None:
        try:
            return decode(self.index_path.read_bytes())[0]
        except OSError:
            return None

    def index_is_current(self) -> bool:
        return self.current_index() == self.index_text()

    def write_index(self) -> bool:
        """Regenerate the index (a conflicted one too); False when it was already current.

        Refuses, writing nothing, while a rule file has conflict markers: its globs are not known.
        """
        self._prepare_folder()
        if not self.rules_path.is_dir():
            raise RuleError(f"There is no rules folder at {self.rules_dir}/.")
        with exclusive_lock(self.rules_path):
            self.refresh()
            conflicted = first_conflicted([(f.rel, f.text) for f in self._files])
            if conflicted is not None:
                raise RuleError(f"{conflicted[0]} has merge conflict markers (line {conflicted[1]}); "
                                "resolve them, then run `rulelens index` again. Nothing was written.")
            self._refuse_unread()
            return self._write_index_locked()

    def _write_index_locked(self) -> bool:
        expected = self.index_text()
        if self.current_index() == expected:
            return False
        crash_point("before-index-write")
        write_atomic(self.index_path, expected.encode("utf-8"), self.root)
        return True

    # -- recording ---------------------------------------------------------------------
    def record(self, glob: str, title: str, note: str) -> RecordResult:
        """Record one entry as Boost does, under the folder lock, then rebuild the index."""
        # Recording's module (naming, YAML style, anyascii) is imported only by the commands
        # that record: `check` and `match` read rules and never need it.
        from rulelens.rules.write.record import validate

        rule = validate(glob, title, note, self.root)
        self._prepare_folder()
        with exclusive_lock(self.rules_path):
            remove_stale_temps(self.rules_path)
            self.refresh()
            self._refuse_unread()
            plan = self._plan(rule, None)
            path = plan.path
            data = (BOM if plan.bom else b"") + plan.new.encode("utf-8")
            if len(data) > MAX_BYTES:
                raise RuleError(
                    f"Recording this would make {self.rel(path)} larger than {MAX_BYTES // 2**20} MiB, "
                    "the most rulelens reads; write a shorter note or split the rules."
                )
            crash_point("before-rule-write")
            write_atomic(path, data, self.root)
            crash_point("after-rule-write")
            self.refresh()
            self._write_index_locked()
            crash_point("after-index-write")
        rel = self.rel(path) or path.name
        return RecordResult(rel, rule.title, plan.line, plan.old is None, rule.notes, plan.notes)

    def plan_record(self, glob: str, title: str, note: str,
                    text_of: TextOf | None = None) -> RecordPlan:
        """What `record` would write, without writing or locking (raises RuleError).

        `text_of` supplies a file's current text (an editor's unsaved buffer) instead of disk.
        """
        from rulelens.rules.write.record import validate  # only when recording (see `record`)

        self.refresh()
        return self._plan(validate(glob, title, note, self.root), text_of)

    def _plan(self, rule: Rule, text_of: TextOf | None) -> RecordPlan:
        from rulelens.rules.write.record import (  # only when recording (see `record`)
            choose_target,
            new_file_name,
            new_file_text,
            record_notes,
            with_entry,
            with_glob,
        )

        target = choose_target(rule.glob, self._files)
        globs = [*(target.strict_paths if target is not None else []), rule.glob]
        if all(include is False for g in globs for _, include in expand(g)):
            raise RuleError(
                f"The glob {rule.glob} only excludes (`!`), and its rule file would have no glob that "
                "includes a path, so the rule would apply nowhere; record an including glob first."
            )
        if target is None:
            try:
                taken = set(os.listdir(self.rules_path))
            except OSError:
                taken = set()
            name = new_file_name(rule.glob, taken)
            new, line = with_entry(new_file_text(name, rule.glob), rule.title, rule.note)
            return RecordPlan(self.rules_path / f"{name}.md", None, new, line,
                              notes=record_notes(rule, None, self._files))
        reason = unwritable_reason(target)
        if reason is not None:
            raise RuleError(f"Cannot record into {target.rel}: {reason}")
        raw = target.path.read_bytes()
        buffer = text_of(target.path) if text_of is not None else None
        old = buffer if buffer is not None else decode(raw)[0]
        text = old if rule.glob in target.strict_paths else with_glob(
            old, [*target.strict_paths, rule.glob])
        new, line = with_entry(text, rule.title, rule.note)
        return RecordPlan(target.path, old, new, line, raw.startswith(BOM),
                          record_notes(rule, target, self._files))

    def _prepare_folder(self) -> None:
        if not self.writable:
            raise RuleError(NOT_A_PROJECT.format(rules=self.rules_dir, root=self.root))
        if self.rules_path.exists() and not self.rules_path.is_dir():
            raise RuleError(f"{self.rules_dir} exists but is not a folder.")
        if self.index_path.is_dir():
            raise RuleError(
                f"{self.rules_dir}/{INDEX} is a folder; move it away so the index can be written."
            )
        ensure_inside(self.rules_path, self.root)
        if self.rules_path.exists() and self.rules_path.resolve() != self.rules_path:
            real = self.rules_path.resolve()
            if real != self.root and self.root not in real.parents:
                raise RuleError(f"{self.rules_dir} links outside the project; refusing to write.")
        self.rules_path.mkdir(parents=True, exist_ok=True)
