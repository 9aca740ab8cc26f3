"""Parsed frontmatters kept between runs, so that a second `check` parses only what changed.

The strict YAML reading is pure Python (strict_yaml.py says why): about half a second for 1,000
rule files, and the import of PyYAML itself on every run. A frontmatter that has not changed
parses to the same value, so values are kept by a digest of the loader's name and the text
(the text, not the file's signature: a copy, a checkout or a touch cannot make it stale).

Kept: values made only of mappings with string keys, lists, strings, numbers, booleans and null
(JSON's types, so the file is JSON and never code); anything else (a `!!binary`, a date from the
agents' safe loader), and every error, is parsed again each time. Every front reads the file;
`check` (check_project) writes it, and the language server once the first answers are out,
except in a read-only workspace, which gets nothing written.
Where: `git rev-parse --git-path rulelens/frontmatter.json`, beside the name search's cache, for
the reasons given in workspace/cache_files.py; outside a git work tree nothing is kept. A file
that cannot be read, or of another version, is ignored and rewritten; the entries of this run are
written, with those of earlier runs while the total stays under MAX_ENTRIES.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulelens.workspace.fast_hash import blake2b

if TYPE_CHECKING:
    from rulelens.workspace.git import GitSession

FORMAT = "rulelens-frontmatter"
VERSION = 1
NAME = "rulelens/frontmatter.json"
MAX_ENTRIES = 20_000


MAX_NODES = 10_000  # a frontmatter bigger than this is parsed again each time, never kept


def _plain(value: Any) -> bool:
    """JSON's types only, and floats JSON gives back as they are; a tree, not a graph.

    YAML's aliases make one list appear in many places (a "billion laughs" file is nine levels
    of nine aliases): such a value, or one of more than MAX_NODES values, is not kept, since
    writing it out would expand every alias. The walk stops at the first repeat or the budget.
    """
    seen: set[int] = set()
    todo = [value]
    while todo:
        item = todo.pop()
        if item is None or isinstance(item, str | bool | int):
            continue
        if isinstance(item, float):
            if math.isnan(item):  # NaN round-trips, but never equals itself: keep it simple
                return False
            continue
        if not isinstance(item, list | dict) or id(item) in seen or len(seen) >= MAX_NODES:
            return False
        seen.add(id(item))
        if isinstance(item, dict):
            if not all(isinstance(k, str) for k in item):
                return False
            todo.extend(item.values())
        else:
            todo.extend(item)
        if len(todo) > MAX_NODES:
            return False
    return True


def _copy(value: Any) -> Any:
    """A copy of a `_plain` value (JSON's types: the containers new, the scalars as they are)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


class FrontmatterCache:
    """One project's parsed frontmatters: read at the first parse, written by `save`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        # The run's git session (workspace/git.py), which knows where git keeps the caches
        # once one of them asked; check_project gives its own.
        self.git: GitSession | None = None
        self._old: dict[str, Any] | None = None
        self._where: Path | None = None
        self._used: dict[str, Any] = {}
        self._new = False

    def parse(self, loader: str, text: str, load: Callable[[str], Any]) -> Any:
        """`load(text)`, or the value it gave in an earlier run; `load`'s errors propagate."""
        key = blake2b(f"{loader}\0{text}".encode("utf-8", "surrogateescape"),
                              digest_size=16).hexdigest()
        old = self._stored()
        if key in self._used or key in old:
            found = self._used.get(key, old.get(key))
            self._used[key] = found
            return _copy(found)  # a fresh value each time, as a parse gives
        value = load(text)
        if _plain(value):
            self._used[key] = _copy(value)
            self._new = True
        return value

    def _stored(self) -> dict[str, Any]:
        if self._old is None:
            self._old = {}
            from rulelens.workspace.cache_files import cache_file

            self._where = cache_file(self.root, NAME, self.git)
            if self._where is not None:
                with contextlib.suppress(OSError, ValueError, TypeError, KeyError, AttributeError):
                    raw = json.loads(self._where.read_bytes())
                    if raw.get("format") == FORMAT and raw.get("version") == VERSION \
                            and isinstance(raw["values"], dict):
                        self._old = raw["values"]
        return self._old

    def save(self) -> None:
        """Write when this run parsed something new (atomically, as every cache here)."""
        if not self._new or self._where is None:
            return
        from rulelens.workspace.cache_files import write

        kept = dict(self._used)
        for key, value in (self._old or {}).items():
            if len(kept) >= MAX_ENTRIES:
                break
            kept.setdefault(key, value)
        data = json.dumps({"format": FORMAT, "version": VERSION, "values": kept},
                          separators=(",", ":")).encode("utf-8")
        with contextlib.suppress(OSError):
            write(self._where, data)
        self._old, self._new = kept, False
