"""`rulelens match`: the rules for each path (a file, or the files below a folder), computed once
and rendered as text or as JSON; `--agents` adds what every agent loads for each file."""

from __future__ import annotations

import argparse
import sys

from rulelens.cli.common import EXIT_OK, EXIT_USAGE, Run, fail, resolve

EXAMPLE = "rulelens match app/Models/Invoice.php routes/web.php"


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="files or folders: root-relative, relative to the current folder, or absolute")
    parser.add_argument("--json", action="store_true",
                        help="print a JSON array, one object per path (default: off)")
    parser.add_argument("--agents", action="store_true",
                        help="also show what every agent ({agents}) loads for each file (default: off)")
    parser.add_argument("--on", choices=("read", "edit", "create"), default=None,
                        help="with --agents: the moment asked about, as the agent reads the file, edits "
                             "it or creates it; agents can load different files for each (default: read)")


def run(run: Run) -> int:
    """Every good path's rules, one error line per bad one (exit 2 when there was any)."""
    from rulelens.agents.model import DEFAULT_MOMENT, Moment
    from rulelens.agents.observed import AgentSeen, Observed
    from rulelens.agents.project import AgentProject, PathView
    from rulelens.report import as_json, text
    from rulelens.report.agents import loads_text
    from rulelens.rules.model import RuleError
    from rulelens.rules.path_rules import FileRules, FolderRules, folder_rules
    from rulelens.workspace.filelist import FileList

    if run.args.on is not None and not run.args.agents:
        return fail("--on asks what the agents load at a moment; give it with --agents.")
    repo = run.repository()
    project = AgentProject(repo) if run.args.agents else None
    observed = Observed.of(project) if project is not None else None
    on: Moment = run.args.on or DEFAULT_MOMENT
    results: list[tuple[FileRules | FolderRules, PathView | None]] = []
    errors: list[str] = []
    files: FileList | None = None
    for raw in run.args.paths:
        try:
            rel = resolve(repo, raw)
        except RuleError as exc:
            errors.append(str(exc))
            continue
        if (repo.root / rel).is_dir():
            files = files or FileList.for_root(repo.root)
            results.append((folder_rules(repo, rel, files), None))
        else:
            results.append((FileRules(rel, repo.rules_for(rel)), project.view(rel, on) if project else None))
    def seen(view: PathView | None) -> dict[str, AgentSeen] | None:
        return observed.for_path(project, view) if observed and project and view else None

    if run.args.json:
        print(as_json.dumps([as_json.path_rules(r, view, seen(view)) for r, view in results]))
    elif results:
        paint = run.palette()
        blocks = []
        others: AgentProject | None = None  # asked only for a file no .ai/rules file applies to
        led = False
        for r, view in results:
            block = text.folder_rules(r, paint) if isinstance(r, FolderRules) else text.file_rules(r, paint)
            if project is None and isinstance(r, FileRules) and not r.matches:
                # Lead with what loads: "0 rule files apply" where other agents load files misleads.
                others = others or AgentProject(repo)
                loaded = list(dict.fromkeys(load.file for loads in others.other_loads(r.path)
                                            for load in loads))
                if loaded:
                    led = True
                    block = text.agents_lead(r.path, loaded, repo.rules_path.is_dir())
            if project is not None and view is not None:
                block += "\n" + loads_text(project.present, view, seen(view), given=run.args.on is not None)
            blocks.append(block)
        if project is None and (led or any(not (r.pairs if isinstance(r, FolderRules) else r.matches)
                                           for r, _ in results)):
            from rulelens.report.words import AGENTS_HINT, AGENTS_WHICH

            blocks.append(AGENTS_WHICH if led else AGENTS_HINT)
        print("\n\n".join(blocks))
    if results:
        from rulelens.report.words import unread_lines

        # On stderr: stdout (and --json) stays the answer; a rule file left out is said each run.
        for line in unread_lines(repo.unread()):
            sys.stderr.write(f"rulelens: warning: {line}.\n")
    for error in errors:
        fail(error)
    return EXIT_USAGE if errors else EXIT_OK
