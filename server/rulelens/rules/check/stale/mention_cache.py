"""The mentions found in rule texts, kept between runs beside the name search's cache.

Reading 1,000 rule files for paths and names is about half a second of Python; a rule text
that has not changed names the same things. Entries are keyed by a digest of the text and of
the project's top-level folders (which decide whether a bare `a/b` token is a path), kept in
`git rev-parse --git-path rulelens/mentions.json` for the reasons given in
workspace/cache_files.py. Only the texts of the last run are kept, so the file stays the
size of the rules. A file that cannot be read, or of another version, is ignored and rewritten.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from pathlib import Path

from rulelens.rules.check.stale.mentions import Mention
from rulelens.workspace.cache_files import cache_file, write
from rulelens.workspace.fast_hash import blake2b
from rulelens.workspace.git import GitSession

FORMAT = "rulelens-mentions"
VERSION = 1
NAME = "rulelens/mentions.json"
MAX_BYTES = 16 * 1024 * 1024


def key(text: str, top: Iterable[str]) -> str:
    return blake2b("\n".join([text, "\0", *sorted(top)]).encode("utf-8", "surrogateescape"),
                           digest_size=16).hexdigest()


class MentionStore:
    """The stored mentions of one project, loaded once and written once per run."""

    def __init__(self, root: Path, git: GitSession | None = None) -> None:
        self.where = cache_file(root, NAME, git)
        self.old: dict[str, list[Mention]] = self._load() if self.where is not None else {}
        self.used: dict[str, list[Mention]] = {}

    def _load(self) -> dict[str, list[Mention]]:
        assert self.where is not None
        try:
            raw = json.loads(self.where.read_bytes())
            if not (isinstance(raw, dict) and raw.get("format") == FORMAT and raw.get("version") == VERSION):
                return {}
            out: dict[str, list[Mention]] = {}
            for digest, rows in raw["texts"].items():
                out[digest] = [Mention(kind, text, line, col, end, bool(ticked))
                               for kind, text, line, col, end, ticked in rows
                               if kind in ("path", "name") and isinstance(text, str)
                               and all(isinstance(v, int) for v in (line, col, end))]
            return out
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return {}

    def get(self, digest: str) -> list[Mention] | None:
        found = self.old.get(digest)
        if found is not None:
            self.used[digest] = found
        return found

    def put(self, digest: str, mentions: list[Mention]) -> None:
        self.used[digest] = mentions

    def save(self) -> None:
        """Write the texts of this run, when they differ from what was read."""
        if self.where is None or self.used.keys() == self.old.keys():
            return
        data = json.dumps({"format": FORMAT, "version": VERSION, "texts": {
            d: [[m.kind, m.text, m.line, m.col, m.end_col, m.backticked] for m in ms]
            for d, ms in sorted(self.used.items())}}, separators=(",", ":")).encode("utf-8")
        if len(data) <= MAX_BYTES:
            with contextlib.suppress(OSError):
                write(self.where, data)
