"""What every command shares: exit codes, the one-line error, paths from the command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulelens.check_project import RunRecord
    from rulelens.report.colour import Palette
    from rulelens.rules.repository import RuleRepository
    from rulelens.workspace.git import GitSession

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UsageError(Exception):
    """A wrong command line: one line on stderr, exit 2."""


def fail(message: str) -> int:
    sys.stderr.write(f"rulelens: {' '.join(message.split())}\n")
    return EXIT_USAGE


class Output:
    """What a command printed on stdout, as written: `check`'s result cache keeps it as the
    answer. `complete` is False once a write failed (the reader had gone): then it is not kept."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.complete = True

    def text(self) -> str:
        return "".join(self.parts)


class Run:
    """One invocation: the parsed arguments and what the global options chose.

    A plain class, not a dataclass: `dataclasses` would be a third of `--version`'s imports.
    """

    def __init__(self, args: argparse.Namespace, root: Path | None, quiet: bool,
                 git: GitSession | None = None, records: list[RunRecord] | None = None,
                 output: Output | None = None) -> None:
        self.args = args
        self.root = root  # --root as given; None to find the project upwards
        self.quiet = quiet
        # git's answers read before the command ran (`check`'s result cache), and where `check`
        # leaves what it took from the files (check_project.RunRecord) and what it printed, for
        # the cache to keep.
        self.git = git
        self.records = records if records is not None else []
        self.output = output

    def print(self, text: str) -> None:
        """A line on stdout, kept in `output` when a cache asked for it."""
        line = text + "\n"
        try:
            sys.stdout.write(line)
        except BaseException:
            if self.output is not None:
                self.output.complete = False
            raise
        if self.output is not None:
            self.output.parts.append(line)

    def repository(self) -> RuleRepository:
        from rulelens.rules.repository import RuleRepository
        from rulelens.workspace.root import find_root, writable

        found = find_root(Path.cwd(), self.root)
        return RuleRepository(found, writable=writable(found, self.root is not None))

    def say(self, text: str) -> None:
        """A confirmation or summary line: left out with --quiet."""
        if not self.quiet:
            self.print(text)

    def palette(self) -> Palette:
        from rulelens.report.colour import palette_for

        return palette_for(sys.stdout)


def chosen_format(args: argparse.Namespace) -> str:
    """`--json` is `--format json`; the two must not disagree."""
    from rulelens.rules.model import RuleError

    if args.json and args.format not in (None, "json"):
        raise RuleError(f"--json and --format {args.format} disagree; give one of them.")
    return "json" if args.json else (args.format or "text")


def resolve(repo: RuleRepository, raw: str) -> str:
    """A PATH argument as a root-relative path; RuleError for one that names no project path."""
    from rulelens.rules.model import RuleError

    if not raw.strip():
        raise RuleError("match needs a path, not an empty string.")
    candidate = Path(raw)
    rel = repo.rel(candidate if candidate.is_absolute() else Path.cwd() / candidate)
    if rel is None and not candidate.is_absolute():
        rel = repo.rel(repo.root / candidate)
    if rel is None:
        raise RuleError(f"{raw} is outside the project root {repo.root}.")
    return rel
