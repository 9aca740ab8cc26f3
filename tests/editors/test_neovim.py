"""Neovim, headless, with the shipped `neovim/` plugin folder.

The ways in: 0.11's `vim.lsp.enable('rulelens')` with the shipped `lsp/rulelens.lua`,
`require('rulelens').setup()` on 0.11 (and its `vim.lsp.start` path), and `setup()` on
Debian's Neovim 0.7 (which has neither `vim.lsp.enable` nor `vim.lsp.start`, so the plugin
uses `vim.lsp.start_client`); each also with the unmodified nvim-lspconfig v1.4.0 and v2.11.0
from ../shared/editors (skipped without it), including the legacy `lspconfig.configs` path.
Each session runs the steps of `nvim_driver.lua` and the tests check what it saw.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rulelens.agents.registry import AGENTS
from tests.editors.conftest import (
    ENTRY_NOTE,
    ENTRY_TITLE,
    HERE,
    MODELS,
    NOTHING_GLOBS,
    PLUGIN,
    SHARED_EDITORS,
    USER_PHP,
    Project,
    make_project,
    run_editor,
)

CORE = "source,hover,utf8,record_action"
SETUP = "source,hover,utf8,empty_filetype,rules,health,record_action,record_command"
# only vim.lsp.enable('rulelens'): the commands come from plugin/rulelens.lua
ENABLE = "health_idle,source,hover,utf8,rules,health,record_action,record_command"
FOLDER = "root,health"
LSPCONFIG_1 = SHARED_EDITORS / "nvim-lspconfig-v1.4.0"
LSPCONFIG_2 = SHARED_EDITORS / "nvim-lspconfig-v2.11.0"
RULES_FOLDER = "config/rules"


@dataclass(frozen=True)
class Spec:
    """One headless session: which nvim, how the plugin starts, the driver's steps, the
    position encoding offered (empty: the client's own) and the one it must end up with."""
    which: str
    mode: str
    steps: str
    expected_encoding: str
    encoding: str = ""
    lspconfig: Path | None = None
    rules_folder: bool = False  # the project keeps its rules in RULES_FOLDER, git one level up
    quiet: bool = False  # severity 'off': no rules diagnostic
    late_rule: bool = False  # a rule file written after the index: agents miss it
    own_cmd: bool = False  # `cmd` is the absolute path of the server command
    agents: bool = False  # the all-agents project (tests/agents/fixtures/all_agents)
    verify: bool = False  # the pinned Claude Code named to :RulelensVerify (skips without it)


SESSIONS = {
    "0.11-enable": Spec("nvim", "enable", ENABLE, "utf-8", own_cmd=True),
    "0.11-enable-utf16": Spec("nvim", "enable", "utf8", "utf-16", encoding="utf-16"),
    "0.11-setup": Spec("nvim", "setup", SETUP, "utf-8"),
    # the vim.lsp.start path that Neovim 0.8-0.10 take (no 0.8-0.10 build is packaged here)
    "0.11-setup-start": Spec("nvim", "setup:start", SETUP, "utf-8"),
    "0.7-setup": Spec("nvim07", "setup", SETUP, "utf-16"),  # 0.7 speaks only UTF-16
    # nvim-lspconfig: 2.x with vim.lsp.enable and with setup() on 0.11; the legacy
    # `lspconfig.configs` path (what 0.8-0.10 take) with v1.4.0 and v2.11.0; and 0.7, where
    # neither release loads and setup() starts the server itself
    "0.11-enable-lspconfig2": Spec("nvim", "enable", CORE, "utf-8", lspconfig=LSPCONFIG_2),
    "0.11-setup-lspconfig2": Spec("nvim", "setup", SETUP, "utf-8", lspconfig=LSPCONFIG_2),
    "0.11-enable-lspconfig1": Spec("nvim", "enable", CORE, "utf-8", lspconfig=LSPCONFIG_1),
    "0.11-setup-lspconfig1": Spec("nvim", "setup", SETUP, "utf-8", lspconfig=LSPCONFIG_1),
    "0.11-legacy-lspconfig1": Spec("nvim", "setup:lspconfig", SETUP, "utf-8",
                                   lspconfig=LSPCONFIG_1),
    "0.11-legacy-lspconfig2": Spec("nvim", "setup:lspconfig", SETUP, "utf-8",
                                   lspconfig=LSPCONFIG_2),
    "0.7-setup-lspconfig1": Spec("nvim07", "setup", SETUP, "utf-16", lspconfig=LSPCONFIG_1),
    # a custom rulesFolder: the root markers follow it
    "0.11-enable-folder": Spec("nvim", "enable", FOLDER, "utf-8", rules_folder=True),
    "0.11-setup-folder": Spec("nvim", "setup", FOLDER, "utf-8", rules_folder=True),
    "0.7-setup-folder": Spec("nvim07", "setup", FOLDER, "utf-16", rules_folder=True),
    # the diagnostic switched off: :RulelensRules still lists the rules
    "0.11-enable-quiet": Spec("nvim", "enable", "rules_quiet", "utf-8", quiet=True),
    "0.7-setup-quiet": Spec("nvim07", "setup", "rules_quiet", "utf-16", quiet=True),
    # a rule file agents miss: :RulelensRules says so, with the server's reason
    "0.11-enable-missed": Spec("nvim", "enable", "rules_missed", "utf-8", late_rule=True),
    "0.7-setup-missed": Spec("nvim07", "setup", "rules_missed", "utf-16", late_rule=True),
    # every agent's files: the hover's "In other agents" section, and :RulelensRules
    "0.11-enable-agents": Spec("nvim", "enable", "agents_hover", "utf-8", agents=True),
    "0.7-setup-agents": Spec("nvim07", "setup", "agents_hover", "utf-16", agents=True),
    # :RulelensVerify with the pinned Claude Code: the quickfix list of predicted beside sent
    "0.11-enable-verify": Spec("nvim", "enable", "verify", "utf-8", verify=True),
}
AGENTS_FIXTURE = HERE.parent / "agents" / "fixtures" / "all_agents"

LATE = """\
---
paths:
  - 'app/Models/*.php'
---

# Late

## Written after the index
Agents that read the index do not find this file until `rulelens index` runs.
"""


class Session:
    def __init__(self, project: Project, result: dict[str, Any], spec: Spec,
                 cmd: str) -> None:
        self.project = project
        self.result = result
        self.spec = spec
        self.encoding = spec.expected_encoding
        self.cmd = cmd


def folder_project(base: Path) -> Project:
    """Rules in RULES_FOLDER of `outer/proj`, the git work tree at `outer`: only markers that
    follow the rules folder find `proj`."""
    outer = base / "outer"
    root = outer / "proj"
    for rel, text in {f"{RULES_FOLDER}/models.md": MODELS,
                      "app/Models/User.php": USER_PHP}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(outer)], check=True)
    return Project(root)


