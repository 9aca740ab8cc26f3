"""`rulelens init [--mcp]`: the agent pointer in AGENTS.md / CLAUDE.md and the `.mcp.json` entry."""

from __future__ import annotations

import difflib
import json
import os
import shutil
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from rulelens.rules.model import RuleError
from rulelens.setup.init_project import BEGIN, END, init_project, section
from tests.mcp.mcp_support import RULES, run_cli, text_of, write

BOOST_BLOCK = "<laravel-boost-guidelines>\n# Boost\n\n- keep this\n</laravel-boost-guidelines>\n"


def _section_of(text: str) -> str:
    return text[text.index(BEGIN): text.index(END) + len(END)]


def test_refuses_without_rules_folder(tmp_path: Path) -> None:
    write(tmp_path, "AGENTS.md", "# Agents\n")
    with pytest.raises(RuleError, match=r"There is no \.ai/rules/ folder"):
        init_project(tmp_path, mcp=True)
    assert (tmp_path / "AGENTS.md").read_text() == "# Agents\n"
    assert not (tmp_path / ".mcp.json").exists()
    done = run_cli(tmp_path, "init")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "no .ai/rules/ folder" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["AGENTS.md"]


def test_creates_agents_md_and_leaves_missing_claude_md_alone(project: Path) -> None:
    assert init_project(project, mcp=False) == ["Created AGENTS.md with the project-rules section."]
    text = (project / "AGENTS.md").read_text()
    assert text == section(mcp=False)
    assert ".ai/rules/index.md" in text and "grep -rin" in text and "read those rule files" in text
    assert "rules-for-path" not in text
    assert not (project / "CLAUDE.md").exists()


def test_appends_to_existing_files_and_keeps_their_text(project: Path) -> None:
    write(project, "AGENTS.md", BOOST_BLOCK)
    write(project, "CLAUDE.md", "# Claude\n\nNo trailing newline")
    lines = init_project(project, mcp=False)
    assert lines == ["Added the project-rules section to AGENTS.md.",
                     "Added the project-rules section to CLAUDE.md."]
    assert (project / "AGENTS.md").read_text() == BOOST_BLOCK + "\n" + section(False)
    assert (project / "CLAUDE.md").read_text() == (
        "# Claude\n\nNo trailing newline\n\n" + section(False))


def test_replaces_an_existing_section_in_place_and_is_idempotent(project: Path) -> None:
    old = f"# Top\n\n{BEGIN}\nold pointer text\n{END}\n\n## After\nkept\n"
    write(project, "AGENTS.md", old)
    assert init_project(project, mcp=False) == ["Updated the project-rules section in AGENTS.md."]
    text = (project / "AGENTS.md").read_text()
    assert text == "# Top\n\n" + section(False) + "\n## After\nkept\n"
    stat = (project / "AGENTS.md").stat()
    assert init_project(project, mcp=False) == ["AGENTS.md is up to date."]
    assert (project / "AGENTS.md").read_text() == text
    assert (project / "AGENTS.md").stat().st_mtime_ns == stat.st_mtime_ns  # not even rewritten


def test_crlf_files_stay_crlf(project: Path) -> None:
    (project / "AGENTS.md").write_bytes(b"# Agents\r\n\r\nHello\r\n")
    (project / "CLAUDE.md").write_bytes(
        f"\ufeff# Claude\r\n\r\n{BEGIN}\r\nstale\r\n{END}\r\nafter\r\n".encode())
    init_project(project, mcp=False)
    agents = (project / "AGENTS.md").read_bytes()
    claude = (project / "CLAUDE.md").read_bytes()
    for data in (agents, claude):
        assert data.count(b"\n") == data.count(b"\r\n") > 5
    assert agents == b"# Agents\r\n\r\nHello\r\n\r\n" + section(False, "\r\n").encode()
    assert claude.startswith(b"\xef\xbb\xbf# Claude\r\n\r\n" + BEGIN.encode())
    assert claude.endswith(END.encode() + b"\r\nafter\r\n")
    assert init_project(project, mcp=False) == ["AGENTS.md is up to date.",
                                                "CLAUDE.md is up to date."]


