"""`@path` imports through the real CLI: a Laravel project whose Boost guidelines in `CLAUDE.md`
say to open `@.ai/rules/index.md`, which Claude Code imports at session start; and the finding for
an import that names no file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.boost_project import boost_project, import_line


def rulelens(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), *args],
                          capture_output=True, text=True, check=False)


@pytest.fixture
def laravel(tmp_path: Path) -> Path:
    return boost_project(tmp_path / "shop")


def test_match_agents_shows_the_index_claude_code_imports_at_start(laravel: Path) -> None:
    done = rulelens(laravel, "match", "--agents", "app/Models/User.php")
    assert done.returncode == 0, done.stderr
    claude = done.stdout[done.stdout.index("  Claude Code:"):]
    claude = claude[:claude.index("\n\n")] if "\n\n" in claude else claude
    size = (laravel / ".ai/rules/index.md").stat().st_size
    lines = claude.splitlines()
    assert lines[1].split() == ["always", "CLAUDE.md", f"{(laravel / 'CLAUDE.md').stat().st_size:,}", "B"]
    assert lines[2].split() == ["always", ".ai/rules/index.md", f"{size:,}", "B", "imported", "by",
                                f"CLAUDE.md:{import_line()}"]
    # the imported bytes count in the agent's total
    total = (laravel / "CLAUDE.md").stat().st_size + size
    assert lines[0].startswith(f"  Claude Code: 2 files, {total:,} bytes")


def test_match_agents_json_says_imported_by(laravel: Path) -> None:
    done = rulelens(laravel, "match", "--agents", "--json", "app/Models/User.php")
    assert done.returncode == 0, done.stderr
    [item] = json.loads(done.stdout)
    claude = item["agents"]["claude-code"]
    assert [x["file"] for x in claude] == ["CLAUDE.md", ".ai/rules/index.md"]
    assert claude[1] == {"file": ".ai/rules/index.md", "how": "always", "patterns": [],
                         "bytes": (laravel / ".ai/rules/index.md").stat().st_size,
                         "imported_by": f"CLAUDE.md:{import_line()}"}
    assert "imported_by" not in claude[0]  # present only where a file is imported


def test_map_lists_the_import_with_the_files_loaded_everywhere(laravel: Path) -> None:
    done = rulelens(laravel, "map")
    assert done.returncode == 0, done.stderr
    everywhere = next(line for line in done.stdout.splitlines() if line.startswith("Loaded for every file:"))
    assert f".ai/rules/index.md (Claude Code: imported by CLAUDE.md:{import_line()}, " in everywhere
    data = json.loads(rulelens(laravel, "map", "--json").stdout)
    assert {"agent": "claude-code", "file": ".ai/rules/index.md",
            "bytes": (laravel / ".ai/rules/index.md").stat().st_size,
            "imported_by": f"CLAUDE.md:{import_line()}"} in data["everywhere"]


def test_check_reports_an_import_of_no_file_at_its_columns(laravel: Path) -> None:
    claude = laravel / "CLAUDE.md"
    claude.write_text(claude.read_text() + "\nSee @docs/conventions.md and `@docs/kept-as-text.md`, ask @taylor.\n")
    done = rulelens(laravel, "check")
    found = [line for line in done.stdout.splitlines() if "[claude-import-missing]" in line]
    assert len(found) == 1, found  # the one in backticks is text, `@taylor` names no file
    line = len(claude.read_text().splitlines())
    # at the import's line and column (1-based: after "See ")
    assert found[0].startswith(f"CLAUDE.md:{line}:5: warning [claude-import-missing] ")
    assert "`docs/conventions.md`, which the project does not have" in found[0]
    assert "confirmed in Claude Code 2.1.337" in found[0]
    (laravel / "docs").mkdir()
    (laravel / "docs/conventions.md").write_text("# Conventions\n")
    assert "[claude-import-missing]" not in rulelens(laravel, "check").stdout


def test_a_rule_with_paths_has_its_imports_loaded_at_start(laravel: Path) -> None:
    """Claude Code reads the imports of a `.claude/rules` file with `paths` at session start, with
    the unconditional files, even for a path the rule itself does not load for (seen from its
    binary): `match` and `map` say so."""
    rule = laravel / ".claude/rules/api.md"
    rule.parent.mkdir(parents=True)
    rule.write_text('---\npaths: "app/Http/**"\n---\nAPI conventions: @../../docs/api.md\n')
    (laravel / "docs").mkdir()
    (laravel / "docs/api.md").write_text("# API\n")
    [item] = json.loads(rulelens(laravel, "match", "--agents", "--json", "app/Models/User.php").stdout)
    claude = {x["file"]: x for x in item["agents"]["claude-code"]}
    assert ".claude/rules/api.md" not in claude
    assert claude["docs/api.md"]["how"] == "always"
    assert claude["docs/api.md"]["imported_by"] == ".claude/rules/api.md:4"
    data = json.loads(rulelens(laravel, "map", "--json").stdout)
    assert {"agent": "claude-code", "file": "docs/api.md", "bytes": 6,
            "imported_by": ".claude/rules/api.md:4"} in data["everywhere"]
