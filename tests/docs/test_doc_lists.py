"""Every list of agents and commands people read is the registry's and the parser's.

The docs' agent lists sit between `<!-- agents -->` and `<!-- /agents -->` and are written from
the registry: `python -m tests.docs.test_doc_lists --write` rewrites them after an agent is added
or renamed. `match --help` names the agents from the registry when it is shown.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulelens.agents.registry import AGENTS
from rulelens.cli.app import COMMANDS
from rulelens.report.agents import agent_names
from tests.conftest import REPO

BLOCK = re.compile(r"<!-- agents -->(.*?)<!-- /agents -->", re.S)
# Each doc that lists the other agents, and how many lists it has.
LISTS = {"README.md": 1, "docs/editors.md": 1, "docs/vscode.md": 2}


def _flat(text: str) -> str:
    return " ".join(text.split())


def _docs() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


@pytest.mark.parametrize(("doc", "count"), LISTS.items())
def test_each_doc_lists_the_agents_it_should(doc: str, count: int) -> None:
    assert len(BLOCK.findall((REPO / doc).read_text(encoding="utf-8"))) == count


def test_every_agent_list_is_the_registrys() -> None:
    expected = agent_names(others=True)
    assert all(a.name in expected for a in AGENTS[1:])
    stale = [(doc.relative_to(REPO).as_posix(), _flat(found)) for doc in _docs()
             for found in BLOCK.findall(doc.read_text(encoding="utf-8")) if _flat(found) != expected]
    assert stale == [], "run `python -m tests.docs.test_doc_lists --write`"


@pytest.mark.parametrize("doc", ["README.md", "docs/cli.md"])
def test_the_command_tables_name_every_command(doc: str) -> None:
    text = (REPO / doc).read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    missing = [name for name in COMMANDS
               if not any(re.match(rf"\| `({name}|[a-z]+`, `{name})[ `]", row) for row in rows)]
    assert missing == []


def test_the_readme_names_the_github_action() -> None:
    assert "GitHub Action" in _flat((REPO / "README.md").read_text(encoding="utf-8"))


def test_match_help_names_every_agent() -> None:
    done = subprocess.run([sys.executable, "-m", "rulelens", "match", "--help"], capture_output=True,
                          text=True, check=True, env={**os.environ, "COLUMNS": "100"})
    shown = _flat(done.stdout)
    assert [a.name for a in AGENTS if a.name not in shown] == []


def test_the_action_counts_no_agents() -> None:
    """action.yml cannot ask the registry, so it names no number of agents."""
    text = (REPO / "action.yml").read_text(encoding="utf-8")
    assert not re.search(r"\b(\d+|two|three|four|five|six|seven|eight|nine|ten|[a-z]+teen)\b[^.\n]*agents",
                         text, re.I)


def write() -> None:
    expected = agent_names(others=True)
    for doc in _docs():
        text = doc.read_text(encoding="utf-8")
        new = BLOCK.sub(f"<!-- agents -->{expected}<!-- /agents -->", text)
        if new != text:
            doc.write_text(new, encoding="utf-8")
            print(f"wrote {doc.relative_to(REPO)}")


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    write()
