"""`check` loads a library when the project needs it, not on every run (`-X importtime` lists
every module a run imported): a pre-commit hook pays each import on every commit."""

from __future__ import annotations

import os
from pathlib import Path

from tests.cli.imports import check_importing
from tests.conftest import ProjectFactory

RULE = "---\npaths:\n  - 'app/**'\n---\n# Billing\n\nPrices go through `app/Money.php`.\n"
ENV = {**os.environ, "RULELENS_NO_CACHE": "1"}
ENV.pop("PYTHONDONTWRITEBYTECODE", None)
# Each loaded only when a project's files ask for it: agents' glob dialects (wcmatch,
# minimatch's reading), a write (tempfile), two texts close enough to compare (difflib), a
# frontmatter the simple reading declines (yaml), a name search of several greps or with its
# cache (concurrent.futures), a glob other than literal text and stars, an OpenHands skill's or a
# configuration's `exclude` (pathspec: globs.plain_source writes the common globs' regexes), two
# brace lists in one glob (bracex). (threading is not among them: the staleness checks' module
# imports it, and some environments' site loads it before any of rulelens.)
ON_DEMAND = {"wcmatch", "rulelens.agents.minimatch", "tempfile", "difflib", "yaml",
             "concurrent.futures", "pathspec", "bracex"}
# What a plain glob (`app/**`, `docs/api.md`) is matched without, in every dialect (plain_globs.py).
DIALECTS = {"wcmatch", "rulelens.agents.minimatch", "rulelens.agents.picomatch"}


def loaded(root: Path) -> set[str]:
    (code, _), modules = check_importing(root, ENV)
    assert code in (0, 1)
    return modules


def test_boosts_rules_alone_load_no_dialect(project: ProjectFactory) -> None:
    root = project({".ai/rules/billing.md": RULE, "app/Money.php": "<?php\n", "CLAUDE.md": "# P\n"})
    loaded(root)  # the first run may keep the code dataclasses generate (cli/__init__.py)
    modules = loaded(root)
    assert "rulelens.check_project" in modules
    assert not modules & ON_DEMAND, sorted(modules & ON_DEMAND)
    (root / ".ai/rules/money.md").write_text("---\npaths:\n  - 'app/[A-Z]*.php'\n---\n# Money\n")
    assert "pathspec" in loaded(root)  # a range: pathspec's own translation
    (root / ".ai/rules/money.md").write_text("---\npaths:\n  - 'app/{a,b}/{c,d}.php'\n---\n# M\n")
    assert "bracex" in loaded(root)  # two brace lists: bracex's expansion


def test_an_agent_file_with_globs_loads_its_dialect(project: ProjectFactory) -> None:
    root = project({".ai/rules/billing.md": RULE, "app/Money.php": "<?php\n",
                    ".continue/rules/money.md": "---\nglobs: app/**/*.{php,inc}\n---\n# Money\n",
                    ".cursor/rules/money.mdc": "---\nglobs: app/**\nalwaysApply: false\n---\n# M\n"})
    modules = loaded(root)
    assert {"wcmatch", "rulelens.agents.minimatch"} <= modules
    assert "yaml" not in modules  # both frontmatters are of the simple shape
    (root / ".cursor/rules/money.mdc").write_text("---\nglobs: app/**\nversion: 2\n---\n# M\n")
    assert "yaml" in loaded(root)  # a number: PyYAML types it


def test_plain_globs_load_no_dialect(project: ProjectFactory) -> None:
    plain = {".continue/rules/money.md": "---\nglobs: app/**\n---\n# Money\n",
             ".agents/skills/money/SKILL.md": "---\nname: money\npaths:\n  - 'app/*.php'\n---\n# M\n",
             ".cursor/rules/money.mdc": "---\nglobs: app/Money.php\nalwaysApply: false\n---\n# M\n",
             ".clinerules/money.md": "---\npaths:\n  - '**/app/**'\n---\n# M\n",
             ".github/instructions/money.instructions.md": "---\napplyTo: 'app/**'\n---\n# M\n"}
    root = project({".ai/rules/billing.md": RULE, "app/Money.php": "<?php\n", **plain})
    modules = loaded(root)
    assert not modules & DIALECTS, sorted(modules & DIALECTS)
    assert "pathspec" not in modules
    assert "subprocess" not in modules  # outside git, with no name to search: no process to start
    assert "shutil" not in modules  # nor shutil, which argparse's formatter would import
    (root / ".cursor/rules/money.mdc").write_text("---\nglobs: app/[A-Z]*.php\nalwaysApply: false\n---\n# M\n")
    assert "wcmatch" in loaded(root)
    (root / ".agents/skills/money/SKILL.md").write_text("---\nname: money\npaths:\n  - 'app/?oney.php'\n---\n# M\n")
    assert "pathspec" in loaded(root)  # a `?`: OpenHands' patterns are pathspec's
