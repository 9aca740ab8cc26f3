"""`rulelens map`: which agents' rules reach each folder, as a text tree, JSON or one HTML page."""

from __future__ import annotations

import argparse
from pathlib import Path

from rulelens.cli.common import EXIT_OK, Run

EXAMPLE = "rulelens map --html rules-map.html"


def arguments(parser: argparse.ArgumentParser) -> None:
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the map as JSON (default: a text tree)")
    out.add_argument("--html", type=Path, metavar="FILE",
                     help="write one self-contained HTML page (no network needed) to FILE")
    parser.add_argument("--depth", type=_depth, default=2, metavar="N",
                        help="folder levels the text tree shows (default: 2)")


def _depth(text: str) -> int:
    try:
        depth = int(text)
    except ValueError:
        depth = -1
    if depth < 0:
        raise argparse.ArgumentTypeError(f"needs a whole number of levels, 0 or more, not {text!r}")
    return depth


def run(run: Run) -> int:
    from rulelens.agents.folder_map import build_map
    from rulelens.agents.observed import Observed, summary
    from rulelens.agents.project import AgentProject
    from rulelens.report.as_json import dumps
    from rulelens.report.map_data import map_data
    from rulelens.rules.model import RuleError
    from rulelens.rules.write.atomic import write_atomic

    args = run.args
    project = AgentProject(run.repository())
    project_map = build_map(project)
    observed = Observed.of(project)
    everywhere = ((e.agent, e.file) for e in project_map.everywhere)
    records = summary(observed, project, everywhere) if observed else []
    if args.json:
        data = map_data(project_map)
        if records:
            data["observed"] = [r.to_json() for r in records]
        print(dumps(data))
    elif args.html is not None:
        from rulelens.report.map_html import map_html

        target: Path = args.html.resolve()
        if not target.parent.is_dir():
            raise RuleError(f"--html {args.html}: the folder {target.parent} does not exist.")
        # The page is the user's file, wherever they ask: the write is atomic but not held to the root.
        write_atomic(target, map_html(map_data(project_map)).encode("utf-8"), target.parent)
        run.say(f"Wrote {args.html} ({len(project_map.folders):,} folders, {project_map.files:,} files).")
    else:
        from rulelens.report.map_text import map_text, observed_text

        print(map_text(project_map, args.depth))
        if records:
            print("\n" + observed_text(project_map, records))
    return EXIT_OK
