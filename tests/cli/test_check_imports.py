"""`check` loads a library when the project needs it, not on every run (`-X importtime` lists
every module a run imported): a pre-commit hook pays each import on every commit. What a kept
answer imports is held to a budget (tests/cli/test_result_cache.py)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from rulelens.rules.check.stale.text_search import FIRST_CHUNK_BYTES, gnu_grep
from tests.cli.imports import check_importing
from tests.conftest import ProjectFactory

RULE = "---\npaths:\n  - 'app/**'\n---\n# Billing\n\nPrices go through `app/Money.php`.\n"
ENV = {**os.environ, "RULELENS_NO_CACHE": "1"}
ENV.pop("PYTHONDONTWRITEBYTECODE", None)
IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
# Each loaded only when a project's files ask for it: agents' glob dialects (wcmatch,
# minimatch's reading), two texts close enough to compare (difflib), a frontmatter the simple
# reading declines (yaml), a glob other than literal text and stars, an OpenHands skill's or a
# configuration's `exclude` (pathspec: globs.plain_source writes the common globs' regexes), two
# brace lists in one glob (bracex). (threading is not among them: the staleness checks' module
# and subprocess import it.)
ON_DEMAND = {"wcmatch", "rulelens.glob_engines.minimatch", "difflib", "yaml", "pathspec", "bracex"}
# What a plain glob (`app/**`, `docs/api.md`) is matched without, in every dialect (plain_globs.py).
DIALECTS = {"wcmatch", "rulelens.glob_engines.minimatch", "rulelens.glob_engines.picomatch"}


def loaded(root: Path) -> set[str]:
    (code, _), modules = check_importing(root, ENV, bare=True)
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


@pytest.mark.skipif(gnu_grep() is None, reason="the search of several greps is GNU grep's")
def test_a_search_of_several_greps_reads_the_mentions_kept(project: ProjectFactory) -> None:
    """A name to search in more files than one grep is given, in git: the first run writes the
    caches, and the next reads the rules' mentions from them, without logging (which only
    markdown-it's parser brings, to read the mentions on a first run)."""
    files = {f"app/{'billing_' * 6}{n}.php": "<?php\n" for n in range(400)}
    rule = "---\npaths:\n  - 'app/**'\n---\n# Billing\n\nPrices go through `LegacyPriceHelper`.\n"
    old = "app/LegacyPriceHelper.php"
    root = project({".ai/rules/billing.md": rule, old: "<?php\nfinal class LegacyPriceHelper {}\n",
                    **files}, git=True)
    for step in (["add", "-A"], ["commit", "-qm", "start"], ["rm", "-q", old], ["commit", "-qm", "drop"]):
        subprocess.run(["git", "-C", str(root), *step], check=True, env={**ENV, **IDENTITY})
    assert sum(len(name) + 1 for name in files) > FIRST_CHUNK_BYTES  # more than one grep
    for run in ("first", "next"):
        (code, out), modules = check_importing(root, ENV, bare=True)
        assert code == 1 and "stale-name" in out and "LegacyPriceHelper" in out, (run, out)
        if run == "next":
            assert "logging" not in modules
        assert "rulelens.workspace.later" in modules  # the threads did run
        assert list((root / ".git/rulelens").glob("*.json"))  # the caches were written


def test_an_agent_file_with_globs_loads_its_dialect(project: ProjectFactory) -> None:
    root = project({".ai/rules/billing.md": RULE, "app/Money.php": "<?php\n",
                    ".continue/rules/money.md": "---\nglobs: app/**/*.{php,inc}\n---\n# Money\n",
                    ".cursor/rules/money.mdc": "---\nglobs: app/**\nalwaysApply: false\n---\n# M\n"})
    modules = loaded(root)
    assert {"wcmatch", "rulelens.glob_engines.minimatch"} <= modules
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
    (root / ".cursor/rules/money.mdc").write_text("---\nglobs: app/[A-Z]*.php\nalwaysApply: false\n---\n# M\n")
    assert "wcmatch" in loaded(root)
    (root / ".agents/skills/money/SKILL.md").write_text("---\nname: money\npaths:\n  - 'app/?oney.php'\n---\n# M\n")
    assert "pathspec" in loaded(root)  # a `?`: OpenHands' patterns are pathspec's
