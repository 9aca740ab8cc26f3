"""YAML errors in a rule file's frontmatter, in plain words at the line to change: one case per
kind of mistake people make, read through the rule file reader as `check` and editors read it."""

from __future__ import annotations

import pytest

from tests.unit.rules.format.test_reading import read

BODY = "\n# A\n\n## X\nY.\n"


@pytest.mark.parametrize(("frontmatter", "line", "words", "quote"), [
    # (frontmatter lines, the 1-based line of the file at fault, words said, the quoting hint or None)
    (["paths:", "  - 'app/**'", "  ? x"], 4, "starts with `? ` is a YAML complex key", None),
    (["paths:", "  - 'app/**'", " description: x"], 4, "not indented as the lines above it", None),
    (["paths:", "\t- 'app/**'"], 3, "a tab indents this line", None),
    (["paths:", "  - 'app/**'", "description: Note: this"], 4, "a second `: ` on this line", None),
    (["paths:", "  - 'app/**", "description: x"], 3, "a quote opened on this line is not closed", None),
    (["paths:", "  - 'app/**'", "description", "other: x"], 4, "neither `key: value` nor a `- item`", None),
    (["paths:", "  - *.php"], 3, "`*` or `&` starts a YAML alias", "Quote the glob: - '*.php'."),
    (["paths:", "  - '*.php'", "  - @app/x.php"], 4, "cannot start with `@`", "Quote the glob: - '@app/x.php'."),
])
def test_the_error_says_what_to_change_and_where(frontmatter: list[str], line: int, words: str,
                                                 quote: str | None) -> None:
    rule = read("---\n" + "\n".join(frontmatter) + "\n---\n" + BODY)
    (found,) = [p for p in rule.problems if p.code == "frontmatter-invalid"]
    assert found.line + 1 == line, found
    assert words in found.message
    for token in ("<block end>", "<block mapping start>", "expected <", "but found", "scanning"):
        assert token not in found.message
    if quote is None:
        assert "Quote" not in found.message  # no hint about quoting where quoting mends nothing
    else:
        assert found.message.endswith(quote)


def test_other_agents_files_are_told_the_same_way() -> None:
    from rulelens.agents.reading import parse_agent_text

    f = parse_agent_text("---\nglobs: app/**\ndescription: a: b\n---\nX\n", ".cursor/rules/a.mdc", "cursor")
    assert f.yaml_error is not None and f.yaml_error.startswith("a second `: ` on this line")
    assert f.yaml_error_line == 2  # 0-based: `description: a: b`