def nvim_session(request: pytest.FixtureRequest, base: Path, spec: Spec) -> Session:
    if spec.lspconfig is not None and not spec.lspconfig.is_dir():
        pytest.skip(f"{spec.lspconfig} is absent (../shared/editors)")
    binary: str = request.getfixturevalue(spec.which)
    if spec.agents:
        project = Project(Path(shutil.copytree(AGENTS_FIXTURE, base / "shop")))
        subprocess.run(["git", "init", "-q", str(project.root)], check=True)  # Codex's chain starts at `.git`
    else:
        project = folder_project(base) if spec.rules_folder else make_project(base)
    if spec.late_rule:  # after make_project wrote the index
        (project.root / ".ai/rules/late.md").write_text(LATE, encoding="utf-8")
    # nvim-lspconfig v1.4.0's legacy setup() resolves the command to its full path (exepath)
    absolute = spec.own_cmd or (spec.mode == "setup:lspconfig" and spec.lspconfig == LSPCONFIG_1)
    cmd = str(base / "bin" / "rulelens") if absolute else "rulelens"
    extra = {"RULELENS_PLUGIN": str(PLUGIN), "RULELENS_PROJECT": str(project.root),
             "RULELENS_NVIM_MODE": spec.mode, "RULELENS_NVIM_STEPS": spec.steps,
             "RULELENS_NVIM_ENCODING": spec.encoding}
    if spec.lspconfig is not None:
        extra["RULELENS_LSPCONFIG"] = str(spec.lspconfig)
    if spec.verify:
        from tests.conformance.e2e.support import binary as pinned

        extra["RULELENS_VERIFY_AGENT"] = f"claude-code={pinned('claude-code')}"
        (project.root / "CLAUDE.md").write_text("# Project\n\nRead .ai/rules first.\n", encoding="utf-8")
    settings: dict[str, str] = {}
    if spec.rules_folder:
        settings["rulesFolder"] = RULES_FOLDER
    if spec.quiet:
        settings["severity"] = "off"
    if settings:
        extra["RULELENS_NVIM_SETTINGS"] = json.dumps(settings)
    if spec.own_cmd:
        extra["RULELENS_NVIM_CMD"] = json.dumps([cmd, "serve"])
    run = run_editor([binary, "--headless", "-u", str(HERE / "nvim_driver.lua")],
                     base, base / "result.json", extra, cwd=project.root)
    assert run.result["steps"] == spec.steps.split(","), run.stderr
    return Session(project, run.result, spec, cmd)


