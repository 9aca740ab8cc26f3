"""Helpers for driving the real `rulelens mcp` over stdio with the `mcp` package's own client."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult, TextContent

RULES = ".ai/rules"


def server_params(root: Path, cwd: Path | None = None) -> StdioServerParameters:
    """`python -m rulelens --root ROOT mcp`: the CLI's real entry, with this interpreter."""
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "rulelens", "--root", str(root), "mcp"],
        env=dict(os.environ),
        cwd=str(cwd or root),
    )


@asynccontextmanager
async def rulelens_client(root: Path) -> AsyncIterator[Client]:
    # A context manager rather than a fixture: anyio's cancel scopes must open and close in
    # the same task, which async-generator fixtures do not guarantee.
    async with Client(server_params(root), read_timeout_seconds=60) as client:
        yield client


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1, result.content
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


def run_cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulelens", "--root", str(root), *args],
        capture_output=True, text=True, timeout=120, check=False,
    )


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def tree(root: Path, under: str = RULES) -> dict[str, bytes]:
    """Every file below a folder, with its bytes: to compare what two writers left."""
    base = root / under
    return {p.relative_to(base).as_posix(): p.read_bytes() for p in sorted(base.rglob("*"))
            if p.is_file()}


MODELS = """---
paths:
  - 'app/Models/**'
---

# Models

Models hold data, not workflows.

## Keep models thin
Business logic goes in app/Actions.

## Casts
Use `casts()` instead of `$casts`.
"""

ROUTES = """---
paths:
  - routes/web.php
---

# Routes

## Name every route
Every route gets a `->name()`.
"""

GLOSSARY = """# Glossary

## Tenant
A billing account; every Invoice belongs to one.
"""
