"""Every test file the Markdown docs name exists: a test moved or renamed leaves no pointer to a
file that is gone (CONTRIBUTING, ARCHITECTURE, the CHANGELOG and docs/ name them as evidence,
and the package's docstrings name the tests that hold a module to its claims)."""

from __future__ import annotations

import re

from tests.conftest import REPO

# `tests/…` as the docs write it, up to the first character a path here never has.
NAMED = re.compile(r"\btests/[\w./-]*\w")


def named_paths(text: str) -> set[str]:
    return set(NAMED.findall(text))


def test_the_pattern_reads_a_path_as_written() -> None:
    text = "(`tests/unit/rules/format/test_reading.py` holds it), see tests/docs/. Or tests/x-y_z."
    assert named_paths(text) == {"tests/unit/rules/format/test_reading.py", "tests/docs", "tests/x-y_z"}


def test_every_test_path_the_docs_name_exists() -> None:
    docs = [*REPO.glob("*.md"), *(REPO / "docs").rglob("*.md"), *(REPO / "server" / "rulelens").rglob("*.py")]
    assert len(docs) > 100
    missing = sorted(f"{doc.relative_to(REPO)}: {path}" for doc in docs
                     for path in named_paths(doc.read_text(encoding="utf-8"))
                     if not (REPO / path).exists())
    assert missing == []
