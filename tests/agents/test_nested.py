"""Rule folders below the root: Cursor's and Windsurf/Devin's nested rule folders and Continue's
`rules.md` files load for the files of their folder, with globs taken relative to it, and every
surface that reads the agents' view (here the core's view, `check` and `match --agents`) sees them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from rulelens.agents.editing import is_agent_path
from rulelens.agents.project import AgentProject
from rulelens.agents.traps import agent_problems
from rulelens.rules.repository import RuleRepository
from tests.conftest import ProjectFactory

FILES = {
    "backend/.cursor/rules/api.mdc": "---\nglobs: api/*.py\n---\n# Backend API\n",
    "backend/.cursor/rules/all.mdc": "---\nalwaysApply: true\n---\n# Backend\n",
    "web/.windsurf/rules/tsx.md": '---\ntrigger: glob\nglobs: ["*.tsx"]\n---\n# Web\n',
    "web/.devin/rules/on.md": "---\ntrigger: always_on\n---\n# Devin web\n",
    "lib/rules.md": '---\nglobs: "*.py"\n---\n# Lib\n',
    "lib/core/rules.md": "# Core\n",
    "backend/api/views.py": "", "backend/main.py": "", "api/views.py": "", "web/App.tsx": "",
    "App.tsx": "", "lib/core/x.py": "", "lib/x.ts": "", "x.py": "",
}


def _loads(root: Path, path: str) -> dict[str, dict[str, tuple[str, tuple[str, ...]]]]:
    view = AgentProject(RuleRepository(root)).view(path)
    return {agent: {load.file: (load.how, load.patterns) for load in loads} for agent, loads in view.loads.items()}


def test_nested_folders_load_for_their_own_files(project: ProjectFactory) -> None:
    root = project(FILES)
    assert _loads(root, "backend/api/views.py")["cursor"] == {
        "backend/.cursor/rules/all.mdc": ("directory", ()),
        "backend/.cursor/rules/api.mdc": ("glob", ("api/*.py",)),
    }
    assert _loads(root, "api/views.py")["cursor"] == {}  # the glob is relative to backend/
    assert _loads(root, "web/App.tsx")["windsurf"] == {
        "web/.windsurf/rules/tsx.md": ("glob", ("*.tsx",)), "web/.devin/rules/on.md": ("directory", ())}
    assert _loads(root, "App.tsx")["windsurf"] == {}
    assert _loads(root, "lib/core/x.py")["continue"] == {
        "lib/rules.md": ("glob", ("lib/**/*.py",)), "lib/core/rules.md": ("glob", ("lib/core/**/*",))}
    assert _loads(root, "lib/x.ts")["continue"] == {}
    assert _loads(root, "x.py")["continue"] == {}


def test_nested_globs_are_checked_below_their_folder(project: ProjectFactory) -> None:
    root = project({**FILES, "backend/.cursor/rules/none.mdc": "---\nglobs: nowhere/*.py\n---\n# N\n"})
    codes = [(p.file, p.code) for p in agent_problems(AgentProject(RuleRepository(root)))]
    assert ("backend/.cursor/rules/none.mdc", "agent-glob-matches-nothing") in codes
    assert ("backend/.cursor/rules/api.mdc", "agent-glob-matches-nothing") not in codes
    assert ("web/.windsurf/rules/tsx.md", "agent-glob-matches-nothing") not in codes


def test_editors_watch_nested_rule_files() -> None:
    for rel in ("backend/.cursor/rules/a.mdc", "a/b/.windsurf/rules/x.md", "web/.devin/rules/y.md",
                "lib/rules.md", ".cursor/rules/a.mdc", ".continue/rules/x.md"):
        assert is_agent_path(rel), rel
    assert not is_agent_path("lib/notes.md")


def test_match_agents_shows_nested_rules(project: ProjectFactory) -> None:
    root = project(FILES)
    done = subprocess.run([sys.executable, "-m", "rulelens", "match", "--agents", "--json", "backend/api/views.py"],
                          cwd=root, capture_output=True, text=True, check=True)
    assert "backend/.cursor/rules/api.mdc" in json.dumps(json.loads(done.stdout))
