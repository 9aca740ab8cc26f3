"""Inline directives (rules/check/suppress.py) and `configured()` (rules/check/config.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelens.rules.check.config import Config, ConfigError, configured, load_config
from rulelens.rules.check.suppress import suppressions
from rulelens.rules.model import Problem

TEXT = """\
---
paths:
  # rulelens-disable-next-line glob-matches-nothing
  - 'a/**'
---
# A rulelens-disable-file heading is text, not a directive
<!-- rulelens-disable-next-line stale-name, stale-path -->
<!-- rulelens-disable-next-line rule-drift -->
Uses `Old`.
<!-- rulelens-disable-next-line -->
Anything.
Text <!-- rulelens-disable-file glob-dialect --> around it.
"""


def test_directives_in_frontmatter_body_and_file() -> None:
    s = suppressions(TEXT)
    assert s.lines == {3: {"glob-matches-nothing"}, 8: {"stale-name", "stale-path", "rule-drift"},
                       10: {"*"}}
    assert s.file == {"glob-dialect"}
    assert s.silences(8, "stale-path") and not s.silences(8, "entry-empty")
    assert s.silences(10, "anything") and s.silences(0, "glob-dialect")
    assert not s.silences(5, "heading")


def test_a_yaml_comment_outside_the_frontmatter_is_no_directive() -> None:
    assert suppressions("# rulelens-disable-file stale-name\n").file == set()


def test_configured_drops_and_overrides() -> None:
    p = [Problem("r.md", 8, "warning", "stale-name", "m"), Problem("r.md", 9, "warning", "stale-name", "m"),
         Problem("x/y.md", 0, "error", "no-paths", "m"), Problem("r.md", 1, "info", "glob-dialect", "m")]
    config = Config("rulelens.toml", {"stale-name": "error", "glob-dialect": "off"}, ("x/",))
    texts = {"r.md": TEXT}
    assert [(q.line, q.severity) for q in configured(p, config, texts.get)] == [(9, "error")]
    assert configured(p, Config(), lambda rel: None) == p


def test_load_config_prefers_rulelens_toml_and_rereads_a_changed_file(tmp_path: Path) -> None:
    assert load_config(tmp_path) == Config()
    (tmp_path / "pyproject.toml").write_text('[tool.rulelens]\nexclude = ["a"]\n')
    assert load_config(tmp_path).exclude == ("a",)
    (tmp_path / "rulelens.toml").write_text('exclude = ["bb"]\n')
    assert load_config(tmp_path) == Config("rulelens.toml", {}, ("bb",))
    (tmp_path / "rulelens.toml").write_text("[severity]\nno-paths = 3\n")
    with pytest.raises(ConfigError, match=r"`severity.no-paths` is 3; it must be one of"):
        load_config(tmp_path)
