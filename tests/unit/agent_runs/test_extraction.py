"""The files a recorded request carries: named by the agent's wrapper, or found by their text."""

from __future__ import annotations

from pathlib import Path

from rulelens.agent_runs.extraction import Fingerprints, pieces, relative, seen_files, squash
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
    # A lent copy's prints, read once, without the path a run asks about (it is never "sent").
    assert prints.within("Imported words & more.") == ["docs/x.md"]
    assert prints.without(tmp_path, ["docs/x.md"]).within("Imported words & more.") == []
    assert sorted(prints.pieces) == ["AGENTS.md", "docs/x.md"]


def test_files_outside_the_copy_are_left_out() -> None:
    assert relative("/r/p/src/a.md", Path("/r/p")) == "src/a.md"
    assert relative("src/./b.md", Path("/r/p")) == "src/b.md"
    assert relative("/home/x/.claude/CLAUDE.md", Path("/r/p")) is None
    assert relative("../home/.qwen/output-language.md", Path("/r/p")) is None


def test_a_copy_of_a_root_file_elsewhere_is_not_taken_for_it(tmp_path: Path) -> None:
    """A generator's source (.rulesync/rules/CLAUDE.md) holds the text of the CLAUDE.md it
    writes; Copilot CLI sends the root's file unnamed, never the source."""
    text = "# Project\n\nEvery rule of the project, long enough to tell.\n"
    (tmp_path / ".rulesync/rules").mkdir(parents=True)
    (tmp_path / ".rulesync/rules/CLAUDE.md").write_text("---\nroot: true\n---\n" + text)
    (tmp_path / "CLAUDE.md").write_text(text)
    prints = Fingerprints(tmp_path, ["CLAUDE.md", ".rulesync/rules/CLAUDE.md"], keep=CopilotCli().unnamed)
    request = {"messages": [{"role": "system", "content": f"<custom_instruction>\n{text}</custom_instruction>"}]}
    assert seen_files(CopilotCli(), [request], tmp_path, "read", prints) == (Seen("CLAUDE.md", "start"),)


def test_files_below_a_linked_folder_are_candidates_by_the_path_through_the_link(tmp_path: Path) -> None:
    (tmp_path / "documentation/skills").mkdir(parents=True)
    (tmp_path / "documentation/skills/a.instructions.md").write_text("Instructions long enough to tell apart.\n")
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github/instructions").symlink_to("../documentation/skills")
    prints = Fingerprints(tmp_path, [".github/instructions", "documentation/skills/a.instructions.md"],
                          keep=CopilotCli().unnamed)
    assert sorted(prints.pieces) == [".github/instructions/a.instructions.md"]


def test_a_file_whose_text_a_named_block_holds_is_not_found_by_its_text(tmp_path: Path) -> None:
    """Copilot CLI imports .claude/memories/x.md, named; .github/instructions/x.instructions.md
    holds the same text and was not sent."""
    text = "# Journal\n\nThe journal's domain rules, long enough to tell.\n"
    (tmp_path / ".github/instructions").mkdir(parents=True)
    (tmp_path / ".github/instructions/x.instructions.md").write_text("---\napplyTo: src/**\n---\n" + text)
    prints = Fingerprints(tmp_path, [".github/instructions/x.instructions.md"], keep=CopilotCli().unnamed)
    request = {"messages": [{"role": "system", "content": (
        f'<custom_instruction>\nSee @x.md\n\n<imported_custom_instruction source="{tmp_path}/.claude/memories/x.md">\n'
        f"{text}</imported_custom_instruction>\n</custom_instruction>")}]}
    assert seen_files(CopilotCli(), [request], tmp_path, "read", prints) == (Seen(".claude/memories/x.md", "start"),)


