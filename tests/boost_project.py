"""A Laravel project with Laravel Boost installed, as `boost:install` leaves it: its guidelines
in `CLAUDE.md` (which tell the agent to open `@.ai/rules/index.md`), rules in `.ai/rules` with the
index Boost generates, and a git repository. The import tests of the CLI, MCP and the editor share it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CLAUDE_MD = """\
<laravel-boost-guidelines>
=== foundation rules ===

# Laravel Boost Guidelines

The Laravel Boost guidelines are specifically curated by Laravel maintainers for this application.
These guidelines should be followed closely to ensure the best experience when building Laravel
applications.

## Foundational Context

This application is a Laravel application and its main Laravel ecosystems package & versions are below.

- php - 8.4
- laravel/framework (LARAVEL) - v12
- laravel/boost (BOOST) - v2
- pestphp/pest (PEST) - v4

## Conventions

- You must follow all existing code conventions used in this application. When creating or editing a
  file, check sibling files for the correct structure, approach, and naming.
- Use descriptive names for variables and methods. For example, `isRegisteredForDiscounts`, not
  `discount()`.

## Project Rules

- This project keeps committed, area-grouped rules in `.ai/rules`. Before you enter plan mode or
  create/edit any file, you MUST first: open @.ai/rules/index.md (it maps file globs to rule files),
  read every rule file whose globs cover the path(s) in scope, and run `grep -rin 'keyword' .ai/rules`
  to catch what a path match alone misses.

=== boost rules ===

## Laravel Boost

- Laravel Boost is an MCP server that comes with powerful tools designed specifically for this
  application. Use them.
- Use the `search-docs` tool before making code changes, e.g. `search-docs` for `@livewire` events.
</laravel-boost-guidelines>
"""

MODELS_RULE = """\
---
paths:
  - "app/Models/**"
---

# Models

## Casts live in the casts() method

Declare casts in `casts()`, never in the `$casts` property.
"""


def boost_project(root: Path) -> Path:
    """The project under `root`, its index written by rulelens as Boost writes it."""
    files = {
        "CLAUDE.md": CLAUDE_MD,
        ".ai/rules/models.md": MODELS_RULE,
        "app/Models/User.php": "<?php\n\nnamespace App\\Models;\n\nclass User {}\n",
        "composer.json": '{"require": {"laravel/framework": "^12.0", "laravel/boost": "^2.0"}}\n',
        "artisan": "#!/usr/bin/env php\n<?php\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "index"], check=True,
                   capture_output=True)
    return root


def import_line() -> int:
    """The 1-based line of `CLAUDE.md` that holds the import."""
    return next(i for i, line in enumerate(CLAUDE_MD.splitlines(), 1) if "@.ai/rules/index.md" in line)
