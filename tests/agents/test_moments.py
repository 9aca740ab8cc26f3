"""What the agents load per moment (read, edit, create) and below the root, as runs of Claude
Code 2.1.337 and Copilot CLI 1.0.102 against fake model servers showed (agents/formats)."""

from __future__ import annotations

from pathlib import Path

from rulelens.agents.formats.claude_code import not_text, read_refuses
from rulelens.agents.model import MOMENTS, Load
from rulelens.agents.project import AgentProject
from rulelens.agents.registry import AGENTS
from rulelens.rules.repository import RuleRepository

FILES = {
    "CLAUDE.md": "# Root\n",
    "pkg/api/.claude/rules/x.md": '---\npaths: "sub/**"\n---\n# Relative to pkg/api\n',
    "pkg/api/.claude/rules/all.md": "# Any file below pkg/api\n",
    "pkg/api/.claude/rules/rootrel.md": '---\npaths: "pkg/api/sub/**"\n---\n# Written from the root\n',
    ".claude/rules/mp3.md": '---\npaths: "**/*.mp3"\n---\n# Audio\n',
    ".claude/rules/src.md": '---\npaths: "src/**"\n---\n# Src\n',
    "src/CLAUDE.md": "# Src folder\n",
    "pkg/api/sub/a.ts": "x\n", "pkg/api/b.ts": "x\n", "src/a.ts": "x\n", "src/song.mp3": "ID3\n",
    "src/pic.png": "x\n", "other/c.ts": "x\n",
}


def _project(tmp_path: Path, files: dict[str, str | bytes]) -> AgentProject:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            (tmp_path / rel).write_bytes(text)
        else:
            (tmp_path / rel).write_text(text)
    return AgentProject(RuleRepository(tmp_path))


def _files(project: AgentProject, agent: str, path: str, on: str = "read") -> list[str]:
    view = project.view(path, on)  # type: ignore[arg-type]
    return [x.file for x in view.loads.get(agent, [])]


def test_claude_code_reads_nested_rules_relative_to_their_folder(tmp_path: Path) -> None:
    # Run: read pkg/api/sub/a.ts sends CLAUDE.md at start, then all.md and x.md; not rootrel.md.
    project = _project(tmp_path, dict(FILES))
    assert _files(project, "claude-code", "pkg/api/sub/a.ts") == [
        "CLAUDE.md", "pkg/api/.claude/rules/all.md", "pkg/api/.claude/rules/x.md"]
    assert _files(project, "claude-code", "pkg/api/b.ts") == ["CLAUDE.md", "pkg/api/.claude/rules/all.md"]
    assert _files(project, "claude-code", "other/c.ts") == ["CLAUDE.md"]
    loads = {x.file: x for x in project.view("pkg/api/sub/a.ts").loads["claude-code"]}
    assert loads["pkg/api/.claude/rules/all.md"].how == "directory"  # after the Read, not at start
    assert loads["pkg/api/.claude/rules/x.md"] == Load("pkg/api/.claude/rules/x.md", "glob", ("sub/**",),
                                                     loads["pkg/api/.claude/rules/x.md"].bytes)
    claude = project.agent("claude-code")
    assert claude is not None
    f = claude.file("pkg/api/.claude/rules/x.md")
    assert f is not None and claude.loads_for(f, project.ctx.paths) == {"pkg/api/sub/a.ts"}
    g = claude.file("pkg/api/.claude/rules/all.md")
    assert g is not None and claude.loads_for(g, project.ctx.paths) == {
        "pkg/api/sub/a.ts", "pkg/api/b.ts", *(p for p in project.ctx.paths if p.startswith("pkg/api/.claude/"))}


