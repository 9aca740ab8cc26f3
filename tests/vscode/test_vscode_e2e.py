"""rulelens in real VS Code: code-server with the VSIX installed, driven in headless Chromium.

The main test opens a copy of examples/ and a model, checks what a person sees (status bar
count, code lens, Problems panel, hover), records a rule through the palette command's quick
pick and input boxes and another through the "Record a project rule" source action, then checks
the rule file, the index and the updated diagnostic. Screenshots go to test-output/vscode/.
Another switches the diagnostic off in the folder's settings and checks that the status bar
still counts (from rulelens/rulesForPath) and that its tooltip gives an unseen rule's reason;
its screenshot goes to the test's tmp dir (the path is printed). The multi-root test holds
different settings per folder. With nothing installed but the system's Python, the server inside
the VSIX answers (bundled.png); without a Python 3.10+, one message says what to install; an
installed server of another version serves, with a warning in the output channel.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from rulelens.agents.registry import AGENTS
from tests.vscode.conftest import OUTPUT, REPO, Tools
from tests.vscode.workbench import code_server, run_browser

SOURCE = "app/Models/Invoice.php"
RULE_FILE = ".ai/rules/models.md"
ENTRY = "Money is stored as integer cents"
GLOB = "app/Models/Invoice.php"
TITLE = "Invoices are numbered per year"
NOTE = "Use InvoiceNumber::next() so that numbers restart every January."
ACTION_GLOB = "app/Models/*.php"
ACTION_TITLE = "Models declare their casts"
ACTION_NOTE = "Put every cast in the casts() method, never in $casts."


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    shutil.copytree(REPO / "examples", folder)
    return folder


@pytest.fixture(autouse=True)
def _fresh_output() -> None:
    OUTPUT.mkdir(parents=True, exist_ok=True)


def test_rules_show_and_record_in_vscode(tools: Tools, workspace: Path, tmp_path: Path) -> None:
    for old in OUTPUT.glob("*.png"):
        old.unlink()
    # The server is found on PATH (discovery step 2): this interpreter's `rulelens` first.
    path = os.pathsep.join([str(Path(sys.executable).parent), str(tools.node.parent),
                            os.environ.get("PATH", "")])
    with code_server(tools, tmp_path, workspace, path) as editor:
        result = run_browser(tools, tmp_path, {
            "scenario": "record",
            "url": editor["url"],
            "folder": str(workspace),
            "sourceFile": SOURCE,
            "countBefore": 2,
            "countAfter": 3,
            "countAfterAction": 4,
            "lensBefore": "Rules: Models",
            "showEntry": "Dates are immutable",
            "entryBefore": ENTRY,
            "stateFile": str(editor["state"]),
            "record": {"glob": GLOB, "title": TITLE, "note": NOTE, "ruleFile": RULE_FILE},
            "action": {"glob": ACTION_GLOB, "title": ACTION_TITLE, "note": ACTION_NOTE},
        })
        state = json.loads(Path(editor["state"]).read_text())

    # Before recording: what the rendered workbench showed.
    assert result["statusBefore"] == "2 rules"
    # examples/ has an AGENTS.md, which every agent that reads AGENTS.md loads too (Claude Code
    # where there is no CLAUDE.md, Cursor by its docs, Codex started at the project root, as
    # rulelens answers for it): VS Code renders both lenses in one row.
    assert " ".join(result["lensBefore"].split()) == (
        "Rules: Models (2 entries) | Also loaded by: Claude Code (1), Copilot in VS Code (1), Copilot CLI (1), "
        "Cursor (1), Kiro (1), Codex (1), Qwen Code (1), Google Antigravity (1), OpenHands (1), Amp (1)")
    assert "2 project rules from 1 rule file apply to this file" in result["problemsBefore"]
    assert ENTRY in result["hoverBefore"]
    assert "Dates are immutable" in result["hoverBefore"]
    # The glob choices are the server's suggestions (rulelens/suggestGlobs), in its order.
    choices = [c for c in result["globChoices"] if not c.startswith("Another glob")]
    assert [c.split(" Matches ")[0] for c in choices] == [
        GLOB, "app/Models/**", "app/Models/*.php"], result["globChoices"]
    assert choices[0].endswith("Matches 1 file of the project"), choices

    # The palette command wrote the entry and the glob (Boost's bytes) and rebuilt the index;
    # the source action (prompted through the client's middleware) did the same after it.
    rule_text = (workspace / RULE_FILE).read_text(encoding="utf-8")
    assert f"\n\n## {TITLE}\n{NOTE}\n\n## {ACTION_TITLE}\n{ACTION_NOTE}\n" in rule_text
    assert rule_text.endswith(f"## {ACTION_TITLE}\n{ACTION_NOTE}\n")
    assert f"  - {GLOB}\n" in rule_text
    assert f"  - '{ACTION_GLOB}'\n" in rule_text
    index = (workspace / ".ai/rules/index.md").read_text(encoding="utf-8")
    assert f"| app/Models/**, {GLOB}, {ACTION_GLOB} | {RULE_FILE} |" in index

    # After recording: the diagnostic, the hover and the status bar follow.
    assert result["statusAfter"] == "3 rules"
    assert "3 project rules from 1 rule file apply to this file" in result["problemsAfter"]
    assert TITLE in result["hoverAfter"]
    assert result["statusAfterAction"] == "4 rules"

    # Show Rules (from the status bar) lists the rule file and its entries; one opens at its
    # heading. Regenerate Index writes the same index back.
    titles = [ENTRY, "Dates are immutable", TITLE, ACTION_TITLE]
    listed = [t for item in result["showRulesItems"] for t in titles if item.startswith(t)]
    assert listed == titles, result["showRulesItems"]
    assert any("Models" in item for item in result["showRulesItems"])  # the rule file's own row
    dates_line = rule_text.splitlines().index("## Dates are immutable") + 1
    assert result["showRulesCursor"].startswith(f"Ln {dates_line},")
    assert result["indexAfter"] == result["indexBefore"] == index

    # The extension's own view of it, through the test-only command.
    assert state["activeFile"] == str(workspace / SOURCE)
    assert state["statusBar"]["text"] == "$(book) 4 rules"
    rules = [d for d in state["diagnostics"] if d["code"] == "rules-apply"]
    assert len(rules) == 1 and rules[0]["source"] == "rulelens"
    assert rules[0]["severity"] == "Information"
    answer = state["rulesForPath"]
    assert answer["path"] == SOURCE and answer["kind"] == "source"
    assert answer["root"] == str(workspace) and answer["rulesFolder"] == ".ai/rules"
    assert [e["title"] for r in answer["rules"] for e in r["entries"]] == [
        ENTRY, "Dates are immutable", TITLE, ACTION_TITLE]
    assert [r["agentsSee"] for r in answer["rules"]] == [True]
    assert Path(result["screenshot"]).is_file()


LEGACY = """---
paths:
  - **/*.php
---

# Legacy PHP

## Declare strict types
Start every PHP file with declare(strict_types=1).
"""


def test_status_bar_counts_with_severity_off_and_tells_unseen_rules(
        tools: Tools, workspace: Path, tmp_path: Path) -> None:
    # The folder switches the diagnostic off (a resource-scoped setting of the folder itself),
    # and holds a rule file agents never see: `- **/*.php` unquoted is invalid YAML, so the
    # committed index has no row for it.
    (workspace / ".vscode").mkdir()
    (workspace / ".vscode" / "settings.json").write_text(json.dumps({"rulelens.severity": "off"}))
    (workspace / ".ai" / "rules" / "legacy.md").write_text(LEGACY)
    path = os.pathsep.join([str(Path(sys.executable).parent), str(tools.node.parent),
                            os.environ.get("PATH", "")])
    with code_server(tools, tmp_path, workspace, path) as editor:
        result = run_browser(tools, tmp_path, {
            "scenario": "severityOff",
            "url": editor["url"],
            "folder": str(workspace),
            "sourceFile": SOURCE,
            "count": 3,
            "tooltipMustContain": "Agents do not see it",
            "stateFile": str(editor["state"]),
            "tmpDir": str(tmp_path),
        })
    print(f"screenshot of the status bar with severity off: {result['screenshot']}")
    assert Path(result["screenshot"]).is_file()

    # Counted (2 entries of models.md, 1 of legacy.md) with no rules diagnostic at all.
    assert result["status"] == "3 rules"
    state = result["state"]
    assert state["statusBar"]["text"] == "$(book) 3 rules"
    assert not [d for d in state["diagnostics"] if d["source"] == "rulelens"], state["diagnostics"]

    # The tooltip, as rendered: each rule file, and under the unseen one the server's reason.
    rules = {r["file"]: r for r in state["rulesForPath"]["rules"]}
    assert set(rules) == {".ai/rules/legacy.md", ".ai/rules/models.md"}
    assert rules[".ai/rules/models.md"]["agentsSee"] is True
    legacy = rules[".ai/rules/legacy.md"]
    assert legacy["agentsSee"] is False and legacy["agentsMissBecause"]
    tooltip = " ".join(result["tooltip"].split())
    assert "Models (.ai/rules/models.md) through app/Models/**: 2 entries" in tooltip
    assert "Legacy PHP (.ai/rules/legacy.md) through **/*.php: 1 entry" in tooltip
    assert f"Agents do not see it: {' '.join(legacy['agentsMissBecause'].split())}" in tooltip
    assert tooltip.count("Agents do not see it") == 1
    # Show Rules gives the same reason on the unseen file's row, and only there.
    unseen = [i for i in result["showRulesItems"] if "Agents do not see it" in i]
    assert len(unseen) == 1 and "Legacy PHP" in unseen[0], result["showRulesItems"]


AGENTS_FIXTURE = REPO / "tests" / "agents" / "fixtures" / "all_agents"


# The agents that load a file for the all-agents fixture's src/api/users.ts, in the registry's
# order (Firebender's rule there is for *.tsx only: the model may pick it, nothing loads).
OTHER_AGENTS = ("Claude Code", "Copilot in VS Code", "Copilot CLI", "Cursor", "Devin Desktop", "Kiro", "Continue",
                "Cline", "Codex", "Gemini CLI", "Qwen Code", "Google Antigravity", "OpenHands", "Amp")


def test_other_agents_in_hover_lens_and_tooltip(tools: Tools, tmp_path: Path) -> None:
    """Every agent's files in one project: on a source file no Boost rule covers, the hover has
    the "In other agents" section (screenshot: test-output/vscode/agents-hover.png), the code
    lens and the status bar tooltip name the agents that load files for it."""
    workspace = Path(shutil.copytree(AGENTS_FIXTURE, tmp_path / "shop"))
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)  # Codex's chain starts at `.git`
    path = os.pathsep.join([str(Path(sys.executable).parent), str(tools.node.parent),
                            os.environ.get("PATH", "")])
    with code_server(tools, tmp_path, workspace, path) as editor:
        result = run_browser(tools, tmp_path, {
            "scenario": "agents",
            "url": editor["url"],
            "folder": str(workspace),
            "sourceFile": "src/api/users.ts",
            "count": 0,
            "stateFile": str(editor["state"]),
        })
    print(f"screenshot of the hover: {result['hoverScreenshot']}")
    assert Path(result["hoverScreenshot"]).is_file()
    names = list(OTHER_AGENTS)
    assert result["lens"].startswith("Also loaded by: ")
    assert all(n in result["lens"] for n in names), result["lens"]
    hover = result["hover"]
    section = hover[hover.index("In other agents"):]
    print(f"hover, In other agents:\n{section}")
    assert all(n in section for n in names), section
    assert ".claude/rules/api.md by src/api/**" in " ".join(section.split())
    assert "documented behaviour not confirmed" in section
    tooltip = " ".join(result["tooltip"].split())
    print(f"status bar tooltip: {tooltip}")
    assert f"Also loaded by: {', '.join(names)}" in tooltip
    # Claude Code and the Copilot CLI are modelled from their released code: no "probably".
    assert "Claude Code (confirmed in Claude Code 2.1.337): CLAUDE.md (always)" in tooltip
    answer = result["state"]["rulesForPath"]
    # The Copilot surfaces differ: VS Code attaches the file the CLI leaves out by `excludeAgent`
    # (the tooltip shortens VS Code's list, which now holds AGENTS.md and CLAUDE.md too).
    loaded = {a["id"]: [load["file"] for load in a["loads"]] for a in answer["agents"]}
    assert any(f.endswith("review.instructions.md") for f in loaded["copilot"]), loaded["copilot"]
    assert not any(f.endswith("review.instructions.md") for f in loaded["copilot-cli"]), loaded["copilot-cli"]
    # rulesForPath lists every agent with files in the project, Firebender's rule as a maybe.
    assert [a["id"] for a in answer["agents"]] == [a.id for a in AGENTS if a.id != "boost"]


UNINDEXED_API = "---\npaths:\n  - 'src/api/**'\n---\n\n# API rules\n\n## Validate every request\nUse zod.\n"
UNQUOTED_TS = "---\npaths:\n  - **/*.ts\n---\n\n# Legacy TS\n\n## No default exports\nName them.\n"


def test_project_rules_view_in_the_all_agents_project(tools: Tools, tmp_path: Path) -> None:
    """The Project Rules view (screenshot: test-output/vscode/rules-view.png) on a file that every
    agent loads something for, with a Boost rule file the index misses: it lists each agent's
    files, always-loaded ones apart, with bytes against Codex's cap; an entry opens at its line;
    the inline fixes regenerate the index and quote the globs Boost's YAML cannot read, and the
    view follows the server's rulesChanged."""
    workspace = Path(shutil.copytree(AGENTS_FIXTURE, tmp_path / "shop"))
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)  # Codex's chain starts at `.git`
    (workspace / ".ai/rules/api.md").write_text(UNINDEXED_API)
    (workspace / ".ai/rules/legacy.md").write_text(UNQUOTED_TS)
    path = os.pathsep.join([str(Path(sys.executable).parent), str(tools.node.parent),
                            os.environ.get("PATH", "")])
    with code_server(tools, tmp_path, workspace, path) as editor:
        result = run_browser(tools, tmp_path, {
            "scenario": "rulesView",
            "folderName": workspace.name,
            "url": editor["url"],
            "folder": str(workspace),
            "sourceFile": "src/api/users.ts",
            "unseen": "API rules",
            "quoted": "Legacy TS",
            "entry": "Validate input",
            "entryFile": ".claude/rules/api.md",
            "entryLine": 8,
            "stateFile": str(editor["state"]),
        })
    print(f"screenshot of the view: {result['screenshot']}")
    assert Path(result["screenshot"]).is_file()
    rows = result["rowsBefore"]  # what is drawn (label and description run together)
    assert any(r.startswith("API rules") and "not seen by agents" in r for r in rows), rows
    assert any(r.startswith("Claude Code") and "cap 200 lines per file" in r for r in rows), rows
    assert "Always loaded3 files" in rows and "Validate input" in rows, rows
    # `## Validate input` is line 8 of .claude/rules/api.md.
    assert result["entryCursor"].startswith("Ln 8,"), result["entryCursor"]
    assert any(r.startswith("Legacy TS") and "not seen by agents" in r for r in rows), rows
    assert not any(r.startswith("API rules") and "not seen" in r for r in result["rowsAfter"]), result["rowsAfter"]
    index = (workspace / ".ai/rules/index.md").read_text()
    assert "| src/api/** | .ai/rules/api.md |" in index and "| **/*.ts | .ai/rules/legacy.md |" in index
    assert "  - '**/*.ts'\n" in (workspace / ".ai/rules/legacy.md").read_text()
    assert {"Record a Rule for This File", "Refresh"} <= set(result["titleActions"]), result["titleActions"]
    view = result["state"]["rulesView"]
    assert view["empty"] is None
    names = [n["label"] for n in view["nodes"]]
    assert names == ["Boost", *OTHER_AGENTS], names
    claude = view["nodes"][1]
    assert [g["label"] for g in claude["children"]] == ["Always loaded", "For this path"]
    codex = view["nodes"][names.index("Codex")]
    assert codex["description"].endswith(" of 32,768 bytes"), codex
    assert [f["label"] for f in codex["children"][0]["children"]] == ["AGENTS.md"]  # the root's: always


