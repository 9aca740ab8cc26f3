"""Plain text for a person at a terminal: `match`, `match --agents`, `check` and `review`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulelens.report.colour import PLAIN, Palette
from rulelens.report.words import (
    AGENTS_HINT,
    AGENTS_WHICH,
    CUT,
    change_how,
    departure,
    is_cut,
    plural,
    review_summary,
    rule_files_apply,
    unseen_reason,
)
from rulelens.rules.model import Match, Problem

if TYPE_CHECKING:
    from rulelens.check_project import ProjectCheck
    from rulelens.report.agents import Loaded
    from rulelens.rules.path_rules import FileRules, FolderRules
    from rulelens.rules.review import Review

NO_RULES = "no {} folder: nothing to check."


# -- match ------------------------------------------------------------------------------------
def _applies(matches: list[Match]) -> str:
    count = rule_files_apply(len(matches))
    unseen = sum(not m.agents_see for m in matches)
    if unseen:
        count += f" ({unseen} of them not seen by agents)" if len(matches) > 1 else " (not seen by agents)"
    return count


def _rule(m: Match, paint: Palette, suffix: str = "") -> list[str]:
    lines = [f"\n  {paint('path', m.rule.rel)}  (matched by {', '.join(m.matched or m.globs)}){suffix}"]
    why = unseen_reason(m)
    if why is not None:
        lines.append(paint("warning", f"    agents do not see this file: {why}"))
    if is_cut(m.rule):
        lines.append(paint("warning", f"    {CUT}"))
    for e in m.rule.entries:
        lines.append(f"    ## {e.title}  [{m.rule.rel}:{e.line + 1}]")
        lines.extend(f"       {line}" for line in e.note.splitlines())
    return lines


def file_rules(result: FileRules, paint: Palette = PLAIN) -> str:
    head = f"{result.path}: {_applies(result.matches)}"
    return "\n".join([head, *(line for m in result.matches for line in _rule(m, paint))])


def agents_lead(path: str, loaded: list[str], has_rules: bool) -> str:
    """A file no `.ai/rules` file applies to, led by what the agents load for it instead."""
    where = "no .ai/rules file applies" if has_rules else "there is no .ai/rules folder"
    shown = ", ".join(loaded[:4]) + (f" and {len(loaded) - 4} more" if len(loaded) > 4 else "")
    verb = "loads" if len(loaded) == 1 else "load"
    return f"{path}: {plural(len(loaded), 'agent rule file')} {verb} for it ({shown}); {where}."


def folder_rules(result: FolderRules, paint: Palette = PLAIN) -> str:
    files = plural(result.files, "file")
    head = f"{result.path} is a folder ({files} below it): {_applies([m for m, _ in result.pairs])}"
    body = [line for m, n in result.pairs for line in _rule(m, paint, f", to {n} of them")]
    return "\n".join([head, *body])


# -- check ------------------------------------------------------------------------------------
def problem(p: Problem, paint: Palette = PLAIN) -> str:
    where = paint("path", f"{p.file}:{p.line + 1}:{p.col + 1}:")
    return f"{where} {paint(p.severity, p.severity)} [{p.code}] {p.message}"


def counted(result: ProjectCheck) -> str:
    """`N rule files checked`, and which: the rules folder's and each other agent's."""
    total = plural(result.files_checked, "rule file")
    if not result.agent_files:
        return f"{total} checked in {result.rules_dir}"
    parts = [f"{result.rule_files} in {result.rules_dir}"] if result.has_rules else []
    others = [f for files in result.agent_files.values() for f in files]
    if len(others) <= 3:  # a few files are named; many are counted, so the line stays one line
        parts.extend(others)
    else:
        agents = len(result.other_agents) or len(result.agent_files)
        parts.append(f"{len(others)} read by {'another agent' if agents == 1 else f'{agents} other agents'}")
    return f"{total} checked ({', '.join(parts)})"


def check_summary(result: ProjectCheck) -> str:
    errors = sum(p.severity == "error" for p in result.problems)
    warnings = sum(p.severity == "warning" for p in result.problems)
    infos = len(result.problems) - errors - warnings
    return f"{counted(result)}: {plural(errors, 'error')}, {plural(warnings, 'warning')}, {infos} info."


# -- review -----------------------------------------------------------------------------------
def review(result: Review, loaded: list[Loaded] | None = None, others: list[str] | None = None) -> str:
    """The review; with `loaded` (`--agents`), the other agents' rule files too, else a hint
    when no rule of `.ai/rules` applies to any changed file. `others`: without `--agents`, the
    other agents' files that load for the changed files no `.ai/rules` file applies to."""
    lines = [review_summary(result)]
    for m, changes in result.grouped():
        title = f" ({m.rule.heading})" if m.rule.heading else ""
        lines += ["", f"{m.rule.rel}{title}: applies to {plural(len(changes), 'changed file')}"]
        lines += [f"  {c.path} ({change_how(c)})" for c in changes]
        why = unseen_reason(m)
        if why is not None:
            lines.append(f"  agents do not see this file: {why}")
        lines += [f"  ## {e.title}  [{m.rule.rel}:{e.line + 1}]" for e in m.rule.entries]
    missing = result.unruled()
    if missing:
        lines += ["", "No .ai/rules file applies to: " + ", ".join(c.path for c in missing)]
        if others:
            shown = ", ".join(others[:6]) + (f" and {len(others) - 6} more" if len(others) > 6 else "")
            lines.append(f"The agents' own rule files load for them: {shown}. {AGENTS_WHICH}")
        elif loaded is None and not result.grouped():
            lines.append(AGENTS_HINT)
    if result.touched:
        lines += ["", "This change touches rule files: "
                  + ", ".join(f"{c.path} ({change_how(c)})" for c in result.touched)]
    if result.emptied:
        lines += ["", "Globs this change made match nothing:"]
        lines += [f"  {e.file}:{e.line + 1}: `{e.glob}` ({'; '.join(departure(c) for c in e.left)})"
                  for e in result.emptied]
    if loaded is not None:
        from rulelens.report.agents import review_text

        lines += review_text(loaded, len(result.matches))
    return "\n".join(lines)
