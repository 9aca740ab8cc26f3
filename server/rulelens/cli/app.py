"""`rulelens` on the command line: the parser, and dispatch to one module per command.

Each command is a module in `commands/` with `EXAMPLE`, `arguments(parser)` and `run(run)`, and
one line in `COMMANDS` below. Only the chosen command's module is imported (and only its
`run` imports the core), so `rulelens --version` and `--help` load almost nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from rulelens import __version__
from rulelens.cli.command_word import command_word
from rulelens.cli.common import EXIT_OK, EXIT_USAGE, Output, Run, fail

if TYPE_CHECKING:
    from rulelens.check_project import RunRecord
    from rulelens.workspace.git import GitSession

# name -> one-line summary (the top-level help lists these without importing the modules).
COMMANDS: dict[str, str] = {
    "record": "record a rule for a glob, as Laravel Boost does, and rebuild the index",
    "index": "regenerate .ai/rules/index.md from the rule files",
    "match": "show the rules that apply to paths, and whether agents see them",
    "check": "lint the rule files and the index against the project's files",
    "review": "show the rules that apply to what a branch changed since REF",
    "init": "point AGENTS.md (and CLAUDE.md) at the rules",
    "serve": "run the language server (stdio by default)",
    "mcp": "run the MCP server on stdio, for agents",
    "map": "show which agents' rules reach each folder, the gaps, disagreements and budget overruns",
    "verify": "run the installed agents on a scratch copy and compare what they load with the prediction",
    "completion": "print a shell completion script (bash, zsh or fish)",
}


AGENTS = "{agents}"


def expanded_help(text: str) -> str:
    """A help text with `{agents}` named from the registry (imported only then)."""
    if AGENTS not in text:
        return text
    from rulelens.report.agents import agent_names

    return text.replace(AGENTS, agent_names())


class _Help(argparse.HelpFormatter):
    """argparse's formatter, with `{agents}` in a help text named when help is shown."""

    def _format_action(self, action: argparse.Action) -> str:
        # `{agents}` in a help text is every agent of the registry, named when help is shown:
        # importing the registry on every parse would load every agent's module.
        text = action.help
        if text and AGENTS in text:
            import copy

            action = copy.copy(action)
            action.help = expanded_help(text)
        return super()._format_action(action)


class _RawHelp(argparse.RawDescriptionHelpFormatter, _Help):
    """`_Help` that keeps descriptions and epilogs as written."""


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line on stderr with exit 2, never a traceback."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)
        self.more_help: Callable[[], str] | None = None  # a command's `more_help`, built when shown

    def format_help(self) -> str:
        text = super().format_help()
        return text if self.more_help is None else f"{text}\n{self.more_help()}"

    def error(self, message: str) -> None:  # type: ignore[override]
        # `prog` is the command's own ("rulelens match"): its help is the one that explains.
        sys.stderr.write(f"rulelens: {message} (see `{self.prog} --help`)\n")
        raise SystemExit(EXIT_USAGE)


_EPILOG = """examples:
  rulelens match app/Models/Invoice.php
  rulelens record --glob 'app/Models/**' --title 'Money is integer cents' --note 'Never floats.'
  rulelens index --check && rulelens check      (in CI)

exit codes: 0 ok, 1 problems found (check, index --check), 2 usage or input error,
130 interrupted"""


def _folder(text: str) -> Path:
    if not text.strip():
        raise argparse.ArgumentTypeError("needs a folder, not an empty string")
    return Path(text)


def _global_options(parser: argparse.ArgumentParser, top: bool) -> None:
    """`--root` and `--quiet` work before or after the command, as git's and ruff's do."""
    default = None if top else argparse.SUPPRESS
    parser.add_argument("--root", type=_folder, default=default, metavar="DIR",
                        help="project root (default: the nearest folder upwards with .ai/rules, "
                             "else with .git, else the current folder)")
    parser.add_argument("-q", "--quiet", action="store_true", default=False if top else argparse.SUPPRESS,
                        help="print only findings and errors, no confirmations or summaries "
                             "(default: off)")


