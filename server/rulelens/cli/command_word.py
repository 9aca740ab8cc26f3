"""The command a command line names, read before argparse: `main` (cli/__init__.py) asks it on
every start, and cli/app.py checks the word names a command. Imports nothing."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, as mypy reads it
if TYPE_CHECKING:
    from collections.abc import Sequence


def command_word(args: Sequence[str]) -> str | None:
    """The first word that is not an option (skipping `--root`'s value): where the parser reads
    the command (cli/app.py asks this too, and checks the word names one)."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--root":
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None
