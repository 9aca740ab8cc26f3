"""MCP's `rules-for-path` says what real sessions showed, as `match --agents` and the hover do:
lines written by `rulelens observe` (the hook `rulelens init --observe` registers) for Claude
Code loading CLAUDE.md at start, and a rule rulelens says does not load for the path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.boost_project import boost_project
from tests.mcp.mcp_support import rulelens_client, text_of

ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "server")}


def hook(root: Path, rel: str, reason: str, **more: object) -> None:
    """One load, through the hook's own command."""
    line = json.dumps({"session_id": "s1", "cwd": str(root), "hook_event_name": "InstructionsLoaded",
                       "file_path": str(root / rel), "memory_type": "Project", "load_reason": reason,
                       **more})
    done = subprocess.run([sys.executable, "-m", "rulelens", "observe", "--agent", "claude-code"], cwd=root,
                          input=line, text=True, capture_output=True, env=ENV, check=True)
    assert done.stderr == ""


async def test_rules_for_path_says_what_real_sessions_showed(tmp_path: Path) -> None:
    project = boost_project(tmp_path / "shop")
    (project / ".claude/rules").mkdir(parents=True)
    (project / ".claude/rules/docs.md").write_text("---\npaths:\n  - 'docs/**'\n---\n# Docs\n")
    async with rulelens_client(project) as client:
        before = text_of(await client.call_tool("rules-for-path", {"path": "app/Models/User.php"}))
        hook(project, "CLAUDE.md", "session_start")
        hook(project, ".claude/rules/docs.md", "path_glob_match", trigger_file_path=str(
            project / "app/Models/User.php"))
        plain = text_of(await client.call_tool("rules-for-path", {"path": "app/Models/User.php"}))
        on = text_of(await client.call_tool("rules-for-path", {"path": "app/Models/User.php", "on": "read"}))
    assert "real session" not in before
    observed = plain[plain.index("Observed in real sessions:"):]
    assert ("Claude Code observed: 1 real session (InstructionsLoaded hook, .git/rulelens/observed.jsonl)"
            in observed)
    assert "  CLAUDE.md: last seen loading " in observed and ", session_start" in observed
    assert ("  ! .claude/rules/docs.md was seen loading for this path in a real session" in observed
            and "but rulelens says it does not load here" in observed)
    assert "    observed: 1 real session (InstructionsLoaded hook" in on
    assert "      last seen loading " in on
