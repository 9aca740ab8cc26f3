"""`rulelens map` through the real CLI: the text tree, `--json`, and the page opened in Chromium."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, REPO, ProjectFactory

ALL_AGENTS = REPO / "tests" / "agents" / "fixtures" / "all_agents"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
OUTPUT = REPO / "test-output"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "map", *args],
                          capture_output=True, text=True, check=False)


@pytest.fixture
def agents_project(tmp_path: Path) -> Path:
    """The fixture in a git repository, as a project is: Codex's chain starts at `.git`."""
    root = Path(shutil.copytree(ALL_AGENTS, tmp_path / "all_agents"))
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def test_json_names_each_folders_agents_the_gaps_and_the_overruns(agents_project: Path) -> None:
    result = run(agents_project, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    folders = {f["path"]: f for f in data["folders"]}
    assert folders["app/Models"]["reached"]["boost"] == 2
    assert set(folders["packages"]["reached"]) == {"copilot", "copilot-cli", "cursor", "windsurf", "kiro", "codex",
                                                        "gemini-cli", "qwen-code", "amp"}
    assert folders["app/Http"]["reached"] == {}
    assert data["gaps"] == ["app/Http"]
    assert ".ai/rules" not in folders  # the index is rules, not code
    assert any(d["file"] == ".ai/rules/models.md" for d in data["disagreements"])
    [codex] = data["overBudget"]
    assert (codex["agent"], codex["folder"], codex["files"]) == ("codex", "packages/big", 1)
    assert "codex" in {e["agent"] for e in data["everywhere"] if e["file"] == "AGENTS.md"}


def test_text_tree_marks_the_gap_and_lists_the_sections(agents_project: Path) -> None:
    result = run(agents_project, "--depth", "1")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert ("  packages/  3 files · Copilot in VS Code 3 · Copilot CLI 3 · Cursor 3 · Devin Desktop 3 · Kiro 3 · "
            "Codex 3 · Qwen Code 3 · Amp 3 · Gemini CLI 1") in out
    assert ("AGENTS.md (Copilot in VS Code, Copilot CLI, Cursor, Kiro, Codex, Qwen Code, Google Antigravity, "
            "OpenHands, Amp)") in out  # one line a file
    assert "Http/" not in out.split("\n\n")[1]  # depth 1: the tree stops at the top folders
    assert "Folders with code that no scoped rule reaches:\n  app/Http/" in out
    assert "Where agents disagree:" in out and "Over budget:" in out


def test_a_project_without_agent_files_says_so(project: ProjectFactory) -> None:
    root = project({"src/a.py": "x = 1\n"})
    shutil.rmtree(root / ".ai")
    result = run(root)
    assert result.returncode == 0, result.stderr
    assert "No agent's rule files in this project." in result.stdout


def test_html_into_a_missing_folder_is_a_clear_message(agents_project: Path, tmp_path: Path) -> None:
    result = run(agents_project, "--html", str(tmp_path / "nowhere" / "map.html"))
    assert result.returncode == 2
    assert "does not exist" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium")
@pytest.mark.parametrize("name, source", [("all-agents", ALL_AGENTS), ("examples", EXAMPLES)])
def test_page_renders_offline_in_chromium(name: str, source: Path, tmp_path: Path) -> None:
    root = Path(shutil.copytree(source, tmp_path / name))
    page = tmp_path / f"{name}.html"
    assert run(root, "--html", str(page)).returncode == 0
    text = page.read_text(encoding="utf-8")
    assert "http://" not in text and "https://" not in text  # nothing to fetch: it opens offline
    dom = chromium(page, "--dump-dom")
    assert 'data-ready="1"' in dom, "the page's script did not finish"
    if name == "all-agents":
        assert "packages/" in dom and "Cursor 3" in dom and "Codex 3" in dom and ">src/<" in dom
        assert "no scoped rule reaches its code" in dom and ">app/Http/<" in dom
        assert "over budget for 1" in dom
    else:
        assert "app/" in dom and "Boost 4" in dom and ">resources/<" in dom
    OUTPUT.mkdir(exist_ok=True)
    shot = OUTPUT / f"map-{name}.png"
    chromium(page, f"--screenshot={shot}", "--window-size=1400,900")
    assert shot.stat().st_size > 10_000


def chromium(page: Path, *args: str) -> str:
    with tempfile.TemporaryDirectory() as profile:
        result = subprocess.run([str(CHROMIUM), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args,
                                 page.as_uri()], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def test_always_loaded_rules_are_no_gap_in_the_words(project: ProjectFactory) -> None:
    """Every file gets CLAUDE.md: the gap is of *scoped* rules, and an agent without any scoped
    rule file says nothing of what they reach."""
    root = project({"CLAUDE.md": "# Rules\n\nUse tabs.\n", "src/a.py": "x = 1\n", "lib/b.py": "y = 2\n",
                    ".cursor/rules/src.mdc": "---\nglobs: src/**\n---\nSrc.\n"})
    shutil.rmtree(root / ".ai")
    out = run(root).stdout
    assert "Claude Code (1 rule file)" in out
    assert "Cursor (1 rule file, scoped ones reach 1)" in out
    assert "no rule reaches" not in out
    assert "lib/  1 file · ! no scoped rule reaches its code" in out
    assert "Folders with code that no scoped rule reaches:\n  lib/" in out
