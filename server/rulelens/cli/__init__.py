"""The command line: `app` parses the arguments and runs one module of `commands/`.

`main` imports the parser only when called, so `import rulelens.cli` costs nothing, and answers
`rulelens --version` alone without it (a hook or an editor asks that on every start). It is also
where Ctrl-C ends: at any moment, one line on stderr and exit 130, never a traceback; and where
a run that printed `check`'s kept answer for its own command line ends at once (`leave`).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, as mypy reads it
if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import FrameType
    from typing import NoReturn

    from rulelens.cli.result_cache import Pending


def main(argv: Sequence[str] | None = None) -> int:
    import sys

    args = sys.argv[1:] if argv is None else argv
    if len(args) == 1 and args[0] in ("--version", "-V"):  # argparse's answer, without argparse
        from rulelens import __version__

        sys.stdout.write(f"rulelens {__version__}\n")
        return 0
    if args and args[0] == "observe":  # an agent's hook, once per file it loads: nothing else loads
        from rulelens.cli.observe_hook import main as observe

        return observe(args[1:])
    try:  # signal's own setter, without `signal`, which builds its enums first (enum: 3 ms)
        from _signal import SIGINT  # type: ignore[import-not-found]
        from _signal import signal as handle  # type: ignore[import-not-found]
    except ImportError:  # not CPython
        from signal import SIGINT
        from signal import signal as handle

    # A handler rather than KeyboardInterrupt: libraries (pygls, anyio) catch that and exit 0
    # or print their own traceback. Leaving at once is safe: every write is a rename of a
    # complete file, the same guarantee as a kill (tests/reliability). Off the main thread,
    # Ctrl-C stays as it is (contextlib.suppress would import contextlib: 1 ms on a hit).
    try:  # noqa: SIM105
        handle(SIGINT, _on_interrupt)
    except ValueError:
        pass
    import gc

    from rulelens.cli.command_word import command_word

    long_running = command_word(args) in ("serve", "mcp")  # the servers manage their own collection
    if not long_running:
        # A command that ends in a moment collects no garbage while it runs (38 collections,
        # about a tenth of a small project's `check`), and its objects are frozen at the end, so
        # that the collection at exit has none to walk. What it leaves is hardly ever cyclic:
        # the peak memory of `check` at 500,000 files is the same.
        gc.disable()
    try:
        return _run(args, argv)
    finally:
        if not long_running:
            gc.freeze()
            gc.enable()


def _run(args: Sequence[str], argv: Sequence[str] | None) -> int:
    try:
        found: Pending | None = None
        if "check" in args:  # the answer kept from an earlier run, before the rest is imported
            from rulelens.cli.result_cache import lookup

            answer = lookup(args)
            if isinstance(answer, int):
                if argv is None:  # this process's own command line: nothing is left to do
                    leave(answer)
                return answer
            found = answer
        kept_code = "serve" not in args  # the server installs its own (lsp/main.py)
        if kept_code:
            # dataclasses' generated methods (60-odd classes on every start), compiled once and
            # kept beside the bytecode, as the language server keeps attrs' (startup/compiled.py)
            from rulelens.startup import compiled

            compiled.install("cli", (("dataclasses", "exec"),))
        from rulelens.cli.app import main as run

        try:
            if found is None:
                return run(argv)
            return found.run(lambda git, records, output: run(argv, git, records, output))
        finally:
            if kept_code:
                compiled.save()
    except KeyboardInterrupt:
        return interrupted()


def leave(code: int) -> NoReturn:
    """Exit now, after the kept answer was printed: nothing else ran (no thread, no file open
    for writing), and Python's finalization, which tears down every module loaded, takes 2-3 ms
    of a 25 ms answer. As `interrupted` does, `os._exit` after flushing what was written."""
    import os
    import sys

    for stream in (sys.stdout, sys.stderr):
        try:  # noqa: SIM105 (contextlib is not loaded on this path)
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: what was written is all there is
            pass
    os._exit(code)


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    interrupted()


def interrupted() -> int:
    """Say so once and leave now: worker threads (git, the file walk) are not waited for.

    Only `os` and `sys` (loaded before any code of ours): the signal may come in the middle of
    an import, and importing a module that one needs (contextlib needs functools) would find it
    half made and fail with an ImportError's traceback."""
    import os
    import sys

    # RuntimeError: the handler may run while the main thread is inside a write to the stream.
    try:  # noqa: SIM105
        sys.stdout.flush()
    except (OSError, ValueError, RuntimeError):
        pass
    try:
        # A terminal has echoed `^C` where the cursor was: start a line of our own.
        sys.stderr.write(("\n" if sys.stderr.isatty() else "") + "rulelens: interrupted\n")
        sys.stderr.flush()
    finally:
        os._exit(130)
