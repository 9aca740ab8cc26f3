"""`match --agents` and `check` on the fixture project with files for all nine agents, run as a
real process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulelens.agents.registry import AGENT_IDS, AGENTS

FIXTURE = Path(__file__).parent / "fixtures" / "all_agents"
IDS = list(AGENT_IDS)  # the fixture has files for every agent


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), *args], capture_output=True,
                          text=True, check=False, env={**os.environ, "PYTHONWARNINGS": "error"}, timeout=120)


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    """The fixture in a git repository, as a project is: Codex's chain starts at `.git`."""
    root = Path(shutil.copytree(FIXTURE, tmp_path / "shop"))
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def match_json(root: Path, *paths: str) -> list[dict[str, Any]]:
    out = run(root, "match", "--agents", "--json", *paths)
    assert (out.returncode, out.stderr) == (0, "")
    parsed: list[dict[str, Any]] = json.loads(out.stdout)
    return parsed


def test_json_shape_and_every_agent_present(shop: Path) -> None:
    [item] = match_json(shop, "src/api/users.ts")
    assert list(item) == ["path", "rules", "on", "agents", "agents_maybe", "agents_probably", "agents_confirmed_in",
                          "agents_matcher_confirmed_in"]
    assert item["on"] == "read"  # the default moment
    assert "cursor" in item["agents_probably"] and "cline" not in item["agents_probably"]
    assert list(item["agents"]) == IDS and list(item["agents_maybe"]) == IDS
    for loads in item["agents"].values():
        for load in loads:
            # `imported_by` only on a file another imports with `@path` (AGENTS.md's react.md)
            assert set(load) - {"imported_by"} == {"file", "how", "patterns", "bytes"}
            assert load.get("imported_by", "AGENTS.md:3") == "AGENTS.md:3"
            assert load["how"] in ("always", "glob", "directory")
            assert load["bytes"] == (shop / load["file"]).stat().st_size
    for maybes in item["agents_maybe"].values():
        assert all(set(m) == {"file", "how"} and m["how"] in ("agent-decides", "manual", "start-folder")
                   for m in maybes)


def test_json_names_the_release_an_answer_was_read_from(shop: Path) -> None:
    """An agent modelled from its released code is marked with that release; one modelled from its
    docs or source without a release, or resting on an unconfirmed claim, is not."""
    [item] = match_json(shop, "src/api/users.ts")
    # Whole answers run end to end at a release are "confirmed in" it; an answer whose matcher alone
    # was checked against the release's code is "matcher confirmed in" it.
    whole, matcher = item["agents_confirmed_in"], item["agents_matcher_confirmed_in"]
    assert whole == {"claude-code": "Claude Code 2.1.337", "copilot-cli": "Copilot CLI 1.0.102",
                     "codex": "Codex 0.171.0", "gemini-cli": "Gemini CLI 0.61.0", "qwen-code": "Qwen Code 0.24.4"}
    assert matcher["amp"].startswith("Amp ")
    marked = {**whole, **matcher}
    assert "cursor" not in marked and "continue" not in marked and "boost" not in marked
    assert all(agent.id not in matcher for agent in AGENTS if "read" in agent.end_to_end)
    for agent in AGENTS:  # derived from the facts' sources: each release is the one a code fact names
        if agent.id in marked:
            release = marked[agent.id].removeprefix(agent.name + " ")
            assert agent.confirmed and any(release in f.source for f in agent.facts if f.kind == "code")


def test_json_says_a_nested_agents_md_loads_only_when_codex_starts_there(shop: Path) -> None:
    """Codex started at the root (the answer's default) reads the root's `AGENTS.md` alone; the
    big nested one, which would cross the cap, loads only when Codex is started in its folder."""
    big, small = match_json(shop, "packages/big/app.ts", "src/main.py")
    assert [x["file"] for x in big["agents"]["codex"]] == ["AGENTS.md"]
    assert {"file": "packages/big/AGENTS.md", "how": "start-folder"} in big["agents_maybe"]["codex"]
    assert "agents_over_budget" not in big and "agents_over_budget" not in small
    text = run(shop, "match", "--agents", "packages/big/app.ts").stdout
    assert "maybe     packages/big/AGENTS.md  (only when Codex is started in packages/big/ or below)" in text


def test_rules_part_is_match_as_today(shop: Path) -> None:
    plain = json.loads(run(shop, "match", "--json", "app/Models/Invoice.php", "docs/guide.md").stdout)
    with_agents = match_json(shop, "app/Models/Invoice.php", "docs/guide.md")
    assert [{k: v for k, v in i.items() if k in ("path", "rules")} for i in with_agents] == plain


