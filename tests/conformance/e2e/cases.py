"""The projects the end-to-end tests run the agents on, as {root-relative path: text}."""

from __future__ import annotations

# Issue 42's minimal case: a root CLAUDE.md with two `@path` imports, a nested CLAUDE.md and a
# path rule in .claude/rules.
MINIMAL: dict[str, str] = {
    "CLAUDE.md": "# Project\n\nRoot rules for every file.\n\nSee @docs/conventions.md\n\n@.ai/rules/index.md\n",
    "docs/conventions.md": "# Conventions\n\nUse tabs for indentation in this project.\n",
    ".ai/rules/index.md": "# Rules index\n\n- api: rules for the API under src.\n",
    "src/CLAUDE.md": "# Source\n\nEvery source file exports one thing.\n",
    ".claude/rules/api.md": '---\npaths: "src/**"\n---\n\n# API\n\nHandlers return typed results.\n',
    "src/a.ts": "export const a = 1;\n",
    "README.md": "# Minimal\n",
}
