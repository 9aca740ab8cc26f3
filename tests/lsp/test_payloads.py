"""The wire payloads: untrusted command arguments are read into the typed shapes, or dropped."""

from __future__ import annotations

import typing

from rulelens.lsp.wire import payloads


def test_record_rule_args_keep_only_strings() -> None:
    args = payloads.record_rule_args([{"glob": "app/**", "title": 3, "note": "n", "root": None,
                                       "uri": "file:///p/a.php", "extra": "x"}])
    assert args == {"glob": "app/**", "note": "n", "uri": "file:///p/a.php"}
    assert payloads.record_rule_args([]) == {}
    assert payloads.record_rule_args(["app/**"]) == {}


def test_open_rule_args_need_a_uri_and_an_integer_line() -> None:
    assert payloads.open_rule_args([{"uri": "file:///r.md", "line": 4}]) == {
        "uri": "file:///r.md", "line": 4}
    assert payloads.open_rule_args([{"uri": "file:///r.md"}]) == {"uri": "file:///r.md", "line": 0}
    assert payloads.open_rule_args([{"uri": "file:///r.md", "line": True}]) is None
    assert payloads.open_rule_args([{"line": 1}]) is None


def test_write_index_args_and_document_uri() -> None:
    assert payloads.write_index_args([{"root": "file:///p"}]) == {"root": "file:///p"}
    assert payloads.write_index_args([{"root": 1}]) == {}
    assert payloads.document_uri({"uri": "file:///a"}) == "file:///a"
    assert payloads.document_uri(type("P", (), {"uri": "file:///b"})()) == "file:///b"
    assert payloads.document_uri({"uri": 5}) is None


def test_the_contract_keys_are_camel_case_as_documented() -> None:
    """The keys clients read (docs/lsp.md, protocol.ts); renaming one breaks every client."""
    assert list(typing.get_type_hints(payloads.RulesForPath)) == [
        "uri", "root", "rootUri", "rulesFolder", "path", "kind", "rules", "agents", "agent"]
    assert list(typing.get_type_hints(payloads.AgentView)) == [
        "id", "name", "confirmed", "loads", "maybe", "overBudget"]
    assert list(typing.get_type_hints(payloads.AgentLoad)) == ["file", "uri", "how", "patterns", "bytes"]
    assert list(typing.get_type_hints(payloads.RuleForPath)) == [
        "file", "uri", "title", "line", "globs", "matched", "agentsSee", "agentsMissBecause",
        "entries"]
    assert list(typing.get_type_hints(payloads.GlobSuggestion)) == ["glob", "count"]
    assert payloads.RULES_FOR_PATH == "rulelens/rulesForPath"
    assert payloads.SUGGEST_GLOBS == "rulelens/suggestGlobs"
