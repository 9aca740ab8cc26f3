"""Claude Code's `Read` deny rules (agents/formats/claude_permissions.py), each shape as the
released binary matched it end to end (tests/conformance/e2e/test_claude_code_loading.py)."""

from __future__ import annotations

from pathlib import Path

from rulelens.agents.formats.claude_permissions import matcher, pattern_of, read_denied
from rulelens.agents.model import Load
from rulelens.agents.project import AgentProject
from rulelens.rules.repository import RuleRepository
from rulelens.workspace.reads import Reads

ROOT = "/work/p"


def test_rule_shapes() -> None:
    assert pattern_of("Read(CLAUDE.md)", ROOT) == "CLAUDE.md"
    assert pattern_of("Read(./CLAUDE.md)", ROOT) == "CLAUDE.md"  # at any depth, as the run showed
    assert pattern_of("Read(/CLAUDE.md)", ROOT) == "/CLAUDE.md"
    assert pattern_of("Read(//work/p/docs/**)", ROOT) == "/docs/**"
    assert pattern_of("Read(//elsewhere/x.md)", ROOT) is None
    assert pattern_of("Read(~/notes.md)", ROOT) is None
    assert pattern_of("Edit(CLAUDE.md)", ROOT) is None and pattern_of("Read", ROOT) is None


def test_matching_is_gitignore_like_and_case_insensitive() -> None:
    denied = matcher([("claude.md", ".claude/settings.json"), ("/docs/**", ".claude/settings.local.json")])
    assert denied("CLAUDE.md") == denied("src/CLAUDE.md") == ".claude/settings.json"
    assert denied("docs/a.md") == ".claude/settings.local.json" and denied("src/docs/a.md") is None
    anchored = matcher([("/CLAUDE.md", ".claude/settings.json")])
    assert anchored("CLAUDE.md") is not None and anchored("src/CLAUDE.md") is None


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_a_denied_file_and_what_only_it_imports_stay_out(tmp_path: Path) -> None:
    root = _write(tmp_path / "p", {
        "CLAUDE.md": "# Own\n\nSee @docs/a.md\n", "docs/a.md": "# A\n\nAlso @docs/b.md\n", "docs/b.md": "# B\n",
        "src/CLAUDE.md": "# Src\n", "src/x.ts": "",
        ".claude/settings.json": '{"permissions": {"deny": ["Read(docs/a.md)", "Edit(CLAUDE.md)"]}}'})
    assert read_denied(root, Reads()) == [("docs/a.md", ".claude/settings.json")]
    view = AgentProject(RuleRepository(root)).view("src/x.ts")
    assert [x.file for x in view.loads["claude-code"] if isinstance(x, Load)] == ["CLAUDE.md", "src/CLAUDE.md"]


def test_reading_a_denied_path_loads_nothing_after_it(tmp_path: Path) -> None:
    root = _write(tmp_path / "p", {"CLAUDE.md": "# Own\n", "src/CLAUDE.md": "# Src\n", "src/x.ts": "",
                                   ".claude/settings.local.json": '{"permissions": {"deny": ["Read(src/x.ts)"]}}'})
    project = AgentProject(RuleRepository(root))
    read = project.view("src/x.ts")
    assert [x.file for x in read.loads["claude-code"]] == ["CLAUDE.md"]
    assert "deny rule in `.claude/settings.local.json`" in read.moment_notes["claude-code"]
    for on in ("edit", "create"):  # run: an Edit and a Write of a denied path load nothing after it too
        assert [x.file for x in project.view("src/x.ts", on=on).loads["claude-code"]] == ["CLAUDE.md"]
