"""Markdown: a pull request comment (`review --format markdown`), and the rules as an agent
reads them from `rulelens mcp`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulelens.report.words import change_how, departure, review_summary, unseen_reason
from rulelens.rules.format.reading import split_lines
from rulelens.rules.model import Entry, Match, RuleFile

if TYPE_CHECKING:
    from rulelens.agents.base import Agent
    from rulelens.agents.project import PathView
    from rulelens.report.agents import Loaded
    from rulelens.rules.review import Review


def escape(text: str) -> str:
    """Text in a Markdown comment: characters that would start markup are escaped."""
    return "".join("\\" + ch if ch in "\\`*_[]<>|#" else ch for ch in text)


def review(result: Review, loaded: list[Loaded] | None = None) -> str:
    """The comment; with `loaded` (`--agents`), the other agents' rule files too."""
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
    if loaded is not None:
        lines += _other_agents(loaded, len(result.matches))
    return "\n".join(lines)


def _other_agents(loaded: list[Loaded], changed: int) -> list[str]:
    from rulelens.report.agents import reach

    if not loaded:
        return ["", "No other agent's rule file loads for the changed files."]
    lines = ["", "**Other agents' rule files for the changed files:**", ""]
    for entry in loaded:
        where = (reach(entry, changed) if len(entry.paths) == changed
                 else ", ".join(f"`{p}`" for p in entry.paths))
        lines.append(f"- `{entry.file}` ({escape(', '.join(entry.agents))}): {where}")
    return lines


# -- for an agent (`rulelens mcp`; bench/context_cost.py measures it) -------------------------
SEARCH_LIMIT = 50


def entry_text(entry: Entry) -> str:
    return f"## {entry.title}\n{entry.note}".rstrip()


def preamble(rule: RuleFile) -> str:
    """Text between the `# Heading` (or frontmatter) and the first entry.

    It is part of the rules: a third of real rule files put guidance there (some hold nothing
    else), so leaving it out would make this route silently drop rules.
    """
    lines = split_lines(rule.text)
    start = rule.frontmatter_lines[1] + 1 if rule.frontmatter_lines else 0
    if rule.heading_line is not None:
        start = max(start, rule.heading_line + 1)
    end = rule.entries[0].line if rule.entries else len(lines)
    return "\n".join(lines[start:end]).strip()


def render_matches(matches: list[Match]) -> str:
    """The applying rules: one `# <rule file>` line per file, then its preamble and entries."""
    blocks = []
    for match in matches:
        parts = [f"# {match.rule.rel}"]
        if not match.agents_see:
            parts.append(f"(Agents do not see this file: {match.agents_miss_because})")
        intro = preamble(match.rule)
        if intro:
            parts.append(intro)
        parts.extend(entry_text(e) for e in match.rule.entries)
        blocks.append("\n\n".join(parts))
    return "\n\n".join(blocks) + "\n" if blocks else ""


def render_search(hits: list[tuple[RuleFile, Entry]], query: str) -> str:
    if not hits:
        return f"No rule entries contain {query!r}."
    shown = [f"{rule.rel}:{entry.line + 1}\n{entry_text(entry)}" for rule, entry in
             hits[:SEARCH_LIMIT]]
    if len(hits) > SEARCH_LIMIT:
        shown.append(f"... and {len(hits) - SEARCH_LIMIT} more entries; narrow the query.")
    return "\n\n".join(shown) + "\n"


def render_agent_loads(rel: str, loads: dict[str, list[tuple[str, str]]]) -> str:
    """What the agents' own files give for a path, in a project whose rules are not (only) in
    `.ai/rules`: each file once, with the agents that load it and how. `loads`: by file, the
    (agent name, how) pairs, in the order the agents were asked."""
    if not loads:
        return f"No project rules apply to {rel}: no agent's rule file loads for it."
    lines = [f"The agents' own rule files that load for {rel} (read each one before you edit it):"]
    for file, readers in loads.items():
        hows = sorted({how for _, how in readers})
        names = ", ".join(dict.fromkeys(name for name, _ in readers))
        lines.append(f"- {file}: {names} ({', '.join(hows)})")
    return "\n".join(lines) + "\n"


def render_agent_search(hits: list[tuple[str, int, str]], query: str) -> str:
    """Lines of the agents' own rule files holding the query: `file:line` then the line."""
    if not hits:
        return f"No rule entries or agent rule files contain {query!r}."
    shown = [f"{file}:{line}\n{text}" for file, line, text in hits[:SEARCH_LIMIT]]
    if len(hits) > SEARCH_LIMIT:
        shown.append(f"... and {len(hits) - SEARCH_LIMIT} more lines; narrow the query.")
    return "\n\n".join(shown) + "\n"


def render_imported(present: list[Agent], view: PathView) -> str:
    """The files agents load for the path because another file imports them with `@path` (the
    rules index a `CLAUDE.md` points to), each with the agents and where it is imported: an agent
    asking for the path's rules has these in its context too. Empty when there are none."""
    found: dict[str, list[str]] = {}
    for agent in present:
        for load in view.loads.get(agent.id, []):
            if load.via is not None:
                when = {"always": "at start", "directory": "with its folder's file",
                        "glob": "with its importer"}[load.how]
                found.setdefault(load.file, []).append(f"{agent.name} {when}, imported by `{load.via}`")
    if not found:
        return ""
    lines = [f"Files agents also load for {view.path} through `@` imports:"]
    lines += [f"- `{file}`: {'; '.join(who)}" for file, who in found.items()]
    return "\n".join(lines)
