"""`rulelens mcp`: the MCP server on stdio, for agents."""

from __future__ import annotations

import argparse

from rulelens.cli.common import Run

EXAMPLE = "rulelens mcp"


def arguments(parser: argparse.ArgumentParser) -> None:
    """No options beyond the global ones."""


def run(run: Run) -> int:
    from rulelens.mcp import main

    return main(run.root)
