"""The tools of `rulelens mcp`, over stdio, through the `mcp` package's real client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.mcp_support import RULES, rulelens_client, run_cli, server_params, text_of, tree, write

EMPTY = "A rule needs a non-empty glob, title, and note. Missing or empty: {}."


async def test_lists_the_tools_with_string_schemas(project: Path) -> None:
    async with rulelens_client(project) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == {"record-rule", "rules-for-path", "search-rules", "check-rules"}
    assert tools["check-rules"].input_schema["required"] == []
    assert "Only record what the user asked you to record" in (tools["record-rule"].description
                                                                or "")
    for name, fields in (("record-rule", ["glob", "title", "note"]),
                         ("rules-for-path", ["path"]), ("search-rules", ["query"])):
        schema = tools[name].input_schema
        assert schema["required"] == fields
        assert all(schema["properties"][f]["type"] == "string" for f in fields)


async def test_record_then_read_back(project: Path) -> None:
    async with rulelens_client(project) as client:
        recorded = await client.call_tool("record-rule", {
            "glob": "app/Http/Controllers/**", "title": "Thin controllers",
            "note": "Validate with Form Requests.\nDelegate to actions."})
        read = await client.call_tool("rules-for-path",
                                      {"path": "app/Http/Controllers/UserController.php"})
    assert not recorded.is_error
    assert text_of(recorded) == "Recorded rule in .ai/rules/controllers.md: Thin controllers."
    assert (project / RULES / "controllers.md").read_text() == (
        "---\npaths:\n  - 'app/Http/Controllers/**'\n---\n\n# Controllers\n\n"
        "## Thin controllers\nValidate with Form Requests.\nDelegate to actions.\n")
    assert "| app/Http/Controllers/** | .ai/rules/controllers.md |" in (
        project / RULES / "index.md").read_text()
    assert not read.is_error
    assert text_of(read) == (
        "# .ai/rules/controllers.md\n\n"
        "## Thin controllers\nValidate with Form Requests.\nDelegate to actions.\n")


async def test_record_writes_the_same_bytes_as_the_cli(project: Path, tmp_path: Path) -> None:
    twin = tmp_path / "twin"
    write(twin, "README.md", "x\n")
    (twin / RULES).mkdir(parents=True)
    for rel, data in tree(project).items():
        write(twin, f"{RULES}/{rel}", data.decode())
    calls = [("app/Models/User.php", "Fillable", "List `$fillable`.\n# not a title"),
             ("/routes/*.php", "Route files", "One file per area."),
             ("resources/js/**/*.vue", "Script setup", "Use `<script setup lang=\"ts\">`.")]
    async with rulelens_client(project) as client:
        for glob, title, note in calls:
            result = await client.call_tool("record-rule",
                                            {"glob": glob, "title": title, "note": note})
            assert not result.is_error, text_of(result)
    for glob, title, note in calls:
        done = run_cli(twin, "record", "--glob", glob, "--title", title, "--note", note)
        assert done.returncode == 0, done.stderr
    assert tree(project) == tree(twin)


@pytest.mark.parametrize(("arguments", "missing"), [
    ({"glob": "", "title": "T", "note": "N"}, "glob"),
    ({"glob": "app/**", "title": "  ", "note": "N"}, "title"),
    ({"glob": "app/**", "title": "T", "note": "\n\t"}, "note"),
    ({"glob": " ", "title": "", "note": ""}, "glob, title, note"),
    ({"title": "T"}, "glob, note"),
    ({"glob": None, "title": "T", "note": "N"}, "glob"),
])
async def test_empty_fields_give_boosts_message(project: Path, arguments: dict[str, object],
                                               missing: str) -> None:
    before = tree(project)
    async with rulelens_client(project) as client:
        result = await client.call_tool("record-rule", arguments)
    assert result.is_error
    assert text_of(result) == EMPTY.format(missing)
    assert tree(project) == before


@pytest.mark.parametrize(("tool", "arguments", "message"), [
    ("record-rule", {"glob": 3, "title": "T", "note": "N"},
     "record-rule: `glob` must be a string, not a number."),
    ("record-rule", {"glob": "app/**", "title": ["T"], "note": "N"},
     "record-rule: `title` must be a string, not an array."),
    ("record-rule", {"glob": "app/**", "title": "T", "note": {"text": "N"}},
     "record-rule: `note` must be a string, not an object."),
    ("rules-for-path", {"path": True}, "rules-for-path: `path` must be a string, not a boolean."),
    ("search-rules", {"query": 1.5}, "search-rules: `query` must be a string, not a number."),
    ("rules-for-path", {"paths": "app/x.php"},
     "rules-for-path takes only path, on; unknown argument(s): paths."),
    ("rules-for-path", {"path": "app/x.php", "on": "write"},
     "rules-for-path: `on` is read, edit or create, not 'write'."),
    ("rules-for-path", {"path": ""}, "rules-for-path needs a non-empty path."),
    ("rules-for-path", {"path": "app/.."},
     "rules-for-path needs a file path, not the project root itself."),
    ("search-rules", {"query": "  "}, "search-rules needs a non-empty query."),
    ("record-rule", {"glob": "../outside/**", "title": "T", "note": "N"},
     "The glob ../outside/** has a `..` segment and can never match a project file."),
])
async def test_bad_arguments_are_one_line_tool_errors(project: Path, tool: str,
                                                      arguments: dict[str, object],
                                                      message: str) -> None:
    before = tree(project)
    async with rulelens_client(project) as client:
        result = await client.call_tool(tool, arguments)
    assert result.is_error
    assert text_of(result) == message
    assert tree(project) == before


async def test_json_looking_strings_stay_strings(project: Path) -> None:
    # The SDK would JSON-decode these for a non-`str` parameter; they must arrive as text.
    async with rulelens_client(project) as client:
        result = await client.call_tool("record-rule", {
            "glob": "config/**", "title": "null", "note": '["a", "b"]'})
    assert text_of(result) == "Recorded rule in .ai/rules/config.md: null."
    assert (project / RULES / "config.md").read_text().endswith('## null\n["a", "b"]\n')


@pytest.mark.parametrize("path", ["../elsewhere/file.php", "app/../../x.php", "/etc/passwd"])
async def test_paths_outside_the_root_are_refused(project: Path, path: str) -> None:
    async with rulelens_client(project) as client:
        result = await client.call_tool("rules-for-path", {"path": path})
    assert result.is_error
    assert text_of(result) == (f"The path {path} is outside the project root {project.resolve()}; "
                               "give a path inside the project.")


async def test_rules_for_path_gives_only_the_applying_entries(project: Path) -> None:
    async with rulelens_client(project) as client:
        by_rel = await client.call_tool("rules-for-path", {"path": "app/Models/User.php"})
        by_abs = await client.call_tool("rules-for-path",
                                        {"path": str(project / "app/Models/Invoice.php")})
        routes = await client.call_tool("rules-for-path", {"path": "routes/web.php"})
        none = await client.call_tool("rules-for-path", {"path": "README.md"})
    models = ("# .ai/rules/models.md\n\nModels hold data, not workflows.\n\n"
              "## Keep models thin\nBusiness logic goes in app/Actions.\n\n"
              "## Casts\nUse `casts()` instead of `$casts`.\n")
    assert text_of(by_rel) == models
    assert text_of(by_abs) == models  # the file need not exist yet
    assert text_of(routes) == "# .ai/rules/routes.md\n\n## Name every route\nEvery route gets a `->name()`.\n"
    assert not none.is_error
    assert text_of(none) == "No project rules apply to README.md."


async def test_rules_for_path_lists_every_applying_file_in_index_order(project: Path) -> None:
    write(project, f"{RULES}/php.md", "---\npaths:\n  - '**/*.php'\n---\n\n# Php\n\n"
                                      "## Strict types\nDeclare strict types.\n")
    async with rulelens_client(project) as client:
        result = await client.call_tool("rules-for-path", {"path": "app/Models/User.php"})
    text = text_of(result)
    assert text.index("# .ai/rules/models.md") < text.index("# .ai/rules/php.md")
    assert "Declare strict types." in text and "Keep models thin" in text
    assert "Name every route" not in text and "Tenant" not in text


async def test_changes_on_disk_are_seen_without_restart(project: Path) -> None:
    async with rulelens_client(project) as client:
        before = await client.call_tool("rules-for-path", {"path": "config/app.php"})
        write(project, f"{RULES}/config.md", "---\npaths:\n  - config/**\n---\n\n# Config\n\n"
                                             "## Env only in config\nCall env() only here.\n")
        after = await client.call_tool("rules-for-path", {"path": "config/app.php"})
        found = await client.call_tool("search-rules", {"query": "env()"})
    assert text_of(before) == "No project rules apply to config/app.php."
    assert "## Env only in config\nCall env() only here." in text_of(after)
    assert text_of(found).startswith(".ai/rules/config.md:8\n")


async def test_search_finds_titles_and_notes_case_insensitively_with_lines(project: Path) -> None:
    async with rulelens_client(project) as client:
        by_note = await client.call_tool("search-rules", {"query": "INVOICE"})
        by_title = await client.call_tool("search-rules", {"query": "thin"})
        both = await client.call_tool("search-rules", {"query": "e"})
        none = await client.call_tool("search-rules", {"query": "kubernetes"})
    # The glossary has no paths: only search finds it.
    assert text_of(by_note) == (".ai/rules/glossary.md:3\n## Tenant\n"
                                "A billing account; every Invoice belongs to one.\n")
    assert text_of(by_title) == (".ai/rules/models.md:10\n## Keep models thin\n"
                                 "Business logic goes in app/Actions.\n")
    for hit in text_of(both).strip().split("\n\n"):
        location, heading = hit.split("\n")[:2]
        rel, line = location.rsplit(":", 1)
        assert (project / rel).read_text().splitlines()[int(line) - 1] == heading
    assert not none.is_error
    assert text_of(none) == "No rule entries contain 'kubernetes'."


def _exchange(command: list[str], requests: list[dict[str, Any]], **popen: Any,
              ) -> tuple[list[dict[str, Any]], str]:
    """Send JSON-RPC lines one at a time, waiting for each reply; every stdout line must parse."""
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **popen)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    seen: list[dict[str, Any]] = []
    try:
        for request in requests:
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
            while "id" in request:
                line = proc.stdout.readline()
                assert line, "the server closed stdout early"
                seen.append(json.loads(line))  # a non-JSON line fails here
                if seen[-1].get("id") == request["id"]:
                    break
        proc.stdin.close()
        rest = proc.stdout.read()
        seen.extend(json.loads(line) for line in rest.splitlines() if line.strip())
        proc.wait(timeout=30)
        return seen, proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


INITIALIZE = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
]


def test_stdout_carries_only_protocol_messages(project: Path) -> None:
    """Raw JSON-RPC lines in; every line that comes out must be a JSON-RPC message."""
    params = server_params(project)
    calls = [
        ("record-rule", {"glob": "", "title": "", "note": ""}),
        ("rules-for-path", {"path": 42}),
        ("record-rule", {"glob": "app/**", "title": "T", "note": "N"}),
        ("no-such-tool", {}),
    ]
    requests = INITIALIZE + [
        {"jsonrpc": "2.0", "id": n, "method": "tools/call",
         "params": {"name": name, "arguments": arguments}}
        for n, (name, arguments) in enumerate(calls, start=2)]
    messages, stderr = _exchange([params.command, *params.args], requests, env=params.env,
                                 cwd=params.cwd)
    assert all(m.get("jsonrpc") == "2.0" for m in messages)
    by_id = {m["id"]: m for m in messages if "id" in m}
    assert set(by_id) == {1, 2, 3, 4, 5}
    assert by_id[2]["result"]["isError"] is True
    assert by_id[3]["result"]["isError"] is True
    assert by_id[4]["result"]["content"][0]["text"] == "Recorded rule in .ai/rules/app.md: T."
    assert "Traceback" not in stderr


def test_cli_dispatches_mcp_with_the_root_found_from_cwd(project: Path) -> None:
    """`rulelens mcp` without --root serves the project the current directory is in."""
    requests = [*INITIALIZE, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "rules-for-path", "arguments": {"path": "app/Models/User.php"}}}]
    messages, _ = _exchange([sys.executable, "-m", "rulelens", "mcp"], requests,
                            cwd=project / "app/Models")
    reply = next(m for m in messages if m.get("id") == 2)
    assert reply["result"]["content"][0]["text"].startswith("# .ai/rules/models.md\n")


async def test_a_filesystem_error_is_a_one_line_tool_error(tmp_path: Path) -> None:
    (tmp_path / ".ai").write_text("a file where the .ai folder should be\n")
    async with rulelens_client(tmp_path) as client:
        result = await client.call_tool("record-rule",
                                        {"glob": "app/**", "title": "T", "note": "N"})
        still_serving = await client.call_tool("rules-for-path", {"path": "app/x.php"})
    assert result.is_error
    assert text_of(result) == "Not a directory (.ai/rules)."
    assert text_of(still_serving) == "No project rules apply to app/x.php."


async def test_a_rules_path_that_is_a_file_is_a_clear_tool_error(tmp_path: Path) -> None:
    write(tmp_path, RULES, "a file where the rules folder should be\n")
    async with rulelens_client(tmp_path) as client:
        result = await client.call_tool("record-rule",
                                        {"glob": "app/**", "title": "T", "note": "N"})
    assert result.is_error
    assert text_of(result) == ".ai/rules exists but is not a folder."


async def test_rules_for_path_says_when_agents_will_not_find_a_file(project: Path) -> None:
    write(project, f"{RULES}/late.md", "---\npaths:\n  - 'late/**'\n---\n\n# Late\n\n## Late entry\nnote\n")
    async with rulelens_client(project) as client:
        read = await client.call_tool("rules-for-path", {"path": "late/x.php"})
    assert "not in index.md; agents that read the index will not find it" in text_of(read)


async def test_record_rule_outside_any_project_writes_nothing(tmp_path: Path) -> None:
    from mcp import Client, StdioServerParameters

    lonely = tmp_path / "home"
    lonely.mkdir()
    params = StdioServerParameters(command=sys.executable, args=["-m", "rulelens", "mcp"],
                                   env=dict(os.environ), cwd=str(lonely))
    async with Client(params, read_timeout_seconds=60) as client:
        recorded = await client.call_tool("record-rule", {"glob": "app/**", "title": "t", "note": "n"})
        read = await client.call_tool("rules-for-path", {"path": "app/x.php"})
    assert recorded.is_error and "open a project or pass --root" in text_of(recorded)
    assert not read.is_error
    assert list(lonely.iterdir()) == []


async def test_check_rules_reports_what_the_cli_check_reports(project: Path) -> None:
    """MCP and the command line ask the core's one check_project() and say the same."""
    write(project, f"{RULES}/gone.md", "---\npaths:\n  - 'app/Gone/**'\n---\n\n# Gone\n\n## Old\nx\n")
    async with rulelens_client(project) as client:
        checked = await client.call_tool("check-rules", {})
        refused = await client.call_tool("check-rules", {"path": "x"})
    cli = run_cli(project, "check")
    assert not checked.is_error
    assert "[glob-matches-nothing]" in text_of(checked)
    assert "[index-stale]" in text_of(checked)
    assert text_of(checked).strip() == cli.stdout.strip()
    assert refused.is_error