SYSTEM_PATH = ("/usr/bin", "/bin")


def test_the_vsix_carries_the_bundle_and_no_compiled_file(tools: Tools) -> None:
    with zipfile.ZipFile(tools.vsix) as vsix:
        names = vsix.namelist()
    assert "extension/bundled/tool/rulelens_server.py" in names
    assert "extension/bundled/libs/rulelens/lsp/server.py" in names
    assert "extension/bundled/libs/pygls/__init__.py" in names
    assert not [n for n in names if re.search(r"\.(so|pyd|dylib|dll)$", n) or "__pycache__" in n], names
    assert not [n for n in names if n.startswith("extension/bundled/libs/mcp")]


def test_the_docs_give_the_vsix_its_path_and_size(tools: Tools) -> None:
    """docs/vscode.md's install lines name the file the build writes, and its size is this one's."""
    docs = (REPO / "docs" / "vscode.md").read_text(encoding="utf-8")
    assert tools.vsix == REPO / "vscode-extension" / "dist" / "rulelens.vsix"
    assert "cd vscode-extension && npm ci && npm run package" in docs
    assert "code --install-extension dist/rulelens.vsix" in docs  # from vscode-extension/, after the build
    said = re.search(r"The VSIX is about ([\d.]+) MB \(about ([\d,]+) files", docs)
    assert said is not None
    with zipfile.ZipFile(tools.vsix) as vsix:
        files = len(vsix.namelist())
    assert abs(float(said.group(1)) - tools.vsix.stat().st_size / 1e6) < 0.2  # "about": within 0.2 MB
    assert abs(int(said.group(2).replace(",", "")) - files) < 100, files


