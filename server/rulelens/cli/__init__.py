"""The command line: `app` parses the arguments and runs one command module.

`main` imports the parser only when called, so `import rulelens.cli` costs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    from rulelens.cli.app import main as run

    return run(argv)
