"""The command line: `app` parses the arguments and runs one module of `commands/`.

`main` imports the parser only when called, so `import rulelens.cli` costs nothing. It is also
where Ctrl-C ends: at any moment, one line on stderr and exit 130, never a traceback.
"""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    try:
        from rulelens.cli.app import main as run

        return run(argv)
    except KeyboardInterrupt:
        return interrupted()


def interrupted() -> int:
    """Say so once and leave now: worker threads (git, the file walk) are not waited for."""
    import contextlib
    import os
    import sys

    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    try:
        # A terminal has echoed `^C` where the cursor was: start a line of our own.
        sys.stderr.write(("\n" if sys.stderr.isatty() else "") + "rulelens: interrupted\n")
        sys.stderr.flush()
    finally:
        os._exit(130)