def test_names_mcp_tools_only_where_a_client_starts_the_server(project: Path) -> None:
    write(project, ".mcp.json", '{"mcpServers": {}}\n')
    init_project(project, mcp=False)
    assert "rules-for-path" not in (project / "AGENTS.md").read_text()  # no client starts it
    assert json.loads((project / ".mcp.json").read_text()) == {"mcpServers": {}}
    write(project, ".codex/config.toml", '[mcp_servers.rulelens]\ncommand = "rulelens"\nargs = ["mcp"]\n')
    init_project(project, mcp=False)
    text = (project / "AGENTS.md").read_text()
    for tool in ("rules-for-path", "search-rules", "record-rule"):
        assert f"`{tool}`" in text


CODEX = '# mine\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "other"'


def test_mcp_registers_where_the_projects_other_clients_look(project: Path) -> None:
    write(project, ".codex/config.toml", CODEX)
    write(project, ".cursor/mcp.json", '{\n    "mcpServers": {}\n}')
    (project / ".vscode").mkdir()
    lines = init_project(project, mcp=True)
    assert lines[:4] == [
        "Added the rulelens server in .mcp.json (command: rulelens mcp).",
        "Added the rulelens server in .cursor/mcp.json (command: rulelens mcp).",
        "VS Code reads MCP servers from .vscode/mcp.json, which this project does not have; not "
        "registered there (docs/mcp.md).",
        "Added the rulelens server in .codex/config.toml (command: rulelens mcp)."]
    assert (project / ".codex/config.toml").read_text() == (
        CODEX + '\n\n[mcp_servers.rulelens]\ncommand = "rulelens"\nargs = ["mcp"]\n')
    assert (project / ".cursor/mcp.json").read_text() == (
        '{\n    "mcpServers": {\n        "rulelens": {\n            "command": "rulelens",\n'
        '            "args": [\n                "mcp"\n            ]\n        }\n    }\n}')
    assert not (project / ".vscode/mcp.json").exists()
    again = init_project(project, mcp=True)
    assert ".codex/config.toml already has the rulelens server." in again
    assert ".cursor/mcp.json already has the rulelens server." in again


def test_a_toml_table_that_cannot_be_extended_is_said_not_broken(project: Path) -> None:
    inline = 'mcp_servers = { other = { command = "other" } }\n'
    write(project, ".codex/config.toml", inline)
    lines = init_project(project, mcp=True)
    assert any(line.startswith(".codex/config.toml: Codex CLI's servers are written in a way") for line in lines)
    assert (project / ".codex/config.toml").read_text() == inline


def test_mcp_flag_switches_the_section_and_registers_the_server(project: Path) -> None:
    init_project(project, mcp=False)
    assert "rules-for-path" not in (project / "AGENTS.md").read_text()
    lines = init_project(project, mcp=True)
    assert lines == ["Added the rulelens server in .mcp.json (command: rulelens mcp).",
                     "Updated the project-rules section in AGENTS.md."]
    assert _section_of((project / "AGENTS.md").read_text()) == _section_of(section(True))
    assert json.loads((project / ".mcp.json").read_text()) == {
        "mcpServers": {"rulelens": {"command": "rulelens", "args": ["mcp"]}}}
    assert init_project(project, mcp=True) == [".mcp.json already has the rulelens server.",
                                               "AGENTS.md is up to date."]


def test_mcp_json_keeps_other_servers_and_keys(project: Path) -> None:
    write(project, ".mcp.json", json.dumps({
        "mcpServers": {
            "laravel-boost": {"command": "php", "args": ["artisan", "boost:mcp"]},
            "rulelens": {"type": "http", "url": "http://old", "env": {"A": "1"}},
        },
        "other": [1, 2],
    }, indent=4) + "\n")
    assert init_project(project, mcp=True)[0] == (
        "Updated the rulelens server in .mcp.json (command: rulelens mcp).")
    assert json.loads((project / ".mcp.json").read_text()) == {
        "mcpServers": {
            "laravel-boost": {"command": "php", "args": ["artisan", "boost:mcp"]},
            "rulelens": {"type": "stdio", "command": "rulelens", "args": ["mcp"],
                         "env": {"A": "1"}},
        },
        "other": [1, 2],
    }


