"""`rulelens serve`: run the language server on stdio (default) or TCP."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path


def prepare() -> None:
    """What must come before anything else is imported: no garbage collection until the first
    answers are out (workspace/collector.py), and generated code compiled through the kept code
    objects (startup/compiled.py). Both are idempotent."""
    from rulelens.lsp.workspace import collector
    from rulelens.startup import compiled

    collector.pause()
    compiled.install()


def serve(root: Path | None, tcp: bool, host: str, port: int) -> int:
    """Serve until the client exits; stdout carries protocol messages only."""
    prepare()
    logging.basicConfig(stream=sys.stderr, level=os.environ.get("RULELENS_LOG", "WARNING"),
                        format="rulelens %(levelname)s %(name)s: %(message)s")
    from rulelens.lsp.server import build

    server = build(root)
    if tcp:
        server.start_tcp(host, port)
        return 0
    protocol_out = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print() must never corrupt the protocol stream
    server.start_io(sys.stdin.buffer, protocol_out)
    return 0
