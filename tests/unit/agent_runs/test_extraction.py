"""The files a recorded request carries: named by the agent's wrapper, or found by their text."""

from __future__ import annotations

from pathlib import Path

from rulelens.agent_runs.extraction import Fingerprints, pieces, relative, seen_files
from rulelens.agent_runs.launchers.claude_code import ClaudeCode
from rulelens.agent_runs.launchers.copilot_cli import CopilotCli
from rulelens.agent_runs.model import Seen


def test_claude_codes_contents_blocks_name_the_files_at_start_and_after_the_tool() -> None:
    root = Path("/tmp/x/project")
    first = {"messages": [{"role": "user", "content": [{"type": "text", "text": (
        "<system-reminder>\nContents of /tmp/x/project/CLAUDE.md (project instructions, checked into "
        "the codebase):\n\nroot\n\nContents of /tmp/x/project/docs/a b.md (project instructions, "
        "checked into the codebase):\n\nimported\n")}]}]}
    second = {"messages": [*first["messages"], {"role": "user", "content": [
        {"type": "tool_result", "content": "Contents of /tmp/x/project/not-a-block.md: in a line"},
        {"type": "text", "text": "<system-reminder>\nContents of /tmp/x/project/src/CLAUDE.md:\n\nnested\n"}]}]}
    assert seen_files(ClaudeCode(), [first, second], root, "read", None) == (
        Seen("CLAUDE.md", "start"), Seen("docs/a b.md", "start"), Seen("src/CLAUDE.md", "after-read"))


def test_a_file_split_by_its_imports_is_found_by_its_pieces(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_text("Root rules here.\nSee @docs/x.md please\nThe last line of it.\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/x.md").write_text("---\napplyTo: '**'\n---\nImported words &  more.\n")
    (tmp_path / "short.md").write_text("x\n")
    prints = Fingerprints(tmp_path, ["AGENTS.md", "docs/x.md", "short.md", "src/a.ts"])
    assert pieces("---\na: 1\n---\none @b\ntwo\n") == ["one @b", "two"]
    assert pieces("open @a.md first.\nnext\n") == ["open @a.md", "first.", "next"]
    assert sorted(prints.pieces) == ["AGENTS.md", "docs/x.md"]  # too short to tell apart: left out
    request = {"messages": [{"role": "system", "content": (
        "<custom_instruction>\nRoot rules here.\nSee @docs/x.md please\n\n<imported_custom_instruction "
        'source="/r/docs/x.md">\nImported words &amp;  more.\n</imported_custom_instruction>\n'
        "The last line of it.\n</custom_instruction>")}]}
    assert seen_files(CopilotCli(), [request], Path("/r"), "read", prints) == (
        Seen("AGENTS.md", "start"), Seen("docs/x.md", "start"))
    assert seen_files(CopilotCli(), [{"messages": [{"role": "system", "content": "Root rules here."}]}],
                      Path("/r"), "read", prints) == ()


def test_files_outside_the_copy_are_left_out() -> None:
    assert relative("/r/p/src/a.md", Path("/r/p")) == "src/a.md"
    assert relative("src/./b.md", Path("/r/p")) == "src/b.md"
    assert relative("/home/x/.claude/CLAUDE.md", Path("/r/p")) is None
    assert relative("../home/.qwen/output-language.md", Path("/r/p")) is None


def test_an_import_inlined_mid_line_still_finds_the_importing_file(tmp_path: Path) -> None:
    """Copilot CLI 1.0.102 puts the imported file right after the `@path` word, before the rest
    of its line (seen in a run's requests: `open @.ai/rules/index.md\n\n<imported…>\n first.`)."""
    (tmp_path / "CLAUDE.md").write_text("# Project\n\nThe rules: open @.ai/rules/index.md first.\n\nMore text.\n")
    prints = Fingerprints(tmp_path, ["CLAUDE.md"])
    request = {"messages": [{"role": "system", "content": (
        "<custom_instruction>\n# Project\n\nThe rules: open @.ai/rules/index.md\n\n<imported_custom_instruction "
        'source="/r/.ai/rules/index.md">\n# Index\n</imported_custom_instruction> first.\n\nMore text.\n'
        "</custom_instruction>")}]}
    assert seen_files(CopilotCli(), [request], Path("/r"), "read", prints) == (
        Seen(".ai/rules/index.md", "start"), Seen("CLAUDE.md", "start"))