def test_claude_code_read_refuses_binary_files_and_create_does_not(tmp_path: Path) -> None:
    # Run: read src/song.mp3 is refused (only CLAUDE.md, at start); a Write of a new .mp3 sends
    # src/CLAUDE.md, mp3.md and src.md after the write; an Edit of it as text does too.
    project = _project(tmp_path, dict(FILES))
    assert _files(project, "claude-code", "src/song.mp3") == ["CLAUDE.md"]
    every = ["CLAUDE.md", "src/CLAUDE.md", ".claude/rules/mp3.md", ".claude/rules/src.md"]
    assert sorted(_files(project, "claude-code", "src/song.mp3", "create")) == sorted(every)
    assert sorted(_files(project, "claude-code", "src/song.mp3", "edit")) == sorted(every)
    assert "refuses `.mp3` files" in (project.view("src/song.mp3").moment_notes["claude-code"])
    # An image is Read's own: not refused (run: src/CLAUDE.md and src.md after the Read).
    assert _files(project, "claude-code", "src/pic.png") == ["CLAUDE.md", "src/CLAUDE.md", ".claude/rules/src.md"]
    assert "claude-code" not in project.view("src/a.ts").moment_notes


def test_claude_code_edit_refuses_a_file_that_is_not_text(tmp_path: Path) -> None:
    # Run: an Edit of a file with NUL bytes is refused ("File has NUL bytes in its first 8 KB").
    project = _project(tmp_path, {**FILES, "src/real.mp3": b"x\0\1\2binary", "src/bin.ts": b"x\0binary"})
    assert _files(project, "claude-code", "src/real.mp3", "edit") == ["CLAUDE.md"]
    assert _files(project, "claude-code", "src/bin.ts", "edit") == ["CLAUDE.md"]
    assert "src/CLAUDE.md" in _files(project, "claude-code", "src/bin.ts")  # Read does not sniff
    assert "Edit refuses" in project.view("src/bin.ts", "edit").moment_notes["claude-code"]


def test_read_refusal_is_by_extension_as_claude_code_tests_it() -> None:
    assert read_refuses("a/b.mp3") and read_refuses("a/B.MP3") and read_refuses("x.tar.gz")
    assert not read_refuses("a/b.png") and not read_refuses("doc.pdf") and not read_refuses("a/b.ts")
    assert read_refuses("a/.png")  # Node's extname of a dotfile is empty: not one Read shows itself
    assert not read_refuses("Makefile") and read_refuses("lib.a")
    assert not_text(b"\0") and not_text(b"\xfe\xffab") and not_text(b"\xff") and not_text(b"\xff\xfeabc")
    assert not not_text(b"plain\n") and not not_text(b"\xff\xfeab") and not not_text("é".encode())


def test_copilot_cli_loads_a_paths_files_on_view_only(tmp_path: Path) -> None:
    # Run: `create` and `edit` alone bring nothing beyond the start's files; `view` brings them.
    project = _project(tmp_path, {
        "AGENTS.md": "# Root\n", "pkg/AGENTS.md": "# Pkg\n", "pkg/CLAUDE.md": "# Pkg Claude\n",
        "pkg/.github/instructions/from-root.instructions.md": '---\napplyTo: "pkg/src/**"\n---\n# R\n',
        "pkg/.github/instructions/relative.instructions.md": '---\napplyTo: "src/**"\n---\n# Rel\n',
        "pkg/.claude/rules/from-root.md": '---\npaths: "pkg/src/**"\n---\n# Rule\n',
        "pkg/.claude/rules/deep/every.md": "# Every\n",
        "pkg/src/a.ts": "x\n",
    })
    read = _files(project, "copilot-cli", "pkg/src/a.ts")
    assert sorted(read) == sorted([
        "AGENTS.md", "pkg/AGENTS.md", "pkg/CLAUDE.md", "pkg/.github/instructions/from-root.instructions.md",
        "pkg/.claude/rules/from-root.md", "pkg/.claude/rules/deep/every.md"])
    for on in ("edit", "create"):
        assert _files(project, "copilot-cli", "pkg/src/a.ts", on) == ["AGENTS.md"]
        assert "when it views the file" in project.view("pkg/src/a.ts", on).moment_notes["copilot-cli"]
    how = {x.file: x.how for x in project.view("pkg/src/a.ts").loads["copilot-cli"]}
    assert how["pkg/AGENTS.md"] == "directory" and how["AGENTS.md"] == "always"


