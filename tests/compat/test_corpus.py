"""Boost compatibility on real repositories' rules (skipped where ../shared/corpus is absent)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, SHARED

CORPUS = SHARED / "corpus"
HAND_EDITED_OR_STALE = {"lattice-php+lattice", "tmwclaxton+snitch"}

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")

sys.path.insert(0, str(REPO / "bench"))


def corpus_rows():  # type: ignore[no-untyped-def]
    from compat_corpus import rows

    return {r.repo: r for r in rows(CORPUS)}


def test_every_untouched_boost_index_is_reproduced_byte_for_byte() -> None:
    boost = {name: r for name, r in corpus_rows().items() if r.committed == "boost"}
    assert len(boost) >= 6
    for name, row in boost.items():
        assert row.identical is (name not in HAND_EDITED_OR_STALE), name


def test_stale_indexes_fail_index_check_and_show_in_check(tmp_path: Path) -> None:
    import shutil

    for name in sorted(HAND_EDITED_OR_STALE):
        root = tmp_path / name
        shutil.copytree(CORPUS / name / "rules", root / ".ai" / "rules")
        out = subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "index", "--check"],
                             capture_output=True, text=True, check=False)
        assert out.returncode == 1, name
        check = subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "check", "--json"],
                               capture_output=True, text=True, check=False)
        assert check.returncode == 1
        assert '"code": "index-stale"' in check.stdout


def test_both_readings_agree_and_every_listed_file_resolves(tmp_path: Path) -> None:
    import shutil

    from rulelens.rules.repository import RuleRepository

    for repo_dir in sorted(d for d in CORPUS.iterdir() if (d / "rules").is_dir()):
        root = tmp_path / repo_dir.name
        shutil.copytree(repo_dir / "rules", root / ".ai" / "rules")
        repo = RuleRepository(root)
        for rule in repo.files:
            if rule.strict_ok:
                assert rule.lenient_paths == rule.strict_paths, rule.rel
        listed = (repo_dir / "files.txt").read_text().splitlines()
        matched = sum(1 for path in listed if repo.rules_for(path))
        indexed = [r for r in repo.files if r.strict_paths]
        assert matched > 0 or not indexed, repo_dir.name
