"""The release "confirmed in" names is read from the agents' code facts, never written per agent."""

from __future__ import annotations

from rulelens.agents.facts import Fact, confirmed_note, release_of


def fact(source: str, kind: str = "code") -> Fact:
    return Fact("files", "claim", source, kind, "2026-12-05")  # type: ignore[arg-type]


def test_a_package_version_in_a_code_facts_source_is_the_release() -> None:
    assert release_of([fact("@anthropic-ai/claude-code-linux-x64@2.1.332 (npm), its embedded JavaScript")]) \
        == "2.1.332"
    assert release_of([fact("@qwen-code/qwen-code@0.24.4 (npm): packages/core/src/config/rulesDiscovery.ts")]) \
        == "0.24.4"


def test_commits_docs_and_other_kinds_name_no_release() -> None:
    assert release_of([fact("laravel/boost@8d8cb70 src/Rules/RuleRepository.php")]) is None
    assert release_of([fact("@github/copilot@1.0.102 (npm)", "docs")]) is None
    assert release_of([fact("https://example.com/a@1.2.3", "third-party")]) is None
    assert release_of([]) is None


def test_the_newest_of_several_releases_is_named() -> None:
    facts = [fact("a@1.9.0 (npm)"), fact("a@1.10.0 (npm)"), fact("a@1.2.30 (npm)")]
    assert release_of(facts) == "1.10.0"
    assert confirmed_note("Claude Code 2.1.337") == "confirmed in Claude Code 2.1.337"