def test_bundled_server_runs_with_only_the_system_python(tools: Tools, workspace: Path,
                                                         tmp_path: Path) -> None:
    # Nothing installed: no rulelens on PATH, no server setting, and python3 is the system's
    # (Debian's), which cannot import rulelens. Only the server inside the VSIX can answer.
    path = os.pathsep.join([str(tools.node.parent), *SYSTEM_PATH])
    if shutil.which("rulelens", path=path):
        pytest.fail(f"rulelens is on the system PATH {path}; this test needs it absent")
    python = shutil.which("python3", path=path)
    if python is None:
        pytest.fail(f"no python3 on {path}: this test needs the system's Python 3.10+")
    probe = subprocess.run([python, "-c", "import sys; print(sys.version_info >= (3, 10))\nimport rulelens"],
                           capture_output=True, text=True, check=False)
    assert probe.stdout.strip() == "True", f"{python} is older than 3.10: {probe.stdout}{probe.stderr}"
    assert "No module named 'rulelens'" in probe.stderr, f"{python} can import rulelens"
    result = _run_bundled_scenario(tools, tmp_path, workspace, path,
                                   "Using the rulelens server bundled with the extension")
    print(f"screenshot of the bundled server at work: {result['screenshot']}")
    assert "version" in result["outputLine"] and "on Python" in result["outputLine"]
    assert result["status"] == "2 rules"
    assert "2 project rules from 1 rule file apply to this file" in result["problems"]
    assert ENTRY in result["hover"] and "Dates are immutable" in result["hover"]
    # The output channel says which server runs: the bundled one, with its version and Python.
    log = _output_channel(tmp_path)
    version = _rulelens_version()
    assert (f"Using the rulelens server bundled with the extension, version {version}, on Python "
            f"{platform_version(python)} ({python})") in log, log
    starts = [line for line in log.splitlines() if "Starting the rulelens server" in line]
    assert len(starts) == 1 and starts[0].endswith(
        f"(bundled): {python} -I {tmp_path}/extensions/rulelens.rulelens-{version}"
        "/bundled/tool/rulelens_server.py serve"), starts


