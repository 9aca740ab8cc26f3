"""One finding per cause: where one mistake repeats across files, `check` reports it once, listing
the files, with the fix that mends them all (`ProjectCheck.fixes`, `rulelens check --fix`).

An editor still shows each file's own finding: this runs on `check`'s whole-project answer only,
after the project's configuration, so that excluded or silenced findings are neither counted nor
fixed. It sits beside `check_project` because its causes come from both `rules/` and `agents/`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from rulelens.agents.fixes import copied_globs, globs_edit
from rulelens.agents.model import named_together
from rulelens.agents.traps import Drift
from rulelens.rules.check.boost_signs import NO_SIGN
from rulelens.rules.model import Edit, Fix, Problem, Severity

MIN_GROUP = 2  # files a cause must repeat in before one finding stands for them
SHOWN = 3  # files a grouped message names


@dataclass(frozen=True)
class KeyCause:
    """A glob key an agent does not read, by finding code: what the files are and what then happens."""

    files: str
    key: str
    effect: str


# The per-file findings whose span is a frontmatter key to rename to `key`.
KEY_CAUSES = {
    "paths-key-other": KeyCause("rule files in the rules folder", "paths",
                                "Boost reads only `paths`, so their globs reach no agent through the index"),
    "claude-wrong-key": KeyCause("Claude Code rules", "paths",
                                 "Claude Code reads only `paths`, so they load at every session start"),
}


def by_cause(problems: Sequence[Problem], drifts: Sequence[Drift],
             text_of: Callable[[str], str | None]) -> tuple[list[Problem], list[Fix]]:
    """`problems` with each repeated cause's findings replaced by one, and the fixes of those
    causes. `drifts`: the disagreements with their causes (agents/traps.py); `text_of(rel)`: a
    file's text, for the keys the findings' spans hold."""
    kept = list(problems)
    fixes: list[Fix] = []
    for code, cause in KEY_CAUSES.items():
        spans = {p: _span(p, text_of) for p in kept if p.code == code}
        found = [p for p, key in spans.items() if key]
        if len({p.file for p in found}) < MIN_GROUP:
            continue
        files = sorted({p.file for p in found})
        names = sorted({spans[p] for p in found})
        edits = tuple(Edit(p.file, p.line, p.col, p.end_col or p.col, cause.key, spans[p]) for p in found)
        fixes.append(Fix(code, f"Rename the key to `{cause.key}:` in {len(files)} files", edits))
        keys = " and ".join(f"`{k}:`" for k in names)
        first = min(p.line for p in found if p.file == files[0])
        grouped = Problem(files[0], first, max(found, key=_rank).severity, code,
                          f"{len(files)} {cause.files} name their globs {keys} ({_listed(files)}): "
                          f"{cause.effect}. Rename each to `{cause.key}:` (`rulelens check --fix` does)."
                          + (f" {NO_SIGN}" if any(p.message.endswith(NO_SIGN) for p in found) else ""),
                          examples=tuple(files))
        kept = _replaced(kept, found, grouped)
    kept, fixes = _unpicked(kept, drifts, fixes)
    return _same_pair(_same_import(_same_dead(_same_glob(_open_reading(kept, drifts))))), fixes


# One rule of two agents' folders that they load for different files (agents/traps.py).
PAIR = re.compile(r"Same rule as `(?P<other>[^`]+)` \((?P<how>[^)]+)\), but (?P<agents>.+?) disagree on "
                  r"(?P<count>[\d,]+(?: to [\d,]+)? files)(?P<tail>.*)", re.DOTALL)
ADVICE = re.compile(r"\.\s+(?P<advice>[^.]*\.)$")


def _confirmed(group: Sequence[Problem]) -> list[str]:
    """Each finding's "confirmed in RELEASE" words, as its agent's module wrote them."""
    said = (re.search(r"\((confirmed [^)]*)\)", p.message) for p in group)
    return list(dict.fromkeys(m[1] for m in said if m is not None)) or ["each confirmed in its release"]


def _same_pair(kept: list[Problem]) -> list[Problem]:
    """Several rules that two agents load for the same different files, each a copy of the same
    kind (`the same file` through a link): one cause, reported once, counting the files."""
    groups: dict[tuple[str, str, str], list[tuple[Problem, str]]] = {}
    for p in kept:
        if p.code == "agents-disagree" and (m := PAIR.fullmatch(p.message)):
            groups.setdefault((m["how"], m["agents"], m["count"]), []).append((p, m["tail"]))
    for (how, agents, count), group in groups.items():
        files = sorted({p.file for p, _ in group})
        if len(files) < MIN_GROUP:
            continue
        problems = [p for p, _ in group]
        advice = ADVICE.search(group[0][1])
        examples = tuple(dict.fromkeys(e for p in problems for e in p.examples))[:6]
        grouped = Problem(files[0], min(p.line for p in problems if p.file == files[0]),
                          max(problems, key=_rank).severity, "agents-disagree",
                          f"{len(files)} rule files ({_listed(files)}) are each the same rule as another "
                          f"agent's file ({how}), but {agents} disagree on {count} for each (see the "
                          f"examples).{' ' + advice['advice'] if advice else ''}", examples=examples)
        kept = _replaced(kept, problems, grouped)
    return kept


# The agents whose import-missing findings say the same of one `@path` (a file the project lacks).
IMPORT_AGENTS = {"claude-import-missing": "Claude Code", "copilot-cli-import-missing": "Copilot CLI",
                 "qwen-import-missing": "Qwen Code"}
MISSING_IMPORT = re.compile(r"reads `@(?P<path>[^`]+)` as an import of `(?P<named>[^`]+)`, which the project "
                            "does not have")


def _same_import(kept: list[Problem]) -> list[Problem]:
    """One `@path` naming a file the project lacks, that several agents read as an import: one
    finding naming them all, since the one import is the cause. Each of them leaves the text as
    written and loads no file (their own findings say so, from their releases)."""
    groups: dict[tuple[str, int, int, str], list[Problem]] = {}
    for p in kept:
        if p.code in IMPORT_AGENTS and (m := MISSING_IMPORT.search(p.message)):
            groups.setdefault((p.file, p.line, p.col, m["path"]), []).append(p)
    for (_, _, _, path), group in groups.items():
        if len(group) < MIN_GROUP:
            continue
        first = group[0]
        named = MISSING_IMPORT.search(first.message)
        assert named is not None
        agents = named_together(list(dict.fromkeys(IMPORT_AGENTS[p.code] for p in group)))
        grouped = Problem(first.file, first.line, max(group, key=_rank).severity, first.code,
                          f"{agents} read `@{path}` as an import of `{named['named']}`, which the project "
                          "does not have: none of them loads a file for it, and the model sees the text as "
                          f"written ({'; '.join(_confirmed(group))}). Name a file of the project (relative "
                          "to this file), or write it in backticks to keep it as text.",
                          first.col, first.end_col)
        kept = _replaced(kept, group, grouped)
    return kept


# An agent's "matches nothing" finding (agents/base.py `nothing_traps`): the agent, the glob, the rest.
# Its glob group holds the backticks: one glob, or a rule's whole dead list (`a`, `b` and `c`).
NOTHING = re.compile(r"(?P<agent>.+?) matches (?P<glob>`[^`]*`(?:(?:, | and )`[^`]*`)*) "
                     r"(?P<rest>against no file of this project.*)", re.DOTALL)


# The one `info` for a rule file's dead alternatives (agents/base.py `nothing_traps`).
DEAD = re.compile(r"(?P<count>\d+ of \d+ patterns match no file here) for (?P<agent>.+?) (?P<rest>\(.*)",
                  re.DOTALL)


def _same_dead(kept: list[Problem]) -> list[Problem]:
    """One file's dead alternatives that several agents read alike: one `info` naming them all."""
    groups: dict[tuple[str, int, str, str], list[tuple[Problem, str]]] = {}
    for p in kept:
        m = DEAD.fullmatch(p.message) if p.code == "agent-glob-matches-nothing" else None
        if m is not None and p.severity == "info":
            groups.setdefault((p.file, p.line, m["count"], m["rest"]), []).append((p, m["agent"]))
    for (_, _, count, rest), group in groups.items():
        if len(group) < MIN_GROUP:
            continue
        agents = named_together(list(dict.fromkeys(a for _, a in group)))
        first = group[0][0]
        kept = _replaced(kept, [p for p, _ in group], replace(first, message=f"{count} for {agents} {rest}"))
    return kept


