"""`check --fix` run as a user runs it mends the files of one cause's finding (causes.py)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ProjectFactory
from tests.unit.test_causes import _converted


def test_check_fix_on_the_command_line(project: ProjectFactory) -> None:
    root = project(_converted(2), git=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    first = [sys.executable, "-m", "rulelens", "--root", str(root), "check"]
    assert "2 skills converted" in subprocess.run(first, capture_output=True, text=True, check=False).stdout
    # The kept answer of that run is not an answer to --fix, which must write.
    out = subprocess.run([*first, "--fix"], capture_output=True, text=True, check=False)
    assert "fixed: Add `paths:` to 2 skills, from their Cursor rules" in out.stderr
    assert "agents-disagree" not in out.stdout
    assert "paths:" in (root / ".claude/skills/ts-0/SKILL.md").read_text()
