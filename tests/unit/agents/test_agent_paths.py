"""Which paths are agents' rule files (agents/editing.py `is_agent_path`): the shortcut on how a
path ends gives what matching every agent's file globs gives."""

from __future__ import annotations

import random

from wcmatch import glob as wglob

from rulelens.agents import editing
from rulelens.agents.registry import FILE_GLOBS

PARTS = ["src", "app", ".github", "instructions", ".cursor", "rules", ".clinerules", ".claude",
         "skills", "x", ".devin", ".kiro", "steering", ".gemini", ".qwen", ".agents", ".continue",
         ".openhands", "microagents", ".windsurf", "docs", "AGENTS.md", "CLAUDE.md", "GEMINI.md",
         "a.md", "b.mdc", "c.txt", "SKILL.md", "settings.json", "copilot-instructions.md",
         "x.instructions.md", "rules.md", ".windsurfrules", "QWEN.md", "CONTEXT.md", "main.py",
         "AGENTS.override.md", "README.MD", "a.md.bak", "Agents.md", "n"]


def test_the_shortcut_agrees_with_the_globs() -> None:
    full = wglob.compile(list(FILE_GLOBS), flags=editing._FLAGS)
    rng = random.Random(23)
    paths = {"/".join(rng.choice(PARTS) for _ in range(rng.randint(1, 5))) for _ in range(20_000)}
    agents = 0
    for path in sorted(paths):
        expected = bool(full.match(path))
        assert editing.is_agent_path(path) == expected, path
        agents += expected
    assert agents > 500 and editing._endings() is not None  # both answers are exercised