def _same_glob(kept: list[Problem]) -> list[Problem]:
    """One glob of one file that several agents read (a `.claude/rules` file's `paths`, read by
    Claude Code and the Copilot CLI alike) matching nothing for each: one finding naming them all,
    since the one glob is the cause. Only where their messages agree past the agent's name."""
    groups: dict[tuple[str, int, str, str], list[tuple[Problem, str]]] = {}
    for p in kept:
        if p.code == "agent-glob-matches-nothing" and p.severity != "info" and (
                m := NOTHING.fullmatch(p.message)):
            groups.setdefault((p.file, p.line, m["glob"], m["rest"]), []).append((p, m["agent"]))
    for (_, _, glob, rest), group in groups.items():
        if len(group) < MIN_GROUP:
            continue
        agents = named_together(list(dict.fromkeys(a for _, a in group)))
        first = group[0][0]
        grouped = Problem(first.file, first.line, max((p for p, _ in group), key=_rank).severity,
                          first.code, f"{agents} match {glob} {rest}", first.col, first.end_col)
        kept = _replaced(kept, [p for p, _ in group], grouped)
    return kept


def _span(p: Problem, text_of: Callable[[str], str | None]) -> str:
    """The key a key finding's span holds (`scope`), "" unless it is a frontmatter key as written."""
    text = text_of(p.file) if p.end_col is not None else None
    lines = text.splitlines() if text is not None else []
    if p.line >= len(lines):
        return ""
    line = lines[p.line]
    key = line[p.col:p.end_col]
    return key if key.isidentifier() and line[p.end_col or 0:].lstrip().startswith(":") else ""