@pytest.fixture(scope="module")
def sessions() -> dict[str, Session | BaseException]:
    return {}


def get(request: pytest.FixtureRequest, cache: dict[str, Session | BaseException],
        sid: str) -> Session:
    """The session `sid`, run once per module however many tests read it (a session that
    failed fails its other tests at once instead of running again)."""
    if sid not in cache:
        base = request.getfixturevalue("tmp_path_factory").mktemp("nvim")
        try:
            cache[sid] = nvim_session(request, base, SESSIONS[sid])
        except pytest.skip.Exception:
            raise
        except (Exception, pytest.fail.Exception) as exc:
            cache[sid] = exc
            raise
    found = cache[sid]
    if isinstance(found, BaseException):
        pytest.fail(f"the {sid} session failed earlier: {str(found)[:2000]}")
    return found


def running(step: str) -> list[str]:
    return [sid for sid, spec in SESSIONS.items() if step in spec.steps.split(",")]


@pytest.fixture
def session(request: pytest.FixtureRequest,
            sessions: dict[str, Session | BaseException]) -> Session:
    return get(request, sessions, request.param)


def needs(session: Session, step: str) -> Any:
    return session.result[step]


@pytest.mark.parametrize("session", [*running("source"), "0.11-enable-utf16"], indirect=True)
def test_plugin_uses_the_right_start_path(session: Session) -> None:
    result = session.result
    if result["mode"] == "setup":
        expected = "enable" if result["version"].startswith("0.11") else "start_client"
        assert result["plugin_mode"] == expected
    elif result["mode"].startswith("setup:"):
        assert result["plugin_mode"] == result["mode"].split(":", 1)[1]


@pytest.mark.parametrize("session", running("source"), indirect=True)
def test_rules_diagnostic_arrives(session: Session) -> None:
    source = needs(session, "source")
    assert source["filetype"] == "php"
    [diag] = source["diagnostics"]
    assert diag["source"] == "rulelens"
    assert diag["code"] == "rules-apply"
    assert diag["severity"] == 3  # vim.diagnostic.severity.INFO: visible, never an error
    assert (diag["lnum"], diag["col"]) == (0, 0)
    assert ".ai/rules/models.md" in diag["message"]
    assert ENTRY_TITLE in diag["message"]
    related = [(r["uri"].rsplit("/", 1)[-1], r["line"], r["message"]) for r in diag["related"]]
    assert ("models.md", 7, f"Models: {ENTRY_TITLE}") in related


@pytest.mark.parametrize("session", running("hover"), indirect=True)
def test_hover_holds_the_entry(session: Session) -> None:
    hover = needs(session, "hover")
    assert isinstance(hover, str)
    assert "app/Models/User.php" in hover
    assert ENTRY_TITLE in hover
    assert ENTRY_NOTE in hover
    assert "12,50 €" in hover
    assert "app/Models/**" in hover