def test_mcp_json_as_boost_wrote_it_gains_only_the_entry(project: Path) -> None:
    """Four spaces, no final newline: the diff is the entry's six lines."""
    boost = json.dumps({"mcpServers": {"laravel-boost": {"command": "php", "args": ["artisan", "boost:mcp"]}}},
                       indent=4)
    write(project, ".mcp.json", boost)
    init_project(project, mcp=True)
    after = (project / ".mcp.json").read_text()
    assert not after.endswith("\n")
    diff = list(difflib.unified_diff(boost.splitlines(), after.splitlines(), lineterm="", n=0))[2:]
    assert diff == ["@@ -8,0 +9,6 @@", "+        },", '+        "rulelens": {',
                    '+            "command": "rulelens",', '+            "args": [', '+                "mcp"',
                    "+            ]"]


def test_invalid_mcp_json_is_refused_and_left_alone(project: Path) -> None:
    write(project, ".mcp.json", '{"mcpServers": {,}\n')
    with pytest.raises(RuleError, match=r"\.mcp\.json is not valid JSON \(line 1, column 17"):
        init_project(project, mcp=True)
    assert (project / ".mcp.json").read_text() == '{"mcpServers": {,}\n'
    assert not (project / "AGENTS.md").exists()


@pytest.mark.parametrize("text", [f"{BEGIN}\nno end\n", f"{END}\n{BEGIN}\n",
                                  f"{BEGIN}\n{END}\n{BEGIN}\n{END}\n"])
def test_broken_markers_are_refused(project: Path, text: str) -> None:
    write(project, "AGENTS.md", text)
    with pytest.raises(RuleError, match="markers"):
        init_project(project, mcp=False)
    assert (project / "AGENTS.md").read_text() == text


def test_claude_md_linked_to_agents_md_is_written_once_and_stays_a_link(project: Path) -> None:
    write(project, "AGENTS.md", "# Agents\n")
    os.symlink("AGENTS.md", project / "CLAUDE.md")
    lines = init_project(project, mcp=False)
    assert lines == ["Added the project-rules section to AGENTS.md.",
                     "CLAUDE.md is a link to a file already updated."]
    assert (project / "CLAUDE.md").is_symlink()
    assert (project / "AGENTS.md").read_text().count(BEGIN) == 1


def test_a_link_out_of_the_root_is_not_written_through(project: Path, tmp_path: Path) -> None:
    outside = write(tmp_path, "elsewhere/AGENTS.md", "# Outside\n")
    os.symlink(outside, project / "AGENTS.md")
    with pytest.raises(RuleError, match="outside the project"):
        init_project(project, mcp=False)
    assert outside.read_text() == "# Outside\n"


def test_cli_init_prints_the_lines(project: Path) -> None:
    done = run_cli(project, "init", "--mcp")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Added the rulelens server in .mcp.json (command: rulelens mcp).",
        "Created AGENTS.md with the project-rules section."]
    assert list(project.rglob("*rulelens-tmp*")) == []  # atomic writes leave no temp files


async def test_the_registered_entry_starts_a_working_server(project: Path) -> None:
    """What `init --mcp` writes is what Claude Code runs: the command, in the project folder."""
    init_project(project, mcp=True)
    entry = json.loads((project / ".mcp.json").read_text())["mcpServers"]["rulelens"]
    if shutil.which(entry["command"]) is None:
        if os.environ.get("CI"):
            pytest.fail("the rulelens command is not on PATH")
        pytest.skip("the rulelens command is not on PATH (install the package)")
    params = StdioServerParameters(command=entry["command"], args=entry["args"],
                                   env=dict(os.environ), cwd=str(project))
    async with Client(params, read_timeout_seconds=60) as client:
        result = await client.call_tool("rules-for-path", {"path": "routes/web.php"})
    assert text_of(result).startswith("# .ai/rules/routes.md\n")
    assert (project / RULES).is_dir()