def test_an_installed_server_of_another_version_is_used_and_the_mismatch_logged(
        tools: Tools, workspace: Path, tmp_path: Path) -> None:
    # A `rulelens` on PATH that reports version 0.0.9: the real server, with its version changed
    # before the language server module reads it.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    older = bin_dir / "rulelens"
    older.write_text(f"""#!/bin/sh
exec {sys.executable} -c "import sys, rulelens; rulelens.__version__ = '0.0.9'; from rulelens.cli.app import main; sys.exit(main())" "$@"
""")
    older.chmod(0o755)
    path = os.pathsep.join([str(bin_dir), str(tools.node.parent), *SYSTEM_PATH])
    result = _run_bundled_scenario(tools, tmp_path, workspace, path, "Using rulelens 0.0.9",
                                   shot_name="version-mismatch")
    assert result["status"] == "2 rules"  # not fatal: the older server serves
    log = _output_channel(tmp_path)
    version = _rulelens_version()
    assert (f"[warning] Using rulelens 0.0.9 (on PATH: {older}), but this extension is version "
            f"{version}") in log, log
    assert "bundled with the extension, version" not in log


def _run_bundled_scenario(tools: Tools, tmp_path: Path, workspace: Path, path: str,
                          output_line: str, shot_name: str | None = None) -> dict[str, Any]:
    """Open the example's source file in code-server with `path` as PATH and no server setting;
    the browser script waits for the output channel's `output_line`, the count and the hover."""
    config: dict[str, Any] = {"scenario": "bundled", "sourceFile": SOURCE, "count": 2, "entry": ENTRY,
                              "folder": str(workspace), "outputLine": output_line}
    if shot_name:
        config["shotName"] = shot_name
    with code_server(tools, tmp_path, workspace, path) as editor:
        return run_browser(tools, tmp_path, {**config, "url": editor["url"]})


