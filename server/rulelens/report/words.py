"""The phrases every surface shares, so a thing is said one way wherever it is shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulelens.rules.format.reading import MAX_BYTES
from rulelens.rules.model import Match, RuleFile, cannot_read

if TYPE_CHECKING:
    from rulelens.rules.review import Change, Review

# How an agent may load a file it does not load on its own (agents.model.MaybeHow).
MAYBE = {"agent-decides": "the model decides", "manual": "on request",
         "start-folder": "only if started in its folder"}


def maybe_words(how: str, file: str, agent: str, via: str | None = None) -> str:
    """Why a maybe file may load, in a sentence's words: a folder's file says which folder (an
    imported one its importer's: `via`, "pkg/QWEN.md:3")."""
    if how == "start-folder":
        folder = (via.rpartition(":")[0] if via else file).rpartition("/")[0]
        imported = f"imported by {via}, " if via else ""
        return f"{imported}only when {agent} is started in {folder}/ or below"
    return MAYBE[how]


def plural(n: int, word: str) -> str:
    """`1 error`, `2 errors`: for the nouns rulelens counts, which all take an `s`."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def rule_files_apply(count: int) -> str:
    return "1 rule file applies" if count == 1 else f"{count} rule files apply"


def is_cut(rule: RuleFile) -> bool:
    """Whether only the start of the file was read (it is larger than rulelens reads)."""
    return any(p.code == "file-too-large" for p in rule.problems)


CUT = (f"this file is cut: rulelens reads only its first {MAX_BYTES // 2**20} MiB, so the entries "
       "after that are not shown")


def unread_lines(rules: list[RuleFile]) -> list[str]:
    """One line per rule file rulelens could not read, whose rules for any path are unknown."""
    return [f"{cannot_read(r)}; any rules it holds for this path are not shown" for r in rules]


def unseen_reason(m: Match) -> str | None:
    """Why agents do not see a matching rule file, or None when they do."""
    if m.agents_see:
        return None
    return m.agents_miss_because or "it is not in the committed index.md; run `rulelens index`."


# Where plain `match` or `review` finds no rule: they read Boost's `.ai/rules` alone, which a
# project whose rules are all `.claude/rules` or `AGENTS.md` has none of.
AGENTS_HINT = ("Only .ai/rules is read without --agents; add --agents for the rule files every other "
               "agent loads (CLAUDE.md, .claude/rules, AGENTS.md, ...).")
AGENTS_WHICH = "Add --agents for which agent loads which of them, and how."


# -- review -----------------------------------------------------------------------------------
def change_how(change: Change) -> str:
    """`modified`, `renamed from old/path`, ..."""
    if change.old is not None:
        return f"{'renamed' if change.status == 'renamed' else 'copied'} from {change.old}"
    return change.status


def departure(change: Change) -> str:
    if change.status == "renamed":
        return f"{change.old} was renamed to {change.path}"
    return f"{change.path} was deleted"


def review_summary(result: Review) -> str:
    counts: dict[str, int] = {}
    for c in result.changes:
        counts[c.status] = counts.get(c.status, 0) + 1
    parts = ", ".join(f"{n} {status}" for status, n in counts.items())
    return f"{plural(len(result.changes), 'changed file')} against {result.base}" + (
        f" ({parts})" if parts else "")
