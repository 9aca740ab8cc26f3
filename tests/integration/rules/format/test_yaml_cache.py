"""Parsed frontmatters kept between runs (rules/format/yaml_cache.py): a second reading gives the
same rule files without parsing, and only what JSON holds exactly is kept."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from rulelens.check_project import check_project
from rulelens.rules.format import reading
from rulelens.rules.format.yaml_cache import NAME, FrontmatterCache
from rulelens.rules.repository import RuleRepository

RULE = """---
paths:
  - 'app/**'
  - "src/*.ts"
---

# Billing

## Cents
Money is integer cents.
"""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    (root / ".ai" / "rules").mkdir(parents=True)
    (root / "app").mkdir()
    (root / "app" / "a.php").write_text("<?php\n")
    (root / ".ai" / "rules" / "billing.md").write_text(RULE)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def _cache_path(root: Path) -> Path:
    out = subprocess.run(["git", "-C", str(root), "rev-parse", "--path-format=absolute", "--git-path",
                          NAME], capture_output=True, text=True, check=True)
    return Path(out.stdout.strip())


def test_check_keeps_the_frontmatters_and_the_next_reading_does_not_parse(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = check_project(RuleRepository(repo))
    assert _cache_path(repo).is_file()
    before = RuleRepository(repo).files

    def no_parse(source: str) -> Any:
        raise AssertionError("parsed again")

    monkeypatch.setattr(reading, "strict_load", no_parse)
    after = RuleRepository(repo).files
    assert [(f.strict_paths, f.glob_items, f.problems) for f in after] == \
        [(f.strict_paths, f.glob_items, f.problems) for f in before]
    assert check_project(RuleRepository(repo)).problems == first.problems


def test_a_reading_alone_writes_nothing(repo: Path) -> None:
    assert RuleRepository(repo).files
    assert not _cache_path(repo).exists()


def test_only_jsons_types_are_kept_and_errors_are_not(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    cache = FrontmatterCache(tmp_path)
    calls: list[str] = []

    def load(text: str) -> Any:
        calls.append(text)
        if text == "bad":
            raise ValueError(text)
        return {"paths": ["a/**"], "n": 1.5} if text == "plain" else {1: b"bytes"}

    for _ in range(2):
        assert cache.parse("x", "plain", load) == {"paths": ["a/**"], "n": 1.5}
        assert cache.parse("x", "other", load) == {1: b"bytes"}
        with pytest.raises(ValueError):
            cache.parse("x", "bad", load)
    assert calls == ["plain", "other", "bad", "other", "bad"]
    cache.save()
    stored = json.loads(_cache_path(tmp_path).read_bytes())["values"]
    assert list(stored.values()) == [{"paths": ["a/**"], "n": 1.5}]
    again = FrontmatterCache(tmp_path)
    value = again.parse("x", "plain", load)
    value["paths"].append("changed")  # each caller gets its own value
    assert again.parse("x", "plain", load) == {"paths": ["a/**"], "n": 1.5}
    assert calls == ["plain", "other", "bad", "other", "bad"]


def test_a_broken_cache_is_ignored(repo: Path) -> None:
    where = _cache_path(repo)
    where.parent.mkdir(parents=True, exist_ok=True)
    where.write_text("{not json")
    assert RuleRepository(repo).files[0].strict_paths == ["app/**", "src/*.ts"]
    check_project(RuleRepository(repo))
    assert json.loads(where.read_bytes())["format"] == "rulelens-frontmatter"