async def test_rules_for_path_names_a_rule_file_it_could_not_read(project: Path) -> None:
    (project / RULES / "models.md").write_bytes(b"---\npaths:\n  - 'app/Models/**'\n---\n\0")
    async with rulelens_client(project) as client:
        read = await client.call_tool("rules-for-path", {"path": "app/Models/User.php"})
        recorded = await client.call_tool("record-rule", {"glob": "app/Models/**", "title": "T", "note": "N"})
    assert text_of(read) == ("No project rules apply to app/Models/User.php.\n\nNote: .ai/rules/models.md "
                             "could not be read (it looks binary); any rules it holds for this path are "
                             "not shown.")
    assert recorded.is_error and "models.md could not be read" in text_of(recorded)


async def test_rules_for_path_answers_a_moment_for_every_agent(project: Path) -> None:
    """With `on`, the answer adds what each agent loads at that moment: Claude Code's Read refuses
    an `.mp3` (only its start's files), its Write of one loads the rule that names it."""
    write(project, "CLAUDE.md", "# Project\n")
    write(project, ".claude/rules/audio.md", '---\npaths: "public/**/*.mp3"\n---\n# Audio\n')
    write(project, "public/ping.mp3", "ID3\n")
    async with rulelens_client(project) as client:
        plain = await client.call_tool("rules-for-path", {"path": "public/ping.mp3"})
        read = await client.call_tool("rules-for-path", {"path": "public/ping.mp3", "on": "read"})
        create = await client.call_tool("rules-for-path", {"path": "public/ping.mp3", "on": "create"})
        schema = {t.name: t for t in (await client.list_tools()).tools}["rules-for-path"].input_schema
    assert schema["required"] == ["path"] and "on" in schema["properties"]
    assert "What each agent loads" not in text_of(plain)  # without `on`, Boost's rules alone
    read_text, create_text = text_of(read), text_of(create)
    assert "What each agent loads for public/ping.mp3 on read:" in read_text
    assert "What each agent loads for public/ping.mp3 on create:" in create_text
    claude_read = read_text[read_text.index("  Claude Code: "):].split("\n\n")[0]
    claude_create = create_text[create_text.index("  Claude Code: "):].split("\n\n")[0]
    assert "audio.md" not in claude_read and "refuses `.mp3` files" in claude_read
    assert ".claude/rules/audio.md" in claude_create