def _rulelens_version() -> str:
    return subprocess.run([sys.executable, "-m", "rulelens", "--version"], capture_output=True,
                          text=True, check=True).stdout.split()[-1]


def platform_version(python: str) -> str:
    return subprocess.run([python, "-c", "import platform; print(platform.python_version())"],
                          capture_output=True, text=True, check=True).stdout.strip()


def _output_channel(tmp_path: Path) -> str:
    """The rulelens output channel, as VS Code wrote it to the window's log folder."""
    logs = sorted((tmp_path / "user-data" / "logs").rglob("rulelens*.log"))
    assert logs, f"no rulelens output channel log under {tmp_path / 'user-data' / 'logs'}"
    return "\n".join(p.read_text(encoding="utf-8") for p in logs)


OLD_PYTHON = """#!/bin/sh
# Stands in for an interpreter older than rulelens supports: it answers the extension's version
# probe (python3 -c '...print(sys.version_info[:3])') as Python 3.9 does, and runs nothing else.
echo 3.9.18
"""


@pytest.mark.parametrize("python", ["none", "too old"])
def test_without_python_3_10_one_message_names_what_to_install(
        tools: Tools, workspace: Path, tmp_path: Path, python: str) -> None:
    # PATH has Node (for code-server) and a folder with no Python, or one that is too old.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    if python == "too old":
        (bin_dir / "python3").write_text(OLD_PYTHON)
        (bin_dir / "python3").chmod(0o755)
    path = os.pathsep.join([str(tools.node.parent), str(bin_dir)])
    for name in ("rulelens", "python"):
        assert shutil.which(name, path=path) is None, f"{name} is on {path}"
    with code_server(tools, tmp_path, workspace, path) as editor:
        result = run_browser(tools, tmp_path, {
            "scenario": "notFound",
            "url": editor["url"],
            "folder": str(workspace),
            "sourceFile": SOURCE,
            "expect": "needs Python 3.10 or newer",
        })
    assert len(result["notifications"]) == 1, result["notifications"]
    message = result["notifications"][0]
    assert "rulelens needs Python 3.10 or newer to run its language server" in message
    if python == "none":
        assert "found no Python (tried python3 and python)" in message
    else:
        assert f"found only Python 3.9.18 ({bin_dir / 'python3'})" in message
    assert "Install Python from python.org or your package manager" in message
    assert '"rulelens.server.python"' in message
    assert "Download Python" in message and "Open Settings" in message  # the buttons
    assert "pip install" not in message
    assert result["statusBar"] == "rulelens"  # not a count: there is no server to ask


