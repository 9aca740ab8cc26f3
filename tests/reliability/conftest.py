"""Shared invariants for the reliability suite: what "nothing lost, nothing broken" means."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rulelens.rules.format.reading import decode
from rulelens.rules.repository import RuleRepository

RULES = ".ai/rules"


def cli(root: Path, *args: str, env: dict[str, str] | None = None,
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`python -m rulelens --root ROOT ...`, the real entry point."""
    full = {**os.environ, **(env or {})}
    if not env or "RULELENS_TEST_CRASH_AT" not in env:
        full.pop("RULELENS_TEST_CRASH_AT", None)
    return subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), *args],
                          capture_output=True, text=True, env=full, timeout=timeout, check=False)


def make_root(path: Path, git: bool = False) -> Path:
    (path / RULES).mkdir(parents=True, exist_ok=True)
    if git:
        subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    return path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_root(tmp_path / "project")


def rule_files(root: Path) -> list[Path]:
    rules = root / RULES
    found = [p for p in rules.glob("*.md") if p.name != "index.md"]
    found += list((rules / "boost").glob("*.md"))
    return sorted(found)


def strays(root: Path) -> list[str]:
    """Anything in the rules folder that is neither a rule file nor the index."""
    rules = root / RULES
    return sorted(p.name for p in rules.iterdir() if not (p.is_file() and p.suffix == ".md")
                  and p.name != "boost")


def frontmatter_of(text: str) -> object:
    """The frontmatter parsed by a strict YAML parser, as Boost reads it."""
    lines = text.split("\n")
    assert lines[0] == "---", text[:200]
    close = lines.index("---", 1)
    return yaml.safe_load("\n".join(lines[1:close]))


def assert_consistent(root: Path) -> RuleRepository:
    """Every rule file has strict, valid frontmatter with paths; the index is a fresh render."""
    repo = RuleRepository(root)
    for path in rule_files(root):
        text, problem = decode(path.read_bytes())
        assert problem is None, (path, problem)
        data = frontmatter_of(text)
        assert isinstance(data, dict) and data.get("paths"), (path, data)
        assert all(isinstance(g, str) for g in data["paths"]), (path, data)
    for f in repo.files:
        assert f.strict_ok, (f.rel, [p.message for p in f.problems])
    index = (root / RULES / "index.md").read_text(encoding="utf-8")
    assert index == RuleRepository(root).index_text()
    assert cli(root, "index", "--check").returncode == 0
    assert strays(root) == []
    return repo


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((root / RULES).iterdir()) if p.is_file()}
