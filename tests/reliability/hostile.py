"""Hostile rule files, built on the fly (never copied from anywhere): what an attacker or an
accident could commit to `.ai/rules/`."""

from __future__ import annotations

import random
from pathlib import Path

HUGE_BYTES = 50 * 1024 * 1024


def huge_rule() -> bytes:
    """A 50 MB rule file whose frontmatter is valid: only its size is the problem."""
    head = b"---\npaths:\n  - 'big/**'\n---\n\n# Big\n\n## Huge entry\n"
    line = b"y" * 99 + b"\n"
    return head + line * ((HUGE_BYTES - len(head)) // len(line) + 1)


def invalid_utf8() -> bytes:
    return b"---\npaths:\n  - 'latin/**'\n---\n\n# Latin\n\n## Caf\xe9\nA note in Latin-1: \xff\xfe.\n"


def yaml_bomb() -> str:
    """Billion laughs: nine levels of nine aliases each, beside a valid `paths`."""
    lines = ["---", "paths:", "  - 'bomb/**'", 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for n in range(1, 9):
        lines.append(f"a{n}: &a{n} [" + ",".join([f"*a{n - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n---\n\n# Bomb\n\n## Laughs\nThe bomb must not go off.\n"


def yaml_bomb_in_paths() -> str:
    """The bomb *as* `paths`: a list of nested lists, none of them a string."""
    return yaml_bomb().replace("paths:\n  - 'bomb/**'\n", "").replace(
        "\n---\n\n# Bomb", "\npaths: *a8\n---\n\n# Bomb")


def deep_flow_yaml(depth: int = 20_000) -> str:
    return "---\npaths: " + "[" * depth + "]" * depth + "\n---\n\n# Deep\n\n## Deep entry\nnote\n"


def deep_block_yaml(depth: int = 400) -> str:
    body = "".join("  " * i + "- x:\n" for i in range(1, depth))
    return "---\npaths:\n" + body + "---\n\n# Deeper\n\n## Deeper entry\nnote\n"


def binary_md(seed: int = 7) -> bytes:
    rng = random.Random(seed)
    return bytes(rng.randrange(256) for _ in range(4096)) + b"\x00" + b"\x89PNG\r\n\x1a\n"


OUTSIDE_RULE = "---\npaths:\n  - 'app/Models/**'\n---\n\n# Outside\n\n## Outside entry\nFrom outside the root.\n"

# name in .ai/rules -> (content, the check code that must flag it)
FILES: dict[str, tuple[str | bytes, str]] = {
    "latin.md": (invalid_utf8(), "encoding-invalid"),
    "bomb.md": (yaml_bomb(), ""),
    "bomb-paths.md": (yaml_bomb_in_paths(), "paths-invalid"),
    # Nesting past the strict reading's depth cap is a loader error, whatever PyYAML's version.
    "deep-flow.md": (deep_flow_yaml(), "frontmatter-invalid"),
    "deep-block.md": (deep_block_yaml(), "frontmatter-invalid"),
    "binary.md": (binary_md(), "file-binary"),
}


def write_hostile(root: Path, outside: Path) -> None:
    """Every hostile file into root/.ai/rules, plus a symlink to a rule file outside the root."""
    rules = root / ".ai/rules"
    for name, (content, _) in FILES.items():
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        (rules / name).write_bytes(data)
    (rules / "huge.md").write_bytes(huge_rule())
    outside.mkdir(parents=True, exist_ok=True)
    (outside / "outside.md").write_text(OUTSIDE_RULE)
    (rules / "linked.md").symlink_to(outside / "outside.md")
    for rel in ("app/Models/User.php", "big/a.php", "bomb/b.php", "latin/c.php"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("<?php\n")