def test_untrusted_workspace_is_read_only(tools: Tools, workspace: Path, tmp_path: Path) -> None:
    # The workspace asks for a server that would fail; Restricted Mode must ignore it.
    (workspace / ".vscode").mkdir()
    (workspace / ".vscode" / "settings.json").write_text(
        json.dumps({"rulelens.server.command": ["/bin/false"]}))
    before = {p: p.read_bytes() for p in (workspace / ".ai" / "rules").iterdir()}
    path = os.pathsep.join([str(Path(sys.executable).parent), str(tools.node.parent),
                            os.environ.get("PATH", "")])
    with code_server(tools, tmp_path, workspace, path, trust=True) as editor:
        result = run_browser(tools, tmp_path, {
            "scenario": "untrusted",
            "url": editor["url"],
            "folder": str(workspace),
            "sourceFile": SOURCE,
            "countBefore": 2,
            "entryBefore": ENTRY,
        })
    assert result["statusBefore"] == "2 rules"
    assert "Restricted Mode" in result["restricted"]
    # Showing works; writing is not offered: no palette command, no record source action.
    assert "rulelens: Show Rules for Current File" in result["paletteCommands"]
    assert not any("Record Rule" in c for c in result["paletteCommands"]), result["paletteCommands"]
    assert not any("Regenerate Index" in c for c in result["paletteCommands"])
    assert not any("Record a project rule" in a for a in result["sourceActions"])
    assert {p: p.read_bytes() for p in (workspace / ".ai" / "rules").iterdir()} == before


