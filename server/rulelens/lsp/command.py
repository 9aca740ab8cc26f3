"""`rulelens serve`: the language server on stdio, or on TCP with `--tcp`.

The command lives with the server, whose options these are: the command line (cli/app.py's
`COMMANDS`) names this module and imports nothing of the server's, and this module nothing of
the command line's (`Invocation` is what it reads of cli/common.py's `Run`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Protocol

EXAMPLE = "rulelens serve --tcp --port 2087"
HOST, PORT = "127.0.0.1", 2087


class Invocation(Protocol):
    """What `run` reads of the command line's run: the parsed options and `--root`."""

    @property
    def args(self) -> argparse.Namespace: ...

    @property
    def root(self) -> Path | None: ...


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tcp", action="store_true", help="listen on TCP instead of stdio (default: off)")
    parser.add_argument("--host", default=None, help=f"TCP address, with --tcp (default: {HOST})")
    parser.add_argument("--port", type=int, default=None,
                        help=f"TCP port, with --tcp; 0 picks a free one (default: {PORT})")
    parser.add_argument("--stdio", action="store_true", help=argparse.SUPPRESS)


def run(run: Invocation) -> int:
    from rulelens.lsp.main import prepare, serve

    prepare()  # before the rest is imported
    from rulelens.rules.model import RuleError

    args = run.args
    if not args.tcp and (args.host is not None or args.port is not None):
        raise RuleError("--host and --port need --tcp (see `rulelens serve --help`)")

    host, port = args.host or HOST, PORT if args.port is None else args.port
    if args.tcp:
        port = _free(host, port)
        sys.stderr.write(f"rulelens: language server listening on {host}:{port}\n")
        sys.stderr.flush()
    return serve(run.root, args.tcp, host, port)


def _free(host: str, port: int) -> int:
    """Bind once to learn that the address is free (and which port 0 picks), before saying
    "listening". pygls binds again by host and port; asyncio sets SO_REUSEADDR, so the
    second bind follows at once."""
    import socket

    from rulelens.rules.model import RuleError

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
            bound: int = probe.getsockname()[1]
            return bound
    except OSError as exc:
        raise RuleError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