# Commands that live with the front they start, whose options are that front's: named here, so
# that the command line imports nothing of the language server (tests/architecture/
# test_layers.py).
ELSEWHERE = {"serve": "rulelens.lsp.command"}


def command_module(name: str) -> ModuleType:
    return importlib.import_module(ELSEWHERE.get(name, f"rulelens.cli.commands.{name}"))


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with `only` a command, that command alone (the line names it, so no
    other is parsed or listed: about 1 ms less on every run); with `only` "", every command with
    its summary but no arguments (for the top-level help and a mistyped command)."""
    parser = _Parser(prog="rulelens", description="See and record the project rules (.ai/rules) "
                     "that AI coding agents read.", epilog=_EPILOG,
                     formatter_class=_RawHelp)
    _global_options(parser, top=True)
    parser.add_argument("-V", "--version", action="version", version=f"rulelens {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")
    for name, summary in COMMANDS.items():
        if only is not None and name != only:
            if not only:
                sub.add_parser(name, help=summary)
            continue
        module = command_module(name)
        cmd: _Parser = sub.add_parser(name, help=summary, description=f"{summary}.",
                             epilog=f"example:\n  {module.EXAMPLE}",
                             formatter_class=_RawHelp)
        cmd.more_help = getattr(module, "more_help", None)
        if getattr(module, "GLOBAL_OPTIONS", True):  # `completion` reads neither
            _global_options(cmd, top=False)
        module.arguments(cmd)
    return parser


def _chosen(argv: Sequence[str]) -> str | None:
    """The command named on the command line (skipping `--root`'s value), if any; None as well
    when the top-level help is asked for before it (`rulelens --help check` lists every command)."""
    word = command_word(argv)
    if word not in COMMANDS:
        return None
    before = list(argv)[: list(argv).index(word)]
    return None if any(a in ("-h", "--help") for a in before) else word


_VALUE_OPTIONS = ("--glob", "--title", "--note")


def _attach_values(argv: Sequence[str]) -> list[str]:
    """`--title ---` as `--title=---`: argparse takes a value starting with `-` for an option."""
    out: list[str] = []
    args = iter(argv)
    for arg in args:
        value = next(args, None) if arg in _VALUE_OPTIONS else None
        out.append(arg if value is None else f"{arg}={value}")
    return out


def main(argv: Sequence[str] | None = None, git: GitSession | None = None,
         records: list[RunRecord] | None = None, output: Output | None = None) -> int:
    """`git`, `records` and `output`: see `Run` (given by `check`'s result cache)."""
    raw = _attach_values(sys.argv[1:] if argv is None else argv)
    if not raw:  # a bare `rulelens` asks what it does: the help, not an error
        build_parser(only="").print_help()
        return EXIT_OK
    name = _chosen(raw)
    args = build_parser(only=name if name is not None else "").parse_args(raw)
    run = Run(args, args.root, args.quiet, git, records, output)
    from rulelens.rules.model import RuleError

    try:
        with warnings.catch_warnings():
            # A library's warning (pathspec's "Possible nested set") is no message for a user:
            # what is wrong with a glob is a finding with a code.
            warnings.simplefilter("ignore")
            if run.root is not None and not run.root.is_dir():
                raise RuleError(f"--root {run.root} is not a folder.")
            code: int = command_module(args.command).run(run)
            return code
    except RuleError as exc:
        return fail(str(exc))
    except BrokenPipeError:
        return _closed_pipe()
    except OSError as exc:
        return fail(_os_error(exc))


def _os_error(exc: OSError) -> str:
    where = str(exc.filename or "")
    if where and isinstance(exc, PermissionError) and os.path.isdir(where):
        return f"{exc.strerror or exc}: cannot write in the folder {where}"
    return f"{exc.strerror or exc}: {where}".rstrip(": ")


def _closed_pipe() -> int:
    """`rulelens match … | head -1`: the reader left; exit quietly, as other tools do."""
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
