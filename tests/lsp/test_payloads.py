"""The wire payloads: untrusted command arguments are read into the typed shapes, or dropped."""

from __future__ import annotations

import re
import typing

from rulelens.lsp.wire import payloads
from tests.conftest import REPO


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
        "id", "name", "confirmed", "confirmedIn", "matcherConfirmedIn", "loads", "maybe", "overBudget", "cap"]
    assert list(typing.get_type_hints(payloads.AgentLoad)) == [
        "file", "uri", "how", "patterns", "bytes", "entries", "importedBy"]
    assert list(typing.get_type_hints(payloads.AgentCap)) == ["limit", "unit", "per", "source"]
    assert list(typing.get_type_hints(payloads.RuleForPath)) == [
        "file", "uri", "title", "line", "globs", "matched", "agentsSee", "agentsMissBecause",
        "agentsMissFix", "bytes", "entries"]
    assert list(typing.get_type_hints(payloads.RulesChanged)) == ["roots"]
    assert payloads.RULES_CHANGED == "rulelens/rulesChanged"
    assert list(typing.get_type_hints(payloads.GlobSuggestion)) == ["glob", "count"]
    assert payloads.RULES_FOR_PATH == "rulelens/rulesForPath"
    assert payloads.SUGGEST_GLOBS == "rulelens/suggestGlobs"


# -- the Neovim plugin names the same methods and kinds ---------------------------------------
NEOVIM = REPO / "neovim"
# Constants of neovim/lua/rulelens/init.lua and the payloads' names they must equal.
NEOVIM_NAMES = {
    "record_rule": payloads.RECORD_RULE,
    "record_kind": payloads.RECORD_KIND,
    "rules_for_path": payloads.RULES_FOR_PATH,
    "suggest_globs": payloads.SUGGEST_GLOBS,
    "verify_command": payloads.VERIFY,
}
_CONSTANT = re.compile(r"^M\.(\w+)\s*=\s*'([^']*)'", re.MULTILINE)
# A wire name written as a literal: `rulelens/x`, `rulelens.someCommand`, `source.rulelens.x`.
_WIRE = re.compile(r"""['"]((?:source\.)?rulelens(?:/\w+|\.[a-z]+[A-Z]\w*|\.record))['"]""")
_HOW = re.compile(r"\.how\s*==\s*'([^']*)'")


def neovim_constants(text: str) -> dict[str, str]:
    return dict(_CONSTANT.findall(text))


def test_neovim_names_the_methods_and_kinds_of_the_payloads() -> None:
    constants = neovim_constants((NEOVIM / "lua" / "rulelens" / "init.lua").read_text(encoding="utf-8"))
    assert {name: constants.get(name) for name in NEOVIM_NAMES} == NEOVIM_NAMES


def test_neovim_writes_no_other_wire_name() -> None:
    """Every rulelens method, command or kind written anywhere in the plugin is one of the
    payloads', and every `how` it tells apart is one the server sends."""
    known = {*payloads.COMMANDS, payloads.RECORD_KIND, payloads.RULES_FOR_PATH, payloads.SUGGEST_GLOBS}
    hows = {*typing.get_args(typing.get_type_hints(payloads.AgentLoad)["how"]),
            *typing.get_args(typing.get_type_hints(payloads.AgentMaybe)["how"])}
    written: set[str] = set()
    compared: set[str] = set()
    for lua in sorted(NEOVIM.rglob("*.lua")):
        text = lua.read_text(encoding="utf-8")
        written.update(m for m in _WIRE.findall(text) if m not in ("rulelens.record",))
        compared.update(_HOW.findall(text))
    assert written and written <= known, sorted(written - known)
    assert compared and compared <= hows, sorted(compared - hows)


def test_the_neovim_contract_test_can_fail() -> None:
    text = "M.record_rule = 'rulelens.recordrule'\nM.suggest_globs = 'rulelens/suggestGlobs'\n"
    constants = neovim_constants(text)
    assert constants["record_rule"] != NEOVIM_NAMES["record_rule"]
    assert "rules_for_path" not in constants
    assert _WIRE.findall("request(client, 'rulelens/rulesForPaths', p)") == ["rulelens/rulesForPaths"]
