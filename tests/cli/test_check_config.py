"""`rulelens check` with the project's configuration of findings and inline directives
(docs/configuration.md), as a real process, in every output format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_cli import run
from tests.conftest import ProjectFactory
from tests.git_repo import commit, git

RULE = """\
---
paths:
  - 'app/**'
  - 'app/Nowhere/**'
---

# App

## Sums
Call `OldInvoiceService::total` for sums.
"""
FILES = {".ai/rules/app.md": RULE, "app/Invoice.php": "<?php\n"}


@pytest.fixture
def project(project: ProjectFactory) -> ProjectFactory:
    """The project; in git, with the history that makes `OldInvoiceService` stale (a commit
    deleted its class: `stale-name` is reported on that evidence only)."""

    def make(files: dict[str, str | bytes] | None = None, git_repo: bool = False, **kw: bool) -> Path:
        in_git = git_repo or kw.get("git", False)
        root = project(files, git=in_git)
        if in_git:
            (root / "app/OldInvoiceService.php").write_text("<?php\nclass OldInvoiceService {}\n")
            commit(root, "start")
            git(root, "rm", "-q", "app/OldInvoiceService.php")
            commit(root, "drop the old service")
        return root

    return make  # type: ignore[return-value]


def findings(root: object, *extra: str) -> list[tuple[str, str]]:
    out = run(root, "check", "--json", *extra)  # type: ignore[arg-type]
    assert out.returncode in (0, 1), out.stderr
    return sorted((d["code"], d["severity"]) for d in json.loads(out.stdout) if d["code"] != "index-missing")


def test_without_configuration_every_finding_is_reported(project: ProjectFactory) -> None:
    root = project(FILES, git=True)
    # `app/Nowhere/**` beside the live `app/**`: a dead alternative, `info` (issue 44)
    assert findings(root) == [("glob-matches-nothing", "info"), ("stale-name", "warning")]


def test_inline_directives_silence_the_next_line_or_the_file_per_code(project: ProjectFactory) -> None:
    text = RULE.replace("## Sums", "<!-- rulelens-disable-next-line stale-name -->\n## Sums")
    root = project({**FILES, ".ai/rules/app.md": text}, git=True)
    assert findings(root) == [("glob-matches-nothing", "info"), ("stale-name", "warning")]  # not the next line
    text = RULE.replace("Call `Old", "<!-- rulelens-disable-next-line stale-name -->\nCall `Old")
    (root / ".ai/rules/app.md").write_text(text)
    assert findings(root) == [("glob-matches-nothing", "info")]
    text = RULE.replace("  - 'app/Nowhere/**'", "  # rulelens-disable-next-line glob-matches-nothing\n  - 'app/Nowhere/**'")
    (root / ".ai/rules/app.md").write_text(text + "\n<!-- rulelens-disable-file stale-name, entry-empty -->\n")
    assert findings(root) == []


def test_configured_severity_off_and_exclude(project: ProjectFactory) -> None:
    root = project({**FILES, "pyproject.toml": '[project]\nname = "x"\n\n[tool.rulelens.severity]\n'
                    'stale-name = "info"\nglob-matches-nothing = "off"\n'}, git=True)
    assert findings(root) == [("stale-name", "info")]
    assert run(root, "index").returncode == 0
    text = run(root, "check")
    assert text.returncode == 0, text.stdout  # an info finding fails nothing
    (root / "rulelens.toml").write_text('exclude = [".ai/rules/app.md"]\n')  # rulelens.toml comes first
    assert findings(root) == []


def test_sarif_and_github_annotations_follow_the_configuration(project: ProjectFactory) -> None:
    root = project({**FILES, "rulelens.toml": '[severity]\nstale-name = "info"\nglob-matches-nothing = "off"\n'},
                   git=True)
    sarif = json.loads(run(root, "check", "--format", "sarif").stdout)
    results = [(r["ruleId"], r["level"]) for r in sarif["runs"][0]["results"] if r["ruleId"] != "index-missing"]
    assert results == [("stale-name", "note")]
    github = run(root, "check", "--format", "github").stdout
    assert "glob-matches-nothing" not in github and "::notice" in github and "stale-name" in github


def test_a_broken_configuration_is_one_line_and_exit_2(project: ProjectFactory) -> None:
    cases = {
        'exclude = [\n': "rulelens: rulelens.toml: not valid TOML (",
        'exclude = ".ai"\n': "rulelens: rulelens.toml: `exclude` must be a list of globs",
        '[severity]\nstale-nam = "info"\n': "(did you mean `stale-name`?)",
        '[severity]\nstale-name = "loud"\n': "`severity.stale-name` is 'loud'; it must be one of error, warning, info, off.",
        'ignore = ["stale-name"]\n': "rulelens: rulelens.toml: unknown key `ignore`",
        'agents = ["claude"]\n': "`agents` names `claude`, which is no agent rulelens models (did you mean "
                                 "`claude-code`?)",
        'agents = "codex"\n': "`agents` must be a list of agent ids",
    }
    root = project(FILES)
    for text, expected in cases.items():
        (root / "rulelens.toml").write_text(text)
        out = run(root, "check")
        assert out.returncode == 2 and out.stdout == "", (text, out)
        assert expected in out.stderr and len(out.stderr.splitlines()) == 1, (text, out.stderr)
        assert "Traceback" not in out.stderr


def test_an_unknown_code_points_at_a_help_every_install_has(project: ProjectFactory) -> None:
    """A pip-installed rulelens has no docs folder: the error names `check --help`, which lists
    every code the configuration may name."""
    root = project(FILES)
    (root / "rulelens.toml").write_text('[severity]\nno-such-code = "off"\n')
    out = run(root, "check")
    assert out.returncode == 2
    assert "docs/" not in out.stderr and "`rulelens check --help` lists the codes" in out.stderr
    from rulelens.agents.codes import known_codes

    section = run(None, "check", "--help").stdout.split("\ncodes (", 1)[1].splitlines()[1:]
    listed = " ".join(line.strip() for line in section).split(", ")
    assert set(listed) == known_codes()
