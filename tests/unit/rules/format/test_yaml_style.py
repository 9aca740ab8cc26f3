"""Globs are dumped in Symfony YAML's style, byte for byte (SPEC §3 'What Boost writes')."""

import pytest
import yaml

from rulelens.rules.format.yaml_style import dump_scalar, paths_block


@pytest.mark.parametrize(
    ("glob", "written"),
    [
        ("app/Http/Controllers/**", "'app/Http/Controllers/**'"),
        ("app/Data/ListQuery.php", "app/Data/ListQuery.php"),
        ("app/tab\there/**", '"app/tab\\there/**"'),
        ("it's/**", '"it\'s/**"'),
        ("it's", '"it\'s"'),
        ("a b/**.php", "'a b/**.php'"),
        ("{a,b}/x", "'{a,b}/x'"),
        ("-x/y", "'-x/y'"),
        ("@scope/pkg", "'@scope/pkg'"),
        ("`x`", "'`x`'"),
        ("yes", "'yes'"),
        ("Off", "'Off'"),
        ("null", "'null'"),
        ("~", "'~'"),
        ("123", "'123'"),
        ("1.5e3", "'1.5e3'"),
        ("2024-01-31", "'2024-01-31'"),
        ("routes/web.php", "routes/web.php"),
        ("x?.php", "'x?.php'"),
        ("a#b", "'a#b'"),
        ("a&b", "'a&b'"),
        ("a:b", "'a:b'"),
    ],
)
def test_dump_scalar(glob: str, written: str) -> None:
    assert dump_scalar(glob) == written


@pytest.mark.parametrize("glob", ["app/**", "it's/**", "a\tb", "yes", "ü/**/*.php", "x'y z"])
def test_dumped_scalar_reads_back(glob: str) -> None:
    assert yaml.safe_load(dump_scalar(glob)) == glob


def test_quote_style_with_an_apostrophe_is_the_shorter_one() -> None:
    assert dump_scalar("it's a '*'") == '"it\'s a \'*\'"'
    assert dump_scalar("it's\\x\\y") == "'it''s\\x\\y'"
    assert yaml.safe_load(dump_scalar("it's\\x\\y")) == "it's\\x\\y"


def test_paths_block_in_crlf() -> None:
    assert paths_block(["a/**", "b.php"], "\r\n") == "paths:\r\n  - 'a/**'\r\n  - b.php\r\n"


def test_hex_and_underscored_digits_are_quoted_but_not_octal_as_symfony_does() -> None:
    from rulelens.rules.format.yaml_style import dump_scalar

    assert [dump_scalar(v) for v in ("0x1F", "1_000", "0o17")] == ["'0x1F'", "'1_000'", "0o17"]
