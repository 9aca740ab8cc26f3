"""`match --agents`' words for observed sessions (report/agents.py): each flag in its own line."""

from __future__ import annotations

from rulelens.agents.observed import MIN_SESSIONS, AgentSeen, FileSeen, Observation
from rulelens.agents.project import AgentProject
from rulelens.report.agents import loads_text
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory

FILES = {
    "CLAUDE.md": "# Project\n\nBe kind.\n",
    ".claude/rules/app.md": "---\npaths:\n  - 'app/**'\n---\n# App\n\nCents.\n",
    "app/Money.php": "<?php\n",
}


def test_flags_and_silence_are_said_per_file(project: ProjectFactory) -> None:
    agents = AgentProject(RuleRepository(project(FILES)))
    view = agents.view("app/Money.php")
    odd = Observation("claude-code", "2026-12-07T10:00:00Z", "s1", ".claude/rules/docs.md", "path_glob_match",
                      trigger="app/Money.php")
    seen = AgentSeen("claude-code", 4, [
        FileSeen("CLAUDE.md", None, "a reason it cannot be seen", 0),
        FileSeen(".claude/rules/app.md", None, None, MIN_SESSIONS + 1)], [odd])
    text = loads_text(agents.present, view, {"claude-code": seen})
    block = text.split("Claude Code:")[1].split("\n\n")[0].splitlines()
    assert block[1] == "    observed: 4 real sessions (InstructionsLoaded hook, .git/rulelens/observed.jsonl)"
    assert "      not observable: a reason it cannot be seen" in block
    assert "      not seen loading in 4 observed sessions" in block
    assert ("      ! never loaded in 4 observed sessions that read a file it matches, though rulelens says "
            "it loads") in block
    assert block[-1] == ("    ! .claude/rules/docs.md was seen loading for this path in a real session "
                         "(2026-12-07 10:00 UTC, path_glob_match for app/Money.php), but rulelens says it "
                         "does not load here")
    assert "observed" not in loads_text(agents.present, view)  # no observations: the output as before
