"""How every surface says that agents miss a rule file: one line, the core's reason.

A rule file agents see gets no line at all, so the common case stays quiet.
"""

from __future__ import annotations

from rulelens.rules.model import Match

FALLBACK = "it is not in the committed index.md; run `rulelens index`."


def unseen_line(m: Match) -> str | None:
    """`Agents do not see this file: <why and how to fix>`, or None when they see it."""
    if m.agents_see:
        return None
    return f"Agents do not see this file: {m.agents_miss_because or FALLBACK}"
