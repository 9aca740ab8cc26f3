"""Fixtures for the MCP tests: a small project on disk, indexed by the real CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp.mcp_support import GLOSSARY, MODELS, ROUTES, RULES, run_cli, write


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A small project with two path rules and one cross-cutting file without paths."""
    root = tmp_path / "project"
    write(root, f"{RULES}/models.md", MODELS)
    write(root, f"{RULES}/routes.md", ROUTES)
    write(root, f"{RULES}/glossary.md", GLOSSARY)
    write(root, "app/Models/User.php", "<?php\n")
    write(root, "routes/web.php", "<?php\n")
    assert run_cli(root, "index").returncode == 0
    return root
