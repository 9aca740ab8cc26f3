"""Tests mirror the package (CONTRIBUTING.md, *Where a test goes*): under tests/unit (no process
starts) and tests/integration (tests that start git, grep or Python), each folder is a folder of
the package, and a per-agent test is `agents/formats/test_<agent>.py`, named after that agent's
module; none is left in tests/agents. The tests that run an agent's release sit in
tests/conformance (or start it from tests/integration): no other test imports its harness or
reaches into a pinned package, but for the few surface tests listed in SURFACES_ON_A_RELEASE."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from tests.architecture.test_one_home import PACKAGE

TESTS = Path(__file__).resolve().parents[1]
MIRRORED = ("unit", "integration")
# Where a test may run an agent's pinned release.
ON_RELEASES = ("conformance", "integration")
# Tests of a front that drive a pinned binary through it (a command or a hover needs a real
# agent's run). Each waits for a home under tests/conformance or tests/integration that has
# the front's fixtures; the list must shrink, never grow: the check fails on any change.
SURFACES_ON_A_RELEASE = {
    "cli/test_action.py": "the GitHub action's `verify` with Claude Code pinned",
    "editors/test_neovim.py": "Neovim's verify command against Claude Code",
    "lsp/test_observed_session.py": "a real Claude Code session shown in the hover",
    "lsp/test_verify.py": "`rulelens.verify` through workspace/executeCommand",
}


def strays(tests: Path, package: Path) -> list[str]:
    """Folders of the mirrored trees that are no folder of the package, and agent tests named
    after no agent module."""
    out: list[str] = []
    for top in MIRRORED:
        base = tests / top
        for folder in sorted(p for p in base.rglob("*") if p.is_dir() and p.name != "__pycache__"):
            rel = folder.relative_to(base)
            if not (package / rel).is_dir():
                out.append(f"{top}/{rel.as_posix()}: no such package folder")
        for test in sorted((base / "agents" / "formats").glob("test_*.py")):
            if not (package / "agents" / "formats" / f"{test.stem.removeprefix('test_')}.py").is_file():
                out.append(f"{top}/agents/formats/{test.name}: no such agent module")
    return out


def agent_tests_elsewhere(tests: Path, package: Path) -> set[str]:
    """Test files in tests/agents named after an agent module: they belong in the mirror."""
    modules = {p.stem for p in (package / "agents" / "formats").glob("*.py") if p.stem != "__init__"}
    return {p.name for p in (tests / "agents").glob("test_*.py") if p.stem.removeprefix("test_") in modules}


def pinned_packages(tests: Path) -> set[str]:
    """The npm packages tests/conformance pins, one folder per agent."""
    return {name for manifest in (tests / "conformance").glob("*/package.json")
            for name in json.loads(manifest.read_text(encoding="utf-8")).get("dependencies", {})}


def python_files(tests: Path, skip: tuple[str, ...]) -> list[Path]:
    """The Python files under tests, but for the top folders in `skip` and any node_modules
    (an installed package is no test, and walking one costs seconds)."""
    out: list[Path] = []
    for folder, dirs, files in os.walk(tests):
        here = Path(folder)
        dirs[:] = [d for d in dirs if d not in ("node_modules", "__pycache__")
                   and not (here == tests and d in skip)]
        out.extend(here / f for f in files if f.endswith(".py"))
    return out


def on_a_release(tests: Path) -> set[str]:
    """Test modules outside ON_RELEASES that import the conformance harness (an import of
    `tests.conformance…`, at the top or inside a test) or name a path inside a pinned package
    (`node_modules/<package>`)."""
    inside = "|".join(re.escape(f"node_modules/{name}") for name in sorted(pinned_packages(tests)))
    mark = re.compile(r"^\s*(?:from|import)\s+tests\.conformance\b" + (f"|{inside}" if inside else ""),
                      re.MULTILINE)
    return {path.relative_to(tests).as_posix() for path in python_files(tests, ON_RELEASES)
            if mark.search(path.read_text(encoding="utf-8"))}


def test_the_unit_and_integration_trees_mirror_the_package() -> None:
    assert strays(TESTS, PACKAGE) == []


def test_per_agent_tests_live_in_the_mirror() -> None:
    assert agent_tests_elsewhere(TESTS, PACKAGE) == set()


def test_only_conformance_and_integration_run_the_releases() -> None:
    assert "@anthropic-ai/claude-code-linux-x64" in pinned_packages(TESTS)
    assert on_a_release(TESTS) == set(SURFACES_ON_A_RELEASE)


def test_the_rules_can_fail(tmp_path: Path) -> None:
    package, tests = tmp_path / "pkg", tmp_path / "tests"
    (package / "agents" / "formats").mkdir(parents=True)
    (package / "agents" / "formats" / "amp.py").write_text("")
    (tests / "unit" / "agents" / "formats").mkdir(parents=True)
    (tests / "unit" / "agents" / "formats" / "test_amp.py").write_text("")
    (tests / "unit" / "agents" / "formats" / "test_kiro.py").write_text("")
    (tests / "unit" / "cli").mkdir()
    (tests / "agents").mkdir()
    (tests / "agents" / "test_amp.py").write_text("")
    assert strays(tests, package) == ["unit/cli: no such package folder",
                                      "unit/agents/formats/test_kiro.py: no such agent module"]
    assert agent_tests_elsewhere(tests, package) == {"test_amp.py"}


def test_the_release_rule_can_fail(tmp_path: Path) -> None:
    (tmp_path / "conformance" / "amp").mkdir(parents=True)
    (tmp_path / "conformance" / "amp" / "package.json").write_text('{"dependencies": {"@amp/cli": "1"}}')
    (tmp_path / "conformance" / "amp" / "test_conformance.py").write_text("from tests.conformance import harness\n")
    (tmp_path / "integration").mkdir()
    (tmp_path / "integration" / "test_run.py").write_text("BINARY = 'node_modules/@amp/cli/amp'\n")
    (tmp_path / "lsp").mkdir()
    (tmp_path / "lsp" / "test_hover.py").write_text("from tests.conformance.harness import installed\n")
    (tmp_path / "lsp" / "test_run.py").write_text("BINARY = 'node_modules/@amp/cli/amp'\n")
    (tmp_path / "lsp" / "test_words.py").write_text("# tests/conformance/amp and @amp/cli, named only\n")
    assert on_a_release(tmp_path) == {"lsp/test_hover.py", "lsp/test_run.py"}
