"""A read-only workspace gets nothing written, not even the caches in git's folder.

The staleness findings read the caches that `check` left in `.git/rulelens/` and write none; what
the server computes stays in memory. A writable workspace keeps them (so the test can fail).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import diagnostics_after, open_doc, published
from tests.lsp.project import Project

RULE = ".ai/rules/billing.md"
TEXT = """\
---
paths:
  - 'app/**'
---

# Billing

## Invoices
Invoices are formatted by `LegacyPriceHelper`, in `app/Billing/Ledger.php`.
"""
GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}


def _committed(proj: Project) -> Path:
    """The project as a git repository whose history deleted what the rule names (so both
    staleness findings have their evidence); its cache folder."""
    proj.write(RULE, TEXT)
    proj.write("app/LegacyPriceHelper.php", "<?php\nclass LegacyPriceHelper {}\n")
    proj.write("app/Billing/Ledger.php", "<?php\nclass Ledger {}\n")
    steps = (["init", "-q"], ["add", "-A"], ["commit", "-qm", "start"],
             ["rm", "-q", "app/LegacyPriceHelper.php", "app/Billing/Ledger.php"],
             ["commit", "-qm", "Drop the legacy helper"])
    for args in steps:
        subprocess.run(["git", *args], cwd=proj.root, env=GIT_ENV, check=True, capture_output=True)
    return proj.root / ".git" / "rulelens"


def _stale(diags: list[types.Diagnostic]) -> bool:
    return {"stale-name", "stale-path"} <= {str(d.code) for d in diags}


async def _findings(client: LanguageClient, proj: Project) -> list[types.Diagnostic]:
    """Open the rule file and wait for the publication with its staleness findings."""
    uri = proj.uri(RULE)
    seen = published(client, uri)
    first = await open_doc(client, uri, TEXT)
    return first if _stale(first) else await diagnostics_after(client, uri, seen + 1, _stale)


def _state(folder: Path) -> dict[str, tuple[int, bytes]]:
    return {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in sorted(folder.iterdir())}


@pytest.mark.init({"readOnly": True})
async def test_read_only_writes_no_cache(client: LanguageClient, proj: Project) -> None:
    caches = _committed(proj)
    assert _stale(await _findings(client, proj))
    assert not caches.exists()


@pytest.mark.init({"readOnly": True})
async def test_read_only_leaves_the_caches_of_check_as_they_are(client: LanguageClient,
                                                                proj: Project) -> None:
    caches = _committed(proj)
    subprocess.run([sys.executable, "-m", "rulelens", "--root", str(proj.root), "check"],
                   capture_output=True, check=False)
    before = _state(caches)
    assert "name-search.json" in before and "mentions.json" in before
    assert _stale(await _findings(client, proj))
    assert _state(caches) == before


async def test_a_writable_workspace_keeps_its_caches(client: LanguageClient, proj: Project) -> None:
    caches = _committed(proj)
    assert _stale(await _findings(client, proj))
    assert {"name-search.json", "mentions.json"} <= set(_state(caches))
    # The parsed frontmatters are kept once the client is quiet after a source file's answer.
    proj.write("app/Invoice.php", "<?php\n")
    await open_doc(client, proj.uri("app/Invoice.php"), "<?php\n")
    for _ in range(200):
        if (caches / "frontmatter.json").exists():
            break
        await asyncio.sleep(0.05)
    kept = json.loads((caches / "frontmatter.json").read_bytes())
    assert {"paths": ["app/**"]} in kept["values"].values()