def _unpicked(kept: list[Problem], drifts: Sequence[Drift],
              fixes: list[Fix]) -> tuple[list[Problem], list[Fix]]:
    """Skills (or rules) without globs whose copies another agent loads by glob: one finding per
    glob-loading agent, whose fix adds each copy's globs."""
    live = {(p.file, p.message): p for p in kept}  # as configured: severities may differ
    groups: dict[str, list[Drift]] = {}
    for d in drifts:
        if d.unpicked is not None and d.other is not None and (d.problem.file, d.problem.message) in live:
            groups.setdefault(d.other[0].name, []).append(d)
    for other_name, group in sorted(groups.items()):
        files = sorted({d.unpicked[1].rel for d in group if d.unpicked is not None})
        if len(files) < MIN_GROUP:
            continue
        unpicked = [d.unpicked for d in group if d.unpicked is not None]
        agents = sorted({agent.name for agent, _ in unpicked})
        needs = sorted({agent.glob_fields(f) for agent, f in unpicked}, key=len)[-1]  # the most to add
        key = needs[-1]
        hows = sorted({_them(agent.unpicked_how(f)) for agent, f in unpicked})
        add = " and ".join("`trigger: glob`" if k == "trigger" else f"`{k}:`" for k in needs)
        edits: dict[str, Edit] = {}
        for d in group:
            assert d.unpicked is not None and d.other is not None
            (agent, f), (other, g) = d.unpicked, d.other
            fields = agent.glob_fields(f)
            if f.rel not in edits and (edit := globs_edit(f, fields[-1], copied_globs(other, g),
                                                          trigger="trigger" in fields)) is not None:
                edits[f.rel] = edit
        noun = "skills" if all("/skills/" in f for f in files) else "files"
        # One rule converted for two agents is one skill in two folders: counted once.
        rules = len({d.other[1].rel for d in group if d.other is not None})
        held = f"{len(files)} files: " if rules != len(files) else ""
        grouped = Problem(files[0], 0, _severity(live, group), "agents-disagree",
                          f"{rules} {noun} converted from {other_name} rules carry no `{key}` "
                          f"({held}{_listed(files)}): {' and '.join(agents)} "
                          f"{'load' if len(agents) > 1 else 'loads'} them {' or '.join(hows)}, "
                          f"and {other_name} loads them by glob. Add {add} with each rule's globs "
                          "(`rulelens check --fix` does).", examples=tuple(files))
        fix = Fix("agents-disagree", f"Add {add} to {len(edits)} {noun}, from their {other_name} rules",
                  tuple(edits[r] for r in sorted(edits)))
        kept = _replaced(kept, [d.problem for d in group], grouped)
        fixes.append(fix)
    return kept, fixes