def test_a_file_of_an_import_line_alone_is_found_by_it(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("@AGENTS.md\n")
    (tmp_path / "AGENTS.md").write_text("# Agents\n\nGuidance for every agent, long enough.\n")
    prints = Fingerprints(tmp_path, ["CLAUDE.md", "AGENTS.md"], keep=CopilotCli().unnamed)
    request = {"messages": [{"role": "system", "content": (
        f'<custom_instruction>\n@AGENTS.md\n\n<imported_custom_instruction source="{tmp_path}/AGENTS.md">\n'
        "# Agents\n\nGuidance for every agent, long enough.\n</imported_custom_instruction>\n</custom_instruction>")}]}
    assert seen_files(CopilotCli(), [request], tmp_path, "read", prints) == (
        Seen("AGENTS.md", "start"), Seen("CLAUDE.md", "start"))


def test_a_byte_order_mark_the_agent_drops_does_not_hide_a_file(tmp_path: Path) -> None:
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github/copilot-instructions.md").write_text("\ufeff<!-- note -->\r\n# C#\r\n\r\nUse C# 13.\r\n")
    prints = Fingerprints(tmp_path, [".github/copilot-instructions.md"], keep=CopilotCli().unnamed)
    request = {"messages": [{"role": "system", "content": "<custom_instruction>\n<!-- note -->\r\n# C#\r\n\r\nUse C# 13.\r\n</custom_instruction>"}]}
    assert seen_files(CopilotCli(), [request], tmp_path, "read", prints) == (Seen(".github/copilot-instructions.md", "start"),)


def test_a_skipped_import_is_neither_a_file_nor_a_block(tmp_path: Path) -> None:
    """AGENTS.md importing itself: Copilot CLI writes a tag alone where the import stood."""
    text = "# Agents\n\n2. Update @AGENTS.md with high-level reference\n3. Keep the rest long enough.\n"
    (tmp_path / "AGENTS.md").write_text(text)
    prints = Fingerprints(tmp_path, ["AGENTS.md"], keep=CopilotCli().unnamed)
    sent = text.replace("@AGENTS.md", f'@AGENTS.md\n\n<imported_custom_instruction source="{tmp_path}/AGENTS.md" '
                                      'skipped="already-loaded" />')
    request = {"messages": [{"role": "system", "content": f"<custom_instruction>\n{sent}</custom_instruction>"}]}
    assert seen_files(CopilotCli(), [request], tmp_path, "read", prints) == (Seen("AGENTS.md", "start"),)


def test_a_long_file_cut_by_the_agent_is_found_by_its_head(tmp_path: Path) -> None:
    from rulelens.agent_runs.launchers.codex import Codex

    text = "".join(f"Rule number {i} of a very long AGENTS.md.\n" for i in range(2000))
    (tmp_path / "AGENTS.md").write_text(text)
    (tmp_path / ".ruler").mkdir()
    (tmp_path / ".ruler/AGENTS.md").write_text(text)
    prints = Fingerprints(tmp_path, ["AGENTS.md", ".ruler/AGENTS.md"], keep=Codex().unnamed)
    request = {"input": [{"content": [{"text": "# AGENTS.md instructions for /r\n<INSTRUCTIONS>" + text[:32768]}]}]}
    assert seen_files(Codex(), [request], tmp_path, "read", prints) == (Seen("AGENTS.md", "start"),)


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


def test_text_inside_the_read_file_is_not_a_file_the_agent_sent(tmp_path: Path) -> None:
    """The read tool's result holds the read file: a file whose text is inside it (the license
    header every `.go` file starts with, Azure/karpenter-provider-azure's `hack/boilerplate.go.txt`)
    is not an instruction file that reached the model."""
    header = "Copyright The Authors. Licensed under the Apache License, Version 2.0."
    (tmp_path / "hack").mkdir()
    (tmp_path / "hack/boilerplate.go.txt").write_text(header + "\n")
    (tmp_path / "a.go").write_text(f"/*\n{header}\n*/\n\npackage a\n")
    (tmp_path / "GEMINI.md").write_text("Root rules for the whole project.\n")
    prints = Fingerprints(tmp_path, ["hack/boilerplate.go.txt", "a.go", "GEMINI.md"], leave_out=["a.go"])
    result = f"Root rules for the whole project.\n\n/*\n{header}\n*/\n\npackage a\n"
    assert prints.within(squash(result)) == ["GEMINI.md"]


def test_a_copy_of_a_named_file_is_not_found_by_its_text(tmp_path: Path) -> None:
    """Qwen Code and Gemini CLI name each file they send; a rulesync copy of `AGENTS.md`
    (arittr/chopstack's `.rulesync/rules/CLAUDE.md`) holds the same text and is no file sent."""
    from rulelens.agent_runs.launchers.qwen_code import QwenCode

    text = "# Agents\n\nShared guidance for every agent in this project.\n"
    (tmp_path / "AGENTS.md").write_text(text)
    (tmp_path / ".rulesync/rules").mkdir(parents=True)
    (tmp_path / ".rulesync/rules/CLAUDE.md").write_text(text)
    prints = Fingerprints(tmp_path, ["AGENTS.md", ".rulesync/rules/CLAUDE.md"])
    request = {"messages": [{"role": "system", "content": (
        f"Intro.\n--- Context from: AGENTS.md ---\n{text}--- End of Context from: AGENTS.md ---\nDone.")}]}
    assert seen_files(QwenCode(), [request], tmp_path, "read", prints) == (Seen("AGENTS.md", "start"),)