@pytest.mark.parametrize("session", running("agents_hover"), indirect=True)
def test_hover_shows_other_agents_in_a_nine_agent_project(session: Session) -> None:
    """In the real editor's hover float: what each other agent loads for the file, and why;
    `:RulelensRules` lists the same files."""
    seen = needs(session, "agents_hover")
    hover = seen["hover"]
    assert "In other agents" in hover
    section = hover[hover.index("In other agents"):]
    print(f"hover, In other agents:\n{section}")
    print(f":RulelensRules:\n{seen['rules']}")
    for agent in AGENTS[1:]:  # every agent but Boost
        assert agent.name in section, agent.name
    assert ".claude/rules/api.md" in section and "src/api/**" in section
    assert "documented behaviour not confirmed" in section
    assert "Boost" not in section
    rules = seen["rules"]
    assert "Claude Code: .claude/rules/api.md (src/api/**)" in rules
    # run end to end on read, edit and create: started at the root, Codex loads the root's file
    assert "Codex: AGENTS.md (always) (confirmed in Codex 0.171.0)" in rules
    assert "Qwen Code: .qwen/rules/api.md (src/api/**)" in rules
    assert "Copilot CLI: AGENTS.md (always)" in rules


@pytest.mark.parametrize("session", running("record_action"), indirect=True)
def test_code_action_list_offers_recording(session: Session) -> None:
    record = needs(session, "record_action")
    assert record["titles"][:3] == [
        "Record a project rule for app/Models/User.php",
        "Record a project rule for app/Models/**",
        "Record a project rule for app/Models/*.php",
    ]


@pytest.mark.parametrize("session", running("record_action"), indirect=True)
def test_record_action_prompts_and_writes_the_entry_and_index(session: Session) -> None:
    record = needs(session, "record_action")
    prompts = session.result["prompts"]
    assert prompts[:2] == ["Rule title for app/Models/*.php: ",
                           "Rule note (what an agent must know): "]
    models = session.project.read(".ai/rules/models.md")
    assert models.startswith("---\npaths:\n  - 'app/Models/**'\n  - 'app/Models/*.php'\n---\n")
    assert models.endswith(
        "\n\n## Prices in € are cents\nFormat 12,50 € only in views;\nnever store the string.\n")
    index = session.project.read(".ai/rules/index.md")
    assert "| app/Models/**, app/Models/*.php | .ai/rules/models.md |" in index
    # the server showed the rule file at the new entry (window/showDocument, or the plugin
    # itself on 0.7)
    assert record["shown"] == str(session.project.root / ".ai/rules/models.md")
    lines = models.splitlines()
    assert lines[record["cursor"][0] - 1] == "## Prices in € are cents"


@pytest.mark.parametrize("session", running("utf8"), indirect=True)
def test_non_ascii_line_gets_correct_columns(session: Session) -> None:
    utf8 = needs(session, "utf8")
    spans = sorted((g["col"], g["end_col"], g["text"]) for g in utf8["globs"])
    line = utf8["globs"][0]["line"].encode("utf-8")
    want = []
    for glob in NOTHING_GLOBS:
        quoted = f"'{glob}'".encode()
        start = line.index(quoted)
        want.append((start, start + len(quoted), f"'{glob}'"))
    assert spans == want
    assert utf8["offset_encoding"] == session.encoding
    # hover with the cursor inside the second glob reaches the server as the right character
    assert utf8["hover"].startswith("`lang/größe/**` matches no file")


@pytest.mark.parametrize("session", running("empty_filetype"), indirect=True)
def test_empty_filetype_buffer_is_attached(session: Session) -> None:
    empty = needs(session, "empty_filetype")
    assert empty["filetype"] == ""
    [diag] = empty["diagnostics"]
    assert ENTRY_TITLE in diag["message"]


@pytest.mark.parametrize("session", running("rules"), indirect=True)
def test_rulelens_rules_lists_rule_files_and_entries(session: Session) -> None:
    rules = needs(session, "rules")
    models = str(session.project.root / ".ai/rules/models.md")
    # one item for the rule file (at its heading), one per entry (at its `## ` line); agents
    # see models.md, so no line says they miss it
    assert [(i["file"], i["lnum"]) for i in rules["quickfix"]] == [(models, 6), (models, 8)]
    assert rules["quickfix"][0]["text"] == ".ai/rules/models.md — Models (app/Models/**)"
    assert rules["quickfix"][1]["text"] == f"Models: {ENTRY_TITLE}"
    assert rules["title"] == "rulelens: project rules for app/Models/User.php"
    assert rules["select"] == [item["text"] for item in rules["quickfix"]]