def test_agents_not_run_per_moment_give_one_answer(tmp_path: Path) -> None:
    project = _project(tmp_path, {**FILES, ".cursor/rules/a.mdc": '---\nglobs: "src/**"\n---\n# A\n'})
    for agent in project.present:
        if agent.per_moment:
            continue
        answers = {on: agent.view("src/song.mp3", on) for on in MOMENTS}
        assert answers["read"] == answers["edit"] == answers["create"], agent.id


def test_stamp_says_what_was_checked() -> None:
    by_id = {a.id: a for a in AGENTS}
    assert by_id["claude-code"].stamp("read") == "confirmed in Claude Code 2.1.337"
    assert by_id["copilot-cli"].stamp("read") == "confirmed in Copilot CLI 1.0.102"
    assert by_id["copilot-cli"].stamp("create") == "confirmed in Copilot CLI 1.0.102"
    assert by_id["amp"].stamp("edit") == "matcher confirmed in Amp 0.0.1790142911-g7618fb"
    assert by_id["cursor"].stamp("read") is None
    for agent in AGENTS:
        assert not agent.end_to_end or agent.confirmed_in, agent.id  # a run names its release


def test_cursor_reads_agents_md_and_the_legacy_cursorrules(tmp_path: Path) -> None:
    # From Cursor's docs (it cannot run here): the root's AGENTS.md and .cursorrules for every
    # file, a nested AGENTS.md for the files below its folder.
    project = _project(tmp_path, {"AGENTS.md": "# Root\n", "pkg/AGENTS.md": "# Pkg\n", ".cursorrules": "Be terse.\n",
                                  "pkg/a.ts": "x\n", "b.ts": "x\n"})
    how = {x.file: x.how for x in project.view("pkg/a.ts").loads["cursor"]}
    assert how == {".cursorrules": "always", "AGENTS.md": "always", "pkg/AGENTS.md": "directory"}
    assert _files(project, "cursor", "b.ts") == [".cursorrules", "AGENTS.md"]
    cursor = project.agent("cursor")
    assert cursor is not None and not cursor.per_moment and not cursor.end_to_end
    assert "cursor" in project.view("b.ts").probably  # its rule reading rests on third parties


def test_both_copilots_list_skills_for_the_model_to_pick(tmp_path: Path) -> None:
    skill = "---\nname: {0}\ndescription: The {0} skill\n---\n# {0}\n"
    project = _project(tmp_path, {
        **{f"{d}/{d.split('/')[0].strip('.')}-x/SKILL.md": skill.format(d.split("/")[0].strip("."))
           for d in (".github/skills", ".claude/skills", ".agents/skills")},
        "pkg/.github/skills/nested/SKILL.md": skill.format("nested"), "src/a.ts": "x\n"})
    view = project.view("src/a.ts")
    for agent in ("copilot", "copilot-cli"):
        assert sorted((m.file, m.how) for m in view.maybe[agent]) == [
            (".agents/skills/agents-x/SKILL.md", "agent-decides"), (".claude/skills/claude-x/SKILL.md", "agent-decides"),
            (".github/skills/github-x/SKILL.md", "agent-decides")], agent
        assert view.loads[agent] == []


def test_an_answer_not_checked_per_moment_says_so_off_read(tmp_path: Path) -> None:
    project = _project(tmp_path, {**FILES, ".cursor/rules/a.mdc": '---\nglobs: "src/**"\n---\n# A\n'})
    assert "cursor" not in project.view("src/a.ts").moment_notes  # read: the answer modelled
    note = project.view("src/a.ts", "create").moment_notes["cursor"]
    assert note == ("the same files as on read: Cursor's answer was not checked per moment "
                    "(modelled from its docs or source)")
    assert "claude-code" not in project.view("src/a.ts", "create").moment_notes  # run: nothing to say
