"""A command that ends in a moment runs without garbage collection and freezes what it made
(cli/__init__.py); the servers, which run long, keep collecting as they choose."""

from __future__ import annotations

import os
import subprocess
import sys

from rulelens.cli.command_word import command_word
from tests.conftest import ProjectFactory

RULE = "---\npaths:\n  - 'app/**'\n---\n# Billing\n\nPrices go through `app/Money.php`.\n"
WATCH = """
import gc, sys
from rulelens.cli import main
seen = []
gc.callbacks.append(lambda phase, info: seen.append(phase))
code = main(["check", "--no-cache", "-q"])
print(len(seen), gc.isenabled(), gc.get_freeze_count() > 0, code, file=sys.stderr)
"""


def test_check_collects_nothing_and_leaves_collection_on(project: ProjectFactory) -> None:
    root = project({".ai/rules/billing.md": RULE, "app/Money.php": "<?php\n"}, git=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    run = subprocess.run([sys.executable, "-c", WATCH], cwd=root, capture_output=True, text=True,
                         check=False, env=env)
    collections, enabled, frozen, code = run.stderr.split()[-4:]
    assert (collections, enabled, frozen) == ("0", "True", "True"), run.stderr
    assert code in ("0", "1"), run.stderr  # findings or none: the run went to its end


def test_the_command_is_read_as_the_parser_reads_it() -> None:
    assert command_word(["serve"]) == "serve"
    assert command_word(["--root", "mcp", "check"]) == "check"
    assert command_word(["-q", "--root=x", "mcp", "--root", "y"]) == "mcp"
    assert command_word(["match", "serve"]) == "match"
    assert command_word(["--help"]) is None