@pytest.mark.parametrize("session", running("rules_quiet"), indirect=True)
def test_rulelens_rules_needs_no_diagnostic(session: Session) -> None:
    """With severity 'off' there is no diagnostic to read when the list is asked for; it
    comes from the server."""
    quiet = needs(session, "rules_quiet")
    assert quiet["diagnostics"] == []
    models = str(session.project.root / ".ai/rules/models.md")
    assert [(i["file"], i["lnum"], i["text"]) for i in quiet["quickfix"]] == [
        (models, 6, ".ai/rules/models.md — Models (app/Models/**)"),
        (models, 8, f"Models: {ENTRY_TITLE}"),
    ]


@pytest.mark.parametrize("session", running("rules_missed"), indirect=True)
def test_rulelens_rules_says_why_agents_miss_a_rule_file(session: Session) -> None:
    """Needs a server that answers `agentsSee`/`agentsMissBecause` in rulesForPath."""
    items = needs(session, "rules_missed")
    late = str(session.project.root / ".ai/rules/late.md")
    models = str(session.project.root / ".ai/rules/models.md")
    got = [(i["file"], i["lnum"], i["text"], i["type"]) for i in items]
    assert got[:3] == [
        (late, 6, ".ai/rules/late.md — Late (app/Models/*.php)", ""),
        (late, 6, ".ai/rules/late.md: agents miss it: not in index.md; agents that read the"
         " index will not find it. Run `rulelens index`.", "W"),
        (late, 8, "Late: Written after the index", ""),
    ]
    # models.md is in the index: agents see it, and no line says otherwise
    assert got[3:] == [
        (models, 6, ".ai/rules/models.md — Models (app/Models/**)", ""),
        (models, 8, f"Models: {ENTRY_TITLE}", ""),
    ]


@pytest.mark.parametrize("session", running("record_command"), indirect=True)
def test_rulelens_record_prompts_for_glob_title_and_note(session: Session) -> None:
    record = needs(session, "record_command")
    # the server's suggestions (with the number of files each matches, where the server
    # answers rulelens/suggestGlobs), then a glob of one's own
    globs = [re.sub(r"  \((\d+) files?\)$", "", label) for label in record["choices"]]
    assert globs == ["app/Models/User.php", "app/Models/**", "app/Models/*.php", "Another glob…"]
    counts = [re.search(r"\((\d+) files?\)$", label) for label in record["choices"][:3]]
    if any(counts):
        assert [int(c.group(1)) if c else None for c in counts] == [1, 2, 1]
    assert session.result["prompts"][-3:] == [
        "Glob (relative to the project root): ",
        "Rule title for resources/views/**: ",
        "Rule note (what an agent must know): ",
    ]
    assert session.project.read(".ai/rules/views.md") == (
        "---\npaths:\n  - 'resources/views/**'\n---\n\n# Views\n\n"
        "## Views escape output\nUse {{ }}, never {!! !!}.\n")
    index = session.project.read(".ai/rules/index.md")
    assert "| resources/views/** | .ai/rules/views.md |" in index


@pytest.mark.parametrize("session", running("health"), indirect=True)
def test_checkhealth_reports_the_configuration_in_effect(session: Session) -> None:
    health = needs(session, "health")
    assert "configuration from the running client" in health
    # the command of the running config (0.11-enable sets an absolute one), not a default
    assert f"`{session.cmd}` runs: rulelens " in health
    if session.spec.mode == "enable":
        assert "enabled with vim.lsp.enable()" in health
    else:
        assert f"started by setup() through: {session.result['plugin_mode']}" in health
    folder = RULES_FOLDER if session.spec.rules_folder else ".ai/rules"
    assert f"rules folder: {folder}" in health
    assert f"root markers: {folder}, .git" in health
    assert f"server running for {session.project.root} ({session.encoding} positions)" in health


@pytest.mark.parametrize("session", running("health_idle"), indirect=True)
def test_checkhealth_reads_vim_lsp_config_before_a_server_runs(session: Session) -> None:
    health = needs(session, "health_idle")
    assert "configuration from vim.lsp.config.rulelens" in health
    assert f"`{session.cmd}` runs: rulelens " in health  # the configured command
    assert "root markers: .ai/rules, .git" in health
    assert "no rulelens server is running" in health


