"""Tests mirror the package (CONTRIBUTING.md, *Where a test goes*): under tests/unit (no process
starts) and tests/integration (tests that start git, grep or Python), each folder is a folder of
the package, and a per-agent test is `agents/formats/test_<agent>.py`, named after that agent's
module; none is left in tests/agents."""

from __future__ import annotations

from pathlib import Path

from tests.architecture.test_one_home import PACKAGE

TESTS = Path(__file__).resolve().parents[1]
MIRRORED = ("unit", "integration")


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


def test_the_unit_and_integration_trees_mirror_the_package() -> None:
    assert strays(TESTS, PACKAGE) == []


def test_per_agent_tests_live_in_the_mirror() -> None:
    assert agent_tests_elsewhere(TESTS, PACKAGE) == set()


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
