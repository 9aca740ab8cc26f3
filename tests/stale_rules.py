"""Rule texts and finding lists that the staleness and conflict tests share, in and out of
tests/unit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulelens.rules.check.stale.words import present
from rulelens.rules.model import Problem

if TYPE_CHECKING:
    from rulelens.rules.check.stale.words import Search

CONFLICT = "<<<<<<< HEAD\n## Ours\nA.\n=======\n## Theirs\nB.\n>>>>>>> feature\n"


def rule_text(body: str, globs: str = "'app/**'") -> str:
    return f"---\npaths:\n  - {globs}\n---\n\n# Billing\n\n## The rule\n{body}\n"


def codes(problems: list[Problem], *wanted: str) -> list[tuple[str, int, str]]:
    return [(p.code, p.line + 1, p.message) for p in problems if p.code in wanted]


# Matches that overlap: `App\Support` hides `Support`, `a::b` hides `b::c`.
HIDING_TEXT = "use App\\Support;\nx a::b::c y\n"


def hidden_words_are_found(search: Search | None) -> None:
    """The same for grep's search and the one in Python: one scan reports non-overlapping
    matches only, and `present` finds the words they hid."""
    assert search is not None
    assert search(["App\\Support", "Support", "a::b", "b::c"]) == {"App\\Support", "a::b"}
    found = present(search, ["App\\Support", "Support", "a::b", "b::c", "Missing"])
    assert found == {"App\\Support", "Support", "a::b", "b::c"}