def _them(how: str) -> str:
    """"only when the model picks it", said of several files."""
    return how.removesuffix(" it") + " them" if how.endswith(" it") else how


def _open_reading(kept: list[Problem], drifts: Sequence[Drift]) -> list[Problem]:
    """Copies that disagree only under one reading left open: one `info` per reading, since the
    cause is that reading, not each copy."""
    live = {(p.file, p.message): p for p in kept}  # as configured: severities may differ
    groups: dict[tuple[str, str, str], list[Drift]] = {}
    for d in drifts:
        if d.agree_if is not None and (d.problem.file, d.problem.message) in live:
            groups.setdefault(d.agree_if, []).append(d)
    for (condition, otherwise, advice), group in sorted(groups.items()):
        files = sorted({d.problem.file for d in group})
        if len(group) < MIN_GROUP:
            continue
        examples = tuple(sorted({e for d in group for e in d.problem.examples}))
        message = (f"{len(group)} pairs of copies of a rule in different agents' folders "
                   f"({_listed(files)}) load for the same files if {condition}; if {otherwise}, each "
                   "pair loads for different files.")
        if advice:
            message += f" {advice[0].upper()}{advice[1:]}."
        line = min(d.problem.line for d in group if d.problem.file == files[0])
        grouped = Problem(files[0], line, _severity(live, group), "agents-disagree", message,
                          examples=examples[:6])
        kept = _replaced(kept, [d.problem for d in group], grouped)
    return kept


def _replaced(problems: list[Problem], gone: Sequence[Problem], grouped: Problem) -> list[Problem]:
    """`problems` without `gone`, with `grouped` where the first of them was."""
    drop = {(p.file, p.line, p.code, p.message) for p in gone}
    out: list[Problem] = []
    placed = False
    for p in problems:
        if (p.file, p.line, p.code, p.message) in drop:
            if not placed:
                out.append(grouped)
                placed = True
            continue
        out.append(p)
    return out


def _severity(live: dict[tuple[str, str], Problem], group: Sequence[Drift]) -> Severity:
    """The most severe of the group's findings as the project's configuration left them."""
    return max((live[(d.problem.file, d.problem.message)] for d in group), key=_rank).severity


def _rank(p: Problem) -> int:
    return ("info", "warning", "error").index(p.severity)


def _listed(files: Sequence[str]) -> str:
    shown = ", ".join(f"`{f}`" for f in files[:SHOWN])
    return shown + (f" and {len(files) - SHOWN} more" if len(files) > SHOWN else "")


def fixes_touching(rel: str, problems: Sequence[Problem], drifts: Sequence[Drift],
                   text_of: Callable[[str], str | None]) -> list[Fix]:
    """The fixes of the causes that repeat across files and include `rel`: what an editor offers on
    that file's own finding, to mend every file of the cause at once."""
    return [fix for fix in by_cause(problems, drifts, text_of)[1] if any(e.file == rel for e in fix.edits)]