def test_what_each_agent_loads_for_an_api_file(shop: Path) -> None:
    [item] = match_json(shop, "src/api/users.ts")
    agents = {a: {x["file"]: (x["how"], x["patterns"]) for x in loads} for a, loads in item["agents"].items()}
    maybe = {a: {x["file"]: x["how"] for x in m} for a, m in item["agents_maybe"].items()}
    assert agents["cline"] == {".clinerules/api.md": ("glob", ["src/api/**"]),
                               ".clinerules/bare.md": ("always", []), ".clinerules/general.md": ("always", [])}
    assert agents["claude-code"][".claude/rules/broken.md"] == ("always", [])
    assert agents["claude-code"][".claude/rules/api.md"] == ("glob", ["src/api/**"])
    assert agents["kiro"] == {".kiro/steering/api.md": ("glob", ["src/api/**"]),
                              ".kiro/steering/product.md": ("always", []), "AGENTS.md": ("always", [])}
    assert ".continue/rules/exclude.md" not in agents["continue"]
    # `**` attaches without looking at the file (VS Code 1.117.0's `_matches`): every request.
    assert agents["copilot"][".github/instructions/all.instructions.md"] == ("always", [])
    # VS Code attaches the root's AGENTS.md and CLAUDE.md to every request, and reads `.claude/rules`
    # as instruction files, a rule's `paths` as its `applyTo`.
    assert agents["copilot"]["AGENTS.md"] == agents["copilot"]["CLAUDE.md"] == ("always", [])
    assert agents["copilot"][".claude/rules/api.md"] == ("glob", ["src/api/**"])
    assert maybe["copilot"][".github/instructions/python.instructions.md"] == "agent-decides"
    assert maybe["cursor"][".cursor/rules/manual.mdc"] == "manual"
    assert maybe["windsurf"] == {".windsurf/rules/manual.md": "manual", ".windsurf/rules/model.md": "agent-decides"}
    assert agents["codex"] == {"AGENTS.md": ("always", [])}
    assert agents["boost"] == {".ai/rules/index.md": ("always", [])}


def test_codex_chain_and_boost_for_other_paths(shop: Path) -> None:
    web, api, invoice = match_json(shop, "packages/web/index.ts", "packages/api/server.ts", "app/Models/Invoice.php")
    # Started at the root, Codex reads the root's file; a package's only when started in it.
    assert [x["file"] for x in web["agents"]["codex"]] == ["AGENTS.md"]
    assert web["agents_maybe"]["codex"] == [{"file": "packages/web/AGENTS.md", "how": "start-folder"}]
    assert api["agents_maybe"]["codex"] == [{"file": "packages/api/AGENTS.override.md", "how": "start-folder"}]
    assert {x["file"]: x["patterns"] for x in invoice["agents"]["boost"]} == {
        ".ai/rules/index.md": [], ".ai/rules/models.md": ["app/Models/**"]}


def test_text_groups_by_agent_with_bytes_and_budget(shop: Path) -> None:
    out = run(shop, "match", "--agents", "packages/big/app.ts")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert text.startswith("packages/big/app.ts: 0 rule files apply\n")
    for agent in AGENTS:  # the names users know; the ids are JSON's keys
        assert f"\n  {agent.name}: " in text
    assert "\n  claude-code: " not in text and "\n  windsurf: " not in text
    assert "\n  Devin Desktop: " in text and "\n  Copilot in VS Code: " in text
    assert "  Codex: 1 file, 72 bytes  (confirmed in Codex 0.171.0)\n" in text
    assert "    maybe     packages/big/AGENTS.md  (only when Codex is started in packages/big/ or below)\n" in text
    assert "exceed Codex's 32 KiB cap" not in text  # the big file loads only when started in its folder
    # Cursor reads the root's AGENTS.md and a nested one (its docs), beside its own rules.
    assert "  Cursor: 4 files, 35,335 bytes  (probably: documented behaviour not confirmed)" in text
    claude = next(line for line in text.splitlines() if line.startswith("  Claude Code: "))
    # Its matcher was checked against the release's code; its whole answer was not run end to end.
    assert claude.endswith(" bytes  (confirmed in Claude Code 2.1.337)")
    cli = next(line for line in text.splitlines() if line.startswith("  Copilot CLI: "))
    assert cli.endswith(" bytes  (confirmed in Copilot CLI 1.0.102)")  # its probe runs the binary whole
    cline = next(line for line in text.splitlines() if line.startswith("  Cline: "))
    assert cline.endswith(" bytes")  # read from Cline's source at a commit: no release to name