@pytest.mark.parametrize("session", running("root"), indirect=True)
def test_root_markers_follow_a_custom_rules_folder(session: Session) -> None:
    """The git work tree is one level up; only the rules folder marks the project."""
    found = needs(session, "root")
    assert found["root_dir"] == str(session.project.root)
    [diag] = found["diagnostics"]
    assert f"{RULES_FOLDER}/models.md" in diag["message"]
    assert ENTRY_TITLE in diag["message"]


@pytest.mark.parametrize("session", list(SESSIONS), indirect=True)
def test_user_commands_exist_however_the_server_starts(session: Session) -> None:
    """plugin/rulelens.lua defines them, also for `vim.lsp.enable('rulelens')` alone."""
    assert session.result["commands"] == {"RulelensRecord": True, "RulelensRules": True,
                                          "RulelensVerify": True}


@pytest.mark.parametrize("session", running("verify"), indirect=True)
def test_rulelens_verify_lists_predicted_beside_sent(session: Session) -> None:
    """:RulelensVerify claude-code=… on app/Models/User.php: a line for the run, then each file
    rulelens predicts beside what the pinned Claude Code sent (CLAUDE.md at start), in quickfix."""
    found = needs(session, "verify")
    print(json.dumps(found, indent=1))
    root = session.project.root
    head, *rows = found["items"]
    assert head["file"] == str(root / "app/Models/User.php")
    assert head["text"].startswith("Claude Code ") and ": app/Models/User.php: " in head["text"]
    claude = next(r for r in rows if r["file"] == str(root / "CLAUDE.md"))
    assert claude["text"] == "  CLAUDE.md: predicted start, sent start"
    assert found["items"][-1]["text"].startswith("Your global instruction files")
    differs = [r for r in rows if r["text"].startswith("! ")]
    assert all(r["type"] == "W" for r in differs)
    assert found["title"].startswith("rulelens verify: ")
    assert ("differ" in found["title"]) == bool(differs)


def test_help_tags_resolve(nvim: str, tmp_path: Path) -> None:
    """`:help rulelens` and the command tags open neovim/doc/rulelens.txt."""
    plugin = tmp_path / "plugin"
    shutil.copytree(PLUGIN, plugin)  # helptags writes doc/tags; keep the checkout clean
    out = tmp_path / "help.txt"
    script = tmp_path / "help.vim"
    script.write_text("\n".join([
        f"helptags {plugin}/doc",
        f"set rtp^={plugin}",
        "let g:r = []",
        "for t in ['rulelens', 'rulelens-setup', ':RulelensRecord', ':RulelensRules',"
        " 'rulelens.setup()', 'rulelens-settings']",
        "  execute 'help ' . t",
        "  call add(g:r, t . ' ' . expand('%:t') . ' ' . getline('.'))",
        "  helpclose",
        "endfor",
        f"call writefile(g:r, '{out}')",
        "qall!",
    ]) + "\n", encoding="utf-8")
    subprocess.run([nvim, "--headless", "--clean", "-S", str(script)], timeout=60,
                   capture_output=True, stdin=subprocess.DEVNULL, check=False)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6
    for line in lines:
        tag, name, text = line.split(" ", 2)
        assert name == "rulelens.txt"
        assert f"*{tag}*" in text


