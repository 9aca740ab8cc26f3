"""Observed loads beside rulelens's prediction (agents/observed.py): what is said per file, what
is flagged as a contradiction, and where the hook's silence is no evidence."""

from __future__ import annotations

import json
from pathlib import Path

from rulelens.agents.observed import MIN_SESSIONS, Observation, Observed, read_observations, summary
from rulelens.agents.project import AgentProject
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory

APP_RULE = "---\npaths:\n  - 'app/**'\n---\n# App\n\nCents.\n"
FILES = {
    "CLAUDE.md": "# Project\n\nBe kind.\n",
    ".claude/rules/app.md": APP_RULE,
    ".claude/rules/docs.md": "---\npaths:\n  - 'docs/**'\n---\n# Docs\n\nShort.\n",
    ".claude/skills/pdf/SKILL.md": "---\nname: pdf\ndescription: PDFs\n---\n# PDF\n\nUse it.\n",
    "app/Money.php": "<?php\n",
    "docs/a.md": "# A\n",
}


def seen(file: str, session: str, reason: str, trigger: str | None = None, at: str = "2026-12-07T10:00:00Z",
         agent: str = "claude-code") -> Observation:
    return Observation(agent, at, session, file, reason, "Project", trigger)


def agents(make: ProjectFactory, files: dict[str, str] | None = None) -> AgentProject:
    return AgentProject(RuleRepository(make({**FILES, **(files or {})})))


def test_a_predicted_file_says_when_it_was_last_seen_and_why(project: ProjectFactory) -> None:
    p = agents(project)
    observed = Observed([seen("CLAUDE.md", "s1", "session_start"),
                         seen(".claude/rules/app.md", "s1", "path_glob_match", "app/Money.php"),
                         seen(".claude/rules/app.md", "s2", "path_glob_match", "app/Money.php",
                              at="2026-12-07T11:00:00Z")])
    found = observed.for_path(p, p.view("app/Money.php"))["claude-code"]
    by_file = {f.file: f for f in found.files}
    assert found.sessions == 2 and found.unexpected == []
    last = by_file[".claude/rules/app.md"].last
    assert last is not None and last.at == "2026-12-07T11:00:00Z" and last.trigger == "app/Money.php"
    assert by_file["CLAUDE.md"].last is not None and by_file["CLAUDE.md"].missed == 0


def test_a_load_seen_where_rulelens_says_none_is_flagged(project: ProjectFactory) -> None:
    p = agents(project)
    observed = Observed([seen(".claude/rules/docs.md", "s1", "path_glob_match", "app/Money.php")])
    found = observed.for_path(p, p.view("app/Money.php"))["claude-code"]
    assert [o.file for o in found.unexpected] == [".claude/rules/docs.md"]
    # For the path it was predicted for, it is no contradiction.
    assert observed.for_path(p, p.view("docs/a.md"))["claude-code"].unexpected == []


def test_a_rule_never_loaded_in_enough_sessions_that_read_a_match_is_flagged(
        project: ProjectFactory) -> None:
    """Sessions read app/ files (another rule's load names them as its trigger) but app.md never
    loaded: flagged from MIN_SESSIONS sessions on, not before."""
    p = agents(project, {".claude/rules/php.md": "---\npaths:\n  - '**/*.php'\n---\n# PHP\n\nStrict.\n"})
    view = p.view("app/Money.php")
    lines = [seen(".claude/rules/php.md", f"s{n}", "path_glob_match", "app/Money.php") for n in range(MIN_SESSIONS)]
    few = Observed(lines[:-1]).for_path(p, view)["claude-code"]
    assert {f.file: f.missed for f in few.files}[".claude/rules/app.md"] == 0
    enough = Observed(lines).for_path(p, view)["claude-code"]
    assert {f.file: f.missed for f in enough.files}[".claude/rules/app.md"] == MIN_SESSIONS
    assert {f.file: f.missed for f in enough.files}[".claude/rules/php.md"] == 0
    # One session where it did load: no longer flagged.
    loaded = Observed([*lines, seen(".claude/rules/app.md", "s0", "path_glob_match", "app/Money.php")])
    assert {f.file: f.missed for f in loaded.for_path(p, view)["claude-code"].files}[".claude/rules/app.md"] == 0


def test_silence_is_said_not_read_as_not_loaded(project: ProjectFactory) -> None:
    """No CLAUDE.md: Claude Code loads AGENTS.md through its plugin, which runs no hook."""
    make = project
    root = make({"AGENTS.md": "# Agents\n\nBe brief.\n", ".claude/rules/app.md": APP_RULE, "app/Money.php": ""})
    p = AgentProject(RuleRepository(root))
    sessions = [seen(".claude/rules/app.md", f"s{n}", "path_glob_match", "app/Money.php") for n in range(4)]
    found = Observed(sessions).for_path(p, p.view("app/Money.php"))["claude-code"]
    agents_md = {f.file: f for f in found.files}["AGENTS.md"]
    assert agents_md.silent is not None and "agents-md plugin" in agents_md.silent and agents_md.missed == 0
    records = {r.file: r for r in summary(Observed(sessions), p, [("claude-code", "AGENTS.md")])}
    assert records["AGENTS.md"].note is not None and records["AGENTS.md"].note.startswith("not observable")
    assert not records["AGENTS.md"].contradicts


def test_map_flags_a_file_at_session_start_rulelens_does_not_load_everywhere(
        project: ProjectFactory) -> None:
    p = agents(project)
    starts = [seen("CLAUDE.md", f"s{n}", "session_start") for n in range(MIN_SESSIONS)]
    odd = seen(".claude/rules/docs.md", "s0", "session_start")
    records = {r.file: r for r in summary(Observed([*starts, odd]), p, [("claude-code", "CLAUDE.md"),
                                                                       ("claude-code", ".claude/rules/x.md")])}
    assert records["CLAUDE.md"].loaded_in == MIN_SESSIONS and not records["CLAUDE.md"].contradicts
    assert records[".claude/rules/docs.md"].contradicts
    assert records[".claude/rules/x.md"].contradicts and "never loaded" in (records[".claude/rules/x.md"].note or "")


def test_the_hook_file_is_read_leniently_with_paths_made_relative(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    path = tmp_path / "observed.jsonl"
    good = {"agent": "claude-code", "at": "2026-12-07T10:00:00Z", "session_id": "s1",
            "file_path": str(root / ".claude/rules/app.md"), "load_reason": "path_glob_match",
            "trigger_file_path": str(root / "app/Money.php"), "globs": ["app"]}
    outside = {**good, "file_path": "/home/someone/.claude/CLAUDE.md", "trigger_file_path": None}
    path.write_text("not json\n" + json.dumps(good) + "\n" + json.dumps(outside) + "\n{\"cut\": ")
    found = read_observations(path, root)
    assert [(o.file, o.trigger, o.globs) for o in found] == [
        (".claude/rules/app.md", "app/Money.php", ("app",)), ("/home/someone/.claude/CLAUDE.md", None, ("app",))]
    assert read_observations(tmp_path / "missing.jsonl", root) == []
    assert read_observations(None, root) == []
