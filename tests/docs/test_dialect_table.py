"""docs/configuration.md's list of how agents read a glob without a slash is the agents' models,
as `glob-dialect`'s message is: a sentence about an agent cannot go stale on its own."""

from __future__ import annotations

from pathlib import Path

from rulelens.agents.dialect_words import depths

DOC = Path(__file__).parents[2] / "docs" / "configuration.md"
BEGIN, END = "<!-- depth-table:begin -->\n", "<!-- depth-table:end -->"


def current_list() -> str:
    found = depths("*.php")
    rows = [("any", "At any depth (`src/x.php` too)"), ("root", "Only at the root (`x.php` alone)")]
    out = []
    for key, how in rows:
        names = [*found[key], *(f"{n} (probably: its matcher is not confirmed)" for n in found[key + "?"])]
        out.append(f"- {how}: {', '.join(names) or 'none'}.\n")
    return "".join(out)


def test_the_doc_s_list_is_the_models() -> None:
    """Regenerate with: python -c 'from tests.docs.test_dialect_table import write; write()'."""
    text = DOC.read_text(encoding="utf-8")
    assert BEGIN in text and END in text
    assert text[text.index(BEGIN) + len(BEGIN):text.index(END)] == current_list()


def test_claude_code_s_released_matcher_reads_a_name_at_any_depth() -> None:
    assert "Claude Code" in depths("*.php")["any"]


def write() -> None:
    text = DOC.read_text(encoding="utf-8")
    DOC.write_text(text[:text.index(BEGIN) + len(BEGIN)] + current_list() + text[text.index(END):],
                   encoding="utf-8")
