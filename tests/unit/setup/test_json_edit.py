"""JSON files people own are edited where their data changed, every other byte as it was."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rulelens.setup.json_edit import edited

ENTRY = {"command": "rulelens", "args": ["mcp"]}
# What Laravel Boost writes: four spaces, escaped slashes, no final newline.
BOOST = ('{\n    "mcpServers": {\n        "laravel-boost": {\n            "command": "php",\n'
         '            "args": [\n                "artisan",\n                "boost:mcp"\n'
         '            ]\n        }\n    },\n    "url": "http:\\/\\/x"\n}')


def _with(text: str, change: Any) -> str:
    old = json.loads(text)
    new = json.loads(text)
    change(new)
    out = edited(text, old, new)
    assert json.loads(out) == new
    return out


def test_boosts_file_gains_one_entry_and_nothing_else() -> None:
    out = _with(BOOST, lambda d: d["mcpServers"].__setitem__("rulelens", ENTRY))
    added = (',\n        "rulelens": {\n            "command": "rulelens",\n            "args": [\n'
             '                "mcp"\n            ]\n        }')
    at = BOOST.index("\n    },")
    assert out == BOOST[:at] + added + BOOST[at:]


@pytest.mark.parametrize(("text", "expected"), [
    ('{"mcpServers":{}}', '{"mcpServers":{"rulelens": {"command": "rulelens", "args": ["mcp"]}}}'),
    ('{\n\t"mcpServers": {}\n}\n',
     '{\n\t"mcpServers": {\n\t\t"rulelens": {\n\t\t\t"command": "rulelens",\n\t\t\t"args": [\n'
     '\t\t\t\t"mcp"\n\t\t\t]\n\t\t}\n\t}\n}\n'),
    ('{\r\n  "a": 1\r\n}',
     '{\r\n  "a": 1,\r\n  "mcpServers": {\r\n    "rulelens": {\r\n      "command": "rulelens",\r\n'
     '      "args": [\r\n        "mcp"\r\n      ]\r\n    }\r\n  }\r\n}'),
])
def test_indentation_line_endings_and_the_final_newline_are_the_files(text: str, expected: str) -> None:
    def add(d: dict[str, Any]) -> None:
        d.setdefault("mcpServers", {})["rulelens"] = ENTRY

    assert _with(text, add) == expected


def test_a_changed_member_is_rewritten_in_place_and_others_keep_their_escapes() -> None:
    text = '{\n  "x": "caf\\u00e9",\n  "mcpServers": {"rulelens": {"command": "old", "env": {"A": "1"}}}\n}'

    def change(d: dict[str, Any]) -> None:
        d["mcpServers"]["rulelens"]["command"] = "rulelens"
        d["mcpServers"]["rulelens"]["args"] = ["mcp"]

    assert _with(text, change) == ('{\n  "x": "caf\\u00e9",\n  "mcpServers": {"rulelens": {"command": '
                                   '"rulelens", "env": {"A": "1"}, "args": ["mcp"]}}\n}')


def test_removed_members_take_their_comma_with_them() -> None:
    text = '{\n  "keep": 1,\n  "drop": 2,\n  "last": 3\n}\n'
    assert _with(text, lambda d: d.pop("drop")) == '{\n  "keep": 1,\n  "last": 3\n}\n'
    assert _with(text, lambda d: d.pop("keep")) == '{\n  "drop": 2,\n  "last": 3\n}\n'
    assert _with(text, lambda d: d.pop("last")) == '{\n  "keep": 1,\n  "drop": 2\n}\n'
