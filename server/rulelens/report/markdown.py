"""Markdown for a pull request comment (`review --format markdown`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulelens.report.words import change_how, departure, review_summary, unseen_reason

if TYPE_CHECKING:
    from rulelens.rules.review import Review


def escape(text: str) -> str:
    """Text in a Markdown comment: characters that would start markup are escaped."""
    return "".join("\\" + ch if ch in "\\`*_[]<>|#" else ch for ch in text)


def review(result: Review) -> str:
    lines = ["### Project rules for this change", "", escape(review_summary(result)) + "."]
    for m, changes in result.grouped():
        title = f" — {escape(m.rule.heading)}" if m.rule.heading else ""
        paths = ", ".join(f"`{c.path}`" for c in changes)
        lines += ["", f"**`{m.rule.rel}`**{title}, for {paths}", ""]
        why = unseen_reason(m)
        if why is not None:
            lines.append(f"> agents do not see this file: {escape(why)}")
            lines.append("")
        lines += [f"- {escape(e.title)}" for e in m.rule.entries] or ["- (no entries)"]
    unruled = result.unruled()
    if unruled:
        lines += ["", "No rule applies to " + ", ".join(f"`{c.path}`" for c in unruled) + "."]
    if result.touched:
        lines += ["", "**Rule files this change touches:** "
                  + ", ".join(f"`{c.path}` ({escape(change_how(c))})" for c in result.touched)]
    if result.emptied:
        lines += ["", "**Globs this change made match nothing:**", ""]
        lines += [f"- `{e.file}` line {e.line + 1}: `{e.glob}` "
                  f"({escape('; '.join(departure(c) for c in e.left))})" for e in result.emptied]
    return "\n".join(lines)