def test_check_reports_each_trap(shop: Path) -> None:
    out = run(shop, "check", "--json")
    assert out.returncode == 1, out.stderr
    found = {(p["file"], p["code"]) for p in json.loads(out.stdout)}
    expected = {
        (".kiro/steering/comma.md", "kiro-pattern-comma"),
        (".clinerules/bare.md", "cline-paths-not-list"),
        (".claude/rules/broken.md", "agent-yaml-invalid"),
        (".github/instructions/python.instructions.md", "copilot-applyto-elsewhere"),
        (".windsurf/rules/glob.md", "windsurf-globs-string"),
        (".clinerules/legacy.md", "agent-glob-matches-nothing"),
        (".github/instructions/anchored.instructions.md", "agent-glob-matches-nothing"),
        (".cursor/rules/unquoted.mdc", "agent-yaml-invalid"),
        (".ai/rules/models.md", "agents-disagree"),
        ("packages/big/AGENTS.md", "agent-budget-exceeded"),
        (".continue/rules/comma.md", "continue-globs-comma"),
        ("packages/api/AGENTS.md", "codex-shadowed"),
        (".clinerules/never.md", "cline-paths-empty"),
    }
    assert expected <= found, expected - found
    messages: dict[str, str] = {}
    for p in json.loads(out.stdout):
        messages[p["code"]] = messages.get(p["code"], "") + p["message"]
    assert "`lib/src/util.py`" in messages["copilot-applyto-elsewhere"]
    assert "Copilot in VS Code" in messages["copilot-applyto-elsewhere"]
    assert "`app/Models/User.php`" in messages["agents-disagree"]
    assert "loads for every request" in messages["cline-paths-not-list"]


def test_bad_agent_files_never_crash(shop: Path) -> None:
    (shop / ".cursor/rules/binary.mdc").write_bytes(b"\x00\xff---\nglobs: [\n")
    (shop / ".kiro/steering/list.md").write_text("---\n- just\n- a list\n---\n# L\n")
    (shop / ".clinerules/deep.md").write_text("---\npaths: " + "[" * 200 + "\n---\n# D\n")
    (shop / ".windsurf/rules/unclosed.md").write_text("---\ntrigger: glob\nglobs: src/**\n# never closed\n")
    (shop / ".continue/rules/nested.md").write_text("---\nglobs:\n" + "".join("  " * i + "-\n" for i in range(3000)) + "---\n")
    (shop / ".claude/rules/loop").symlink_to("..")  # a symlink cycle inside the rules folder
    (shop / ".cursor/rules/folder.mdc").mkdir()
    (shop / ".kiro/steering/huge.md").write_bytes(b"# Huge\n" + b"x" * (3 * 1024 * 1024))
    out = run(shop, "match", "--agents", "--json", "src/api/users.ts")
    assert out.returncode == 0, out.stderr
    out = run(shop, "check", "--json")
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    found = {(p["file"], p["code"]) for p in json.loads(out.stdout)}
    assert (".continue/rules/nested.md", "agent-yaml-invalid") in found
    assert (".kiro/steering/list.md", "agent-yaml-invalid") in found


def test_outside_the_root_is_a_usage_error(shop: Path) -> None:
    out = run(shop, "match", "--agents", "/etc/passwd")
    assert out.returncode == 2
    assert out.stdout == "" and out.stderr.startswith("rulelens: /etc/passwd is outside the project root")


def test_good_paths_still_print_beside_a_bad_one(shop: Path) -> None:
    out = run(shop, "match", "--agents", "src/api/users.ts", "/etc/passwd")
    assert out.returncode == 2
    assert "What each agent loads for src/api/users.ts on read (the default):" in out.stdout
    assert out.stderr.count("\n") == 1 and "/etc/passwd is outside the project root" in out.stderr
    out = run(shop, "match", "--agents", "--json", "/etc/passwd", "src/main.py")
    assert out.returncode == 2
    [item] = json.loads(out.stdout)
    assert item["path"] == "src/main.py" and "codex" in item["agents"]


def test_a_folder_gets_matchs_folder_summary_without_agents(shop: Path) -> None:
    out = run(shop, "match", "--agents", "--json", "src")
    assert out.returncode == 0, out.stderr
    [item] = json.loads(out.stdout)
    assert item["folder"] is True and "agents" not in item