def test_rules_items_say_when_agents_miss_a_rule_file(nvim: str, tmp_path: Path) -> None:
    """rules.to_items on a `rulelens/rulesForPath` answer: a line with the reason only for a
    file that agents miss, then the files other agents load (a malformed view skipped); unknown
    keys and a missing `agentsSee` are fine."""
    root = tmp_path / "proj"
    claude = {"id": "claude-code", "name": "Claude Code", "confirmed": False, "overBudget": None,
              "maybe": [], "loads": [
                  {"file": "CLAUDE.md", "uri": (root / "CLAUDE.md").as_uri(), "how": "always",
                   "patterns": [], "bytes": 9},
                  {"file": ".ai/rules/index.md", "uri": (root / ".ai/rules/index.md").as_uri(), "how": "always",
                   "patterns": [], "bytes": 9, "importedBy": "CLAUDE.md:29"},
                  {"file": ".claude/rules/app.md", "uri": (root / ".claude/rules/app.md").as_uri(),
                   "how": "glob", "patterns": ["app/**"], "bytes": 9}]}
    codex = {"id": "codex", "name": "Codex", "confirmed": True, "matcherConfirmedIn": "Codex 0.171.0",
             "overBudget": None, "maybe": [],
             "loads": [{"file": "AGENTS.md", "uri": (root / "AGENTS.md").as_uri(),
                        "how": "directory", "patterns": [], "bytes": 9}]}
    qwen = {"id": "qwen-code", "name": "Qwen Code", "confirmed": True, "confirmedIn": "Qwen Code 0.24.4",
            "overBudget": None, "maybe": [], "loads": [{"file": "QWEN.md", "uri": (root / "QWEN.md").as_uri(),
                                                        "how": "directory", "patterns": [], "bytes": 9}]}
    codex["confirmedIn"] = None
    answer = {
        "uri": (root / "app/User.php").as_uri(), "root": str(root), "rootUri": root.as_uri(),
        "rulesFolder": ".ai/rules", "path": "app/User.php", "kind": "source",
        "agents": [claude, {"id": "odd"}, codex, qwen], "agent": None, "later": {},
        "rules": [
            {"file": ".ai/rules/app.md", "uri": (root / ".ai/rules/app.md").as_uri(),
             "title": "App", "line": 5, "globs": ["**/*.php"], "matched": ["**/*.php"],
             "agentsSee": False,
             "agentsMissBecause": "The frontmatter is not valid YAML: quote the glob",
             "entries": [{"title": "Typed", "line": 7}]},
            {"file": ".ai/rules/seen.md", "uri": (root / ".ai/rules/seen.md").as_uri(),
             "title": None, "line": 1, "globs": ["app/**"], "matched": ["app/**"],
             "agentsSee": True, "agentsMissBecause": None, "entries": []},
            {"file": ".ai/rules/old.md", "uri": (root / ".ai/rules/old.md").as_uri(),
             "title": "Old", "line": 3, "globs": ["app/*"], "entries": []},
        ],
    }
    out = tmp_path / "items.json"
    script = tmp_path / "items.lua"
    script.write_text(
        f"vim.opt.runtimepath:prepend({json.dumps(str(PLUGIN))})\n"
        f"local answer = vim.fn.json_decode({json.dumps(json.dumps(answer))})\n"
        "local items = require('rulelens.rules').to_items(answer)\n"
        f"vim.fn.writefile({{ vim.fn.json_encode(items) }}, {json.dumps(str(out))})\n"
        "vim.cmd('qall!')\n", encoding="utf-8")
    subprocess.run([nvim, "--headless", "--clean", "-u", str(script)], timeout=60,
                   capture_output=True, stdin=subprocess.DEVNULL, check=False)
    items = json.loads(out.read_text(encoding="utf-8"))
    got = [(Path(i["filename"]).name, i["lnum"], i["text"], i.get("type", "")) for i in items]
    assert got == [
        ("app.md", 5, ".ai/rules/app.md — App (**/*.php)", ""),
        ("app.md", 5, ".ai/rules/app.md: agents miss it: The frontmatter is not valid YAML:"
         " quote the glob", "W"),
        ("app.md", 7, "App: Typed", ""),
        ("seen.md", 1, ".ai/rules/seen.md (app/**)", ""),
        ("old.md", 3, ".ai/rules/old.md — Old (app/*)", ""),
        ("CLAUDE.md", 1, "Claude Code: CLAUDE.md (always) (probably: documented behaviour not confirmed)", ""),
        ("index.md", 1, "Claude Code: .ai/rules/index.md (always, imported by CLAUDE.md:29)", ""),
        ("app.md", 1, "Claude Code: .claude/rules/app.md (app/**)", ""),
        ("AGENTS.md", 1, "Codex: AGENTS.md (folder chain) (matcher confirmed in Codex 0.171.0)", ""),
        ("QWEN.md", 1, "Qwen Code: QWEN.md (folder chain) (confirmed in Qwen Code 0.24.4)", ""),
    ]
