"""Whether a project uses Laravel Boost: `.ai/rules` is also other tools' folder, and what Boost
would read (its index, its `paths` key) matters only where Boost reads it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from rulelens.rules.model import Problem
from rulelens.workspace.reads import Reads

# The findings about what Boost itself reads: worth acting on only in a project that uses Boost.
BOOST_ONLY = frozenset({"paths-key-other", "index-missing", "index-stale"})
NO_SIGN = ("This project shows no sign of Laravel Boost (no `laravel/boost` in composer.json, no "
           "boost.json, no committed index), so only Boost would read it this way: `info`. If "
           "another tool owns `.ai/rules`, leave it.")
LIMIT = 4 * 1024 * 1024


def boost_sign(root: Path, rules_dir: str, reads: Reads) -> str | None:
    """What shows that the project uses Boost: its package in composer's files, its `boost.json`,
    or a committed index in the rules folder; None when nothing does."""
    for name in ("composer.json", "composer.lock"):
        path = root / name
        if reads.is_file(path):
            try:
                if b'"laravel/boost"' in reads.read_bytes(path, LIMIT):
                    return f"`laravel/boost` in {name}"
            except OSError:
                continue
    if reads.is_file(root / "boost.json"):
        return "boost.json"
    if reads.is_file(root / rules_dir / "index.md"):
        return f"{rules_dir}/index.md"
    return None


def without_boost(problems: list[Problem]) -> list[Problem]:
    """Boost's own findings as `info`, saying why, in a project that shows no sign of Boost."""
    return [replace(p, severity="info", message=f"{p.message} {NO_SIGN}")
            if p.code in BOOST_ONLY and p.severity != "info" else p for p in problems]
