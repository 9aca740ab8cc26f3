"""Claude Code's `Read` deny rules in the project's settings, which keep instruction files out.

Claude Code 2.1.337 reads each memory file (`CLAUDE.md`, `CLAUDE.local.md`, `.claude/CLAUDE.md`,
`.claude/rules`, nested ones, and the files their `@path` imports name) through its Read
permission check: a file a `permissions.deny` rule of the Read tool matches is not loaded, nor
anything it imports; and reading, editing or creating a denied path loads no rule or folder file
after the tool either. Run end to end (tests/conformance/e2e/test_claude_code_loading.py):
the rule is matched as a `.gitignore` line, case-insensitively, against the path from the
project root, where Claude Code is started: `Read(CLAUDE.md)` and `Read(./CLAUDE.md)` match at
any depth, `Read(/CLAUDE.md)` and `Read(src/CLAUDE.md)` from the root only, `Read(docs/**)` and
`Read(.claude/)` everything below. `Edit(...)` rules change nothing here.

rulelens reads the two settings files of the project (`.claude/settings.json`, committed, and
`.claude/settings.local.json`, the user's own); the user's `~/.claude/settings.json`, managed
policy and `--disallowedTools` can add rules on one machine, and rulelens does not read them.
A bare `Read` (every path) takes the Read tool away altogether: runs then fail, so rulelens
leaves it out. `//absolute` rules are read when they name a path inside the project; `~/`
rules never name one here.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rulelens.glob_engines import ignore_js
from rulelens.workspace.reads import Reads

SETTINGS = (".claude/settings.json", ".claude/settings.local.json")
MAX_SETTINGS = 1024 * 1024
RULE = re.compile(r"\A\s*Read\((.*)\)\s*\Z", re.S)


def pattern_of(rule: str, root: str) -> str | None:
    """The `.gitignore` line a deny rule's `Read(...)` is matched as, from the project root
    (`root`, absolute), or None for a rule that names no path of the project."""
    found = RULE.match(rule) if isinstance(rule, str) else None
    if found is None:
        return None
    pattern = found.group(1).strip()
    if pattern.startswith("//"):  # an absolute path
        absolute = pattern[1:]
        prefix = root.rstrip("/") + "/"
        return "/" + absolute[len(prefix):] if absolute.startswith(prefix) else None
    if pattern.startswith("~") or not pattern:
        return None
    while pattern.startswith("./"):  # `./CLAUDE.md` matches as `CLAUDE.md` does, at any depth
        pattern = pattern[2:]
    return pattern or None


def deny_rules(data: Any) -> list[str]:
    """The `permissions.deny` entries of one settings file's JSON."""
    permissions = data.get("permissions") if isinstance(data, dict) else None
    deny = permissions.get("deny") if isinstance(permissions, dict) else None
    return [r for r in deny if isinstance(r, str)] if isinstance(deny, list) else []


def read_denied(root: Path, reads: Reads) -> list[tuple[str, str]]:
    """Each `Read` deny rule of the project's settings as (the pattern, the settings file)."""
    out: list[tuple[str, str]] = []
    where = os.path.abspath(root)
    for rel in SETTINGS:
        try:
            data = json.loads(reads.read_bytes(root / rel, MAX_SETTINGS))
        except (OSError, ValueError):
            continue
        for rule in deny_rules(data):
            pattern = pattern_of(rule, where)
            if pattern is not None:
                out.append((pattern, rel))
    return out


def matcher(rules: list[tuple[str, str]]) -> Callable[[str], str | None]:
    """`denied(rel)`: the settings file whose rule denies reading `rel` (root-relative), or None."""
    by_file: dict[str, list[str]] = {}
    for pattern, rel in rules:
        by_file.setdefault(rel, []).append(pattern)

    def denied(rel: str) -> str | None:
        return next((f for f, patterns in by_file.items() if ignore_js.ignores(patterns, rel)), None)

    return denied