SECOND_MODELS = """---
paths:
  - 'app/Models/**'
---

# Models

## Things are soft-deleted
Use the SoftDeletes trait on every model of this package.
"""


def test_multi_root_workspace_records_in_the_right_folder(tools: Tools, workspace: Path,
                                                          tmp_path: Path) -> None:
    second = tmp_path / "second"
    (second / ".ai" / "rules").mkdir(parents=True)
    (second / ".ai" / "rules" / "models.md").write_text(SECOND_MODELS)
    (second / "app" / "Models").mkdir(parents=True)
    (second / "app" / "Models" / "Thing.php").write_text("<?php\n\nclass Thing {}\n")
    # Settings per folder: the second folder switches the diagnostic off, the first does not.
    (second / ".vscode").mkdir()
    (second / ".vscode" / "settings.json").write_text(json.dumps({"rulelens.severity": "off"}))
    first_before = {p: p.read_bytes() for p in (workspace / ".ai" / "rules").iterdir()}
    workspace_file = tmp_path / "both.code-workspace"
    plain = tmp_path / "plain"  # a third folder that uses no rules
    (plain / "notes").mkdir(parents=True)
    (plain / "notes" / "todo.txt").write_text("nothing here\n")
    workspace_file.write_text(json.dumps({"folders": [{"path": str(workspace)},
                                                      {"path": str(second)},
                                                      {"path": str(plain)}]}))
    path = os.pathsep.join([str(Path(sys.executable).parent), str(tools.node.parent),
                            os.environ.get("PATH", "")])
    glob = "app/Models/Thing.php"
    with code_server(tools, tmp_path, workspace, path) as editor:
        result = run_browser(tools, tmp_path, {
            "scenario": "multiRoot",
            "url": editor["url"],
            "folder": str(workspace),
            "workspaceFile": str(workspace_file),
            "sourceFile": "app/Models/Thing.php",
            "second": {"countBefore": 1, "countAfter": 2, "glob": glob, "title": "Things have UUIDs",
                       "note": "Use HasUuids.", "ruleFile": ".ai/rules/models.md"},
            "first": {"sourceFile": SOURCE, "count": 2, "entry": ENTRY},
            "plain": {"sourceFile": "notes/todo.txt"},
            "stateFile": str(editor["state"]),
        })
    assert result["statusSecond"] == "1 rule"
    # The second folder's severity "off" holds there (no diagnostic, still a count); the first
    # folder's file still gets its diagnostic (problemsText in the script waited for it).
    assert not [d for d in result["stateSecond"]["diagnostics"] if d["source"] == "rulelens"]
    assert result["stateSecond"]["rulesForPath"]["root"] == str(second)
    # No rules folder, no status bar item (not "0 rules" in every project).
    assert result["statePlain"]["activeFile"] == str(plain / "notes" / "todo.txt")
    assert result["statePlain"]["statusBar"]["visible"] is False
    assert result["stateSecond"]["statusBar"]["visible"] is True
    assert result["statusSecondAfter"] == "2 rules"
    assert result["statusFirst"] == "2 rules"
    text = (second / ".ai" / "rules" / "models.md").read_text()
    assert text.endswith("\n\n## Things have UUIDs\nUse HasUuids.\n")
    assert f"| app/Models/**, {glob} | .ai/rules/models.md |" in (
        second / ".ai" / "rules" / "index.md").read_text()
    assert {p: p.read_bytes() for p in (workspace / ".ai" / "rules").iterdir()} == first_before
