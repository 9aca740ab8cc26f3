"""The moment the editor shows: what each agent loads when it reads the open file, said in the
hover. A path where reading and creating differ (Claude Code's Read refuses a binary file by
its extension; its Write does not) shows the read's answer and says why, where the CLI answers
each moment asked for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pytest_lsp import LanguageClient

from tests.lsp.helpers import open_doc
from tests.lsp.test_agents_editor import _hover, _section

FILES = {
    "CLAUDE.md": "# Project\n",
    ".claude/rules/audio.md": '---\npaths: "assets/**/*.mp3"\n---\n# Audio files\n',
    "assets/sounds/ping.mp3": "ID3 text\n",
    "assets/sounds/notes.txt": "x\n",
}


@pytest.fixture
def studio(tmp_path: Path) -> Path:
    root = tmp_path / "studio"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


@pytest.fixture
def folders(studio: Path) -> list[Path]:
    return [studio]


def _match(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "match", "--agents", *args],
                          capture_output=True, text=True, check=False)


async def test_hover_says_the_moment_and_why_a_read_loads_less(client: LanguageClient, studio: Path) -> None:
    rel = "assets/sounds/ping.mp3"
    await open_doc(client, (studio / rel).as_uri(), (studio / rel).read_text())
    text = await _hover(client, studio, rel)
    assert text is not None
    section = _section(text)
    assert section.startswith("In other agents** · when each reads this file (on read)")
    claude = section[section.index("**Claude Code**"):]
    claude = claude[:claude.index("\n\n")] if "\n\n" in claude else claude
    assert "audio.md" not in claude and "[CLAUDE.md]" in claude
    assert "Claude Code's Read refuses `.mp3` files as binary" in claude
    # A text file beside it: the same rule folder, nothing refused, nothing said.
    other = "assets/sounds/notes.txt"
    await open_doc(client, (studio / other).as_uri(), (studio / other).read_text())
    beside = _section(await _hover(client, studio, other) or "")
    assert "refuses" not in beside


def test_cli_answers_read_and_create_apart(studio: Path) -> None:
    rel = "assets/sounds/ping.mp3"
    read, create = _match(studio, rel), _match(studio, "--on", "create", rel)
    assert (read.returncode, create.returncode) == (0, 0), read.stderr + create.stderr
    assert f"What each agent loads for {rel} on read (the default):" in read.stdout
    assert f"What each agent loads for {rel} on create:" in create.stdout
    claude_read = read.stdout[read.stdout.index("  Claude Code: "):].split("\n\n")[0]
    claude_create = create.stdout[create.stdout.index("  Claude Code: "):].split("\n\n")[0]
    assert ".claude/rules/audio.md" not in claude_read and "refuses `.mp3` files" in claude_read
    assert "glob      .claude/rules/audio.md" in claude_create and "refuses" not in claude_create
    [item] = json.loads(_match(studio, "--json", "--on", "create", rel).stdout)
    assert item["on"] == "create"
    assert [x["file"] for x in item["agents"]["claude-code"]] == ["CLAUDE.md", ".claude/rules/audio.md"]
    [item] = json.loads(_match(studio, "--json", rel).stdout)
    assert item["on"] == "read" and [x["file"] for x in item["agents"]["claude-code"]] == ["CLAUDE.md"]
    assert "refuses" in item["agents_moment_notes"]["claude-code"]


def test_on_needs_agents(studio: Path) -> None:
    done = _match(studio, "--on", "edit", "x")
    assert done.returncode == 0  # with --agents it is fine (a missing file answers too)
    bare = subprocess.run([sys.executable, "-m", "rulelens", "--root", str(studio), "match", "--on", "edit",
                           "CLAUDE.md"], capture_output=True, text=True, check=False)
    assert bare.returncode == 2 and "--on" in bare.stderr
