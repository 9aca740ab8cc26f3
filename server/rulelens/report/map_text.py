"""`rulelens map`: the project map as a compact text tree, `depth` levels deep (the page and
`--json` have every folder), then the gaps, disagreements and budget overruns."""

from __future__ import annotations

from collections.abc import Sequence

from rulelens.agents.folder_map import AgentSummary, Folder, ProjectMap, folder_of
from rulelens.agents.observed import FileRecord

GAP = "no scoped rule reaches its code"  # always-loaded rules may still reach it


def map_text(m: ProjectMap, depth: int = 2) -> str:
    names = {a.id: a.name for a in m.agents}
    lines = [f"{m.root}: {_plural(m.files, 'file')}"]
    if not m.agents:
        lines.append("No agent's rule files in this project.")
        return "\n".join(lines)
    lines.append("Agents: " + "; ".join(
        f"{a.name} ({_plural(a.files, 'rule file')}{_scoped(a)})" for a in m.agents))
    if m.everywhere:
        readers: dict[str, list[str]] = {}
        for e in m.everywhere:
            via = f": imported by {e.via}" if e.via else ""
            readers.setdefault(e.file, []).append(names.get(e.agent, e.agent) + via)
        lines.append("Loaded for every file: " + "; ".join(
            f"{file} ({', '.join(who)})" for file, who in readers.items()))
    lines.append("")
    gaps = set(m.gaps)
    children: dict[str, list[str]] = {}
    for path in sorted(m.folders):
        if path:
            children.setdefault(folder_of(path), []).append(path)

    # An agent over its cap for every file is said once, at the root, not on every folder.
    everywhere = {o.agent for o in m.over_budget if o.files == m.files}

    def walk(path: str, level: int) -> None:
        folder = m.folders[path]
        label = (path.rpartition("/")[2] or ".") + ("/" if path else "")
        quiet = everywhere if path else set()
        lines.append(f"{'  ' * level}{label}  {_counts(folder, names, path in gaps, quiet)}")
        if level >= depth:
            return
        for child in children.get(path, []):
            walk(child, level + 1)

    walk("", 0)
    for title, items in (
            ("Folders with code that no scoped rule reaches", [f"  {g or '.'}/" for g in m.gaps]),
            ("Where agents disagree", [f"  {d.file}: {d.message}" for d in m.disagreements]),
            ("Over budget", [f"  {names.get(o.agent, o.agent)}: {_plural(o.files, 'file')} under "
                             f"{o.folder or '.'}/, e.g. {o.example}: {o.note}" for o in m.over_budget]
             + [f"  {d.file}: {d.message}" for d in m.files_over_cap])):
        if items:
            lines += ["", f"{title}:", *items]
    return "\n".join(lines)


def _counts(folder: Folder, names: dict[str, str], gap: bool, quiet: set[str]) -> str:
    parts = [_plural(folder.files, "file")]
    parts += [f"{names.get(a, a)} {n:,}" for a, n in sorted(folder.reached.items(), key=lambda x: -x[1])]
    if gap:
        parts.append(f"! {GAP}")
    over = [f"{names.get(a, a)} over budget for {n:,}"
            for a, n in folder.over_budget.items() if a not in quiet]
    return " · ".join(parts + over)


def _scoped(a: AgentSummary) -> str:
    """What an agent's scoped rules reach, said only when it has some: of rules that all load
    always (a lone `CLAUDE.md`), "scoped ones reach 0" reads as if nothing reached the code."""
    return f", scoped ones reach {a.reached:,}" if a.scoped else ""


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def observed_text(m: ProjectMap, records: Sequence[FileRecord]) -> str:
    """What real sessions showed each agent load (agents/observed.py), after the map."""
    names = {a.id: a.name for a in m.agents}
    lines = ["Observed in real sessions (.git/rulelens/observed.jsonl):"]
    for r in records:
        from rulelens.report.agents import when_why

        seen = (f"loaded in {r.loaded_in} of {_plural(r.sessions, 'session')}, last {when_why(r.last)}"
                if r.last else f"loaded in 0 of {_plural(r.sessions, 'session')}")
        lines.append(f"  {names.get(r.agent, r.agent)}: {r.file}: {seen}")
        if r.note:
            lines.append(f"    {'! ' if r.contradicts else ''}{r.note}")
    return "\n".join(lines)
