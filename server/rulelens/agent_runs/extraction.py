"""From an agent's recorded requests to the instruction files that reached its model, and when.

A file counts where the agent's own wrapper text names it (launchers' `named`), or, for agents
that send some files unnamed, where its text is in the request (a fingerprint: every part of
the file between `@` import lines is there, as agents that inline imports split the file at
them). The moment is the first main request that carries it: the first request is `start`, any
later one is after the tool's result."""

from __future__ import annotations

import html
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from rulelens.agent_runs.launchers.base import Launcher, texts
from rulelens.agent_runs.model import Moment, Seen, after

# Files whose text may be instructions: what any agent reads (Markdown, rules files), and what
# an `@path` import can pull in. Larger files are never whole in a request.
CANDIDATE_SUFFIXES = (".md", ".mdc", ".mdx", ".txt", "rules", ".markdown")
MAX_BYTES = 200_000
MIN_CHARS = 16
HEAD = 4000
SPACE = re.compile(r"\s+")
FRONTMATTER = re.compile(r"\A---\r?\n.*?\r?\n---\r?\n?", re.S)


def squash(text: str) -> str:
    """Text as compared: entities read, a byte order mark dropped (agents drop it), every run
    of white space one space."""
    return SPACE.sub(" ", html.unescape(text).replace("\ufeff", "")).strip()


AT_TOKEN = re.compile(r"@\S+")


def pieces(text: str) -> list[str]:
    """The file's text split after each `@` word and at the end of its line (an import is
    inlined at one or the other: Copilot CLI 1.0.102 right after the word, mid-line), squashed;
    the frontmatter is dropped (agents send the body)."""
    body = FRONTMATTER.sub("", text, count=1)
    out: list[str] = []
    current: list[str] = []
    for line in body.splitlines():
        if "@" not in line:
            current.append(line)
            continue
        start = 0
        for m in AT_TOKEN.finditer(line):
            current.append(line[start:m.end()])
            out.append(squash("\n".join(current)))
            current, start = [], m.end()
        current.append(line[start:])
        out.append(squash("\n".join(current)))
        current = []
    out.append(squash("\n".join(current)))
    return [p for p in out if p]


class Fingerprints:
    """The project's candidate files and their pieces, read once per scratch copy."""

    def __init__(self, root: Path, files: Iterable[str], leave_out: Iterable[str] = (),
                 keep: Callable[[str], bool] = lambda rel: True) -> None:
        skip = set(leave_out)
        self.pieces: dict[str, list[str]] = {}
        self.own = own_texts(root, skip)
        for rel in through_links(root, files):
            if rel in skip or not rel.lower().endswith(CANDIDATE_SUFFIXES) or not keep(rel):
                continue
            try:
                if (root / rel).stat().st_size > MAX_BYTES:
                    continue
                text = (root / rel).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            found = pieces(text)
            # Short text is everywhere; a file of import lines alone (`@AGENTS.md`) is told by them.
            if sum(len(p) for p in found) >= MIN_CHARS or any("@" in p for p in found):
                self.pieces[rel] = found

    def without(self, root: Path, leave_out: Iterable[str]) -> Fingerprints:
        """These prints but those of `leave_out`, whose text is left out as `__init__` leaves
        it: a copy's prints, read once, for each run's path in it."""
        skip = set(leave_out)
        out = Fingerprints.__new__(Fingerprints)
        out.pieces = {rel: found for rel, found in self.pieces.items() if rel not in skip}
        out.own = self.own + own_texts(root, skip)
        return out

    def within(self, text: str) -> list[str]:
        """The files whose every piece is in `text`, or whose first HEAD characters are, for a
        long file an agent cuts at its cap (Codex's 32 KiB). The left-out files' text is taken
        out of `text` first."""
        for own in self.own:
            text = text.replace(own, " ")
        return [rel for rel, found in self.pieces.items()
                if all(p in text for p in found) or cut_within(" ".join(found), text)]


def own_texts(root: Path, rels: Iterable[str]) -> list[str]:
    """The text of the files left out (the path the agent reads), squashed: a tool's result
    holds it, and a file whose text is inside it (a license header a `.go` file starts with, a
    link to the read file) is not an instruction file the agent sent."""
    found: list[str] = []
    for rel in rels:
        try:
            if (root / rel).is_file() and (root / rel).stat().st_size <= MAX_BYTES:
                own = squash((root / rel).read_text(encoding="utf-8"))
                if len(own) >= MIN_CHARS:
                    found.append(own)
        except (OSError, UnicodeDecodeError):
            continue
    return found


def through_links(root: Path, files: Iterable[str]) -> Iterator[str]:
    """The files, and those below each link to a folder among them (git lists the link alone:
    `.github/instructions` linked to `documentation/skills`), by the path through the link,
    as an agent that reads the folder finds them."""
    for rel in files:
        full = root / rel
        if full.is_symlink() and full.is_dir():
            for folder, dirs, names in os.walk(full, followlinks=False):
                dirs.sort()
                for name in sorted(names):
                    yield os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
        else:
            yield rel


def cut_within(whole: str, text: str) -> bool:
    return len(whole) > 2 * HEAD and whole[:HEAD] in text


def relative(name: str, root: Path) -> str | None:
    """A named file root-relative (an absolute path inside the scratch root loses it; a
    relative one is taken from the root), or None for a file outside the project: the agent's
    own files in its empty scratch home (Qwen Code writes one there and loads it)."""
    full = name if name.startswith("/") else os.path.join(root, name)
    real = os.path.realpath(full)
    for base in (str(root), os.path.realpath(root)):
        for candidate in (os.path.normpath(full), real):
            if candidate.startswith(base + "/"):
                return os.path.relpath(candidate, base).replace(os.sep, "/")
    return None


def seen_files(launcher: Launcher, requests: Sequence[Mapping[str, Any]], root: Path, moment: Moment,
               prints: Fingerprints | None) -> tuple[Seen, ...]:
    """Every file the main requests carry, with the first request that carries it."""
    first: dict[str, int] = {}
    for i, body in enumerate(requests):
        found = [rel for rel in (relative(n, root) for n in launcher.named(body)) if rel is not None]
        if prints is not None and launcher.fingerprints:
            found.extend(prints.within(squash(launcher.without_named("\n".join(texts(body))))))
        for rel in found:
            first.setdefault(rel, i)
    return tuple(Seen(rel, "start" if i == 0 else after(moment))
                 for rel, i in sorted(first.items(), key=lambda item: (item[1], item[0])))
