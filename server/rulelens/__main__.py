"""`python -m rulelens`, for clients that start the server through an interpreter.

Ctrl-C is taken over first, and caught before that, as `server/bin/rulelens` (the command)
does: one line on stderr and exit 130 from the first moment.
"""

try:
    import os
    import sys

    def _interrupted(signum: int, frame: object) -> None:
        os.write(2, b"\nrulelens: interrupted\n" if os.isatty(2) else b"rulelens: interrupted\n")
        os._exit(130)

    try:  # signal's own setter, without `signal` and its enums
        from _signal import SIGINT, signal  # type: ignore[import-not-found]
    except ImportError:  # not CPython
        from signal import SIGINT, signal
    signal(SIGINT, _interrupted)

    from rulelens.cli import main

    sys.exit(main())
except KeyboardInterrupt:
    import os

    os.write(2, b"\nrulelens: interrupted\n" if os.isatty(2) else b"rulelens: interrupted\n")
    os._exit(130)
