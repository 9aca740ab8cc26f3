"""`rulelens map`: which agents' rules reach each folder, as a text tree, JSON or one HTML page."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rulelens.agents.folder_map import build_map
from rulelens.agents.project import AgentProject
from rulelens.rules.model import RuleError
from rulelens.rules.repository import RuleRepository
from rulelens.rules.write.atomic import write_atomic

SUMMARY = "show which agents' rules reach each folder, the gaps, disagreements and budget overruns"
EXAMPLE = "rulelens map --html rules-map.html"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the map as JSON (default: a text tree)")
    out.add_argument("--html", type=Path, metavar="FILE",
                     help="write one self-contained HTML page (no network needed) to FILE")
    parser.add_argument("--depth", type=int, default=2, metavar="N",
                        help="folder levels the text tree shows (default: 2)")


def run(repo: RuleRepository, args: argparse.Namespace) -> int:
    from rulelens.report.map_data import map_data

    project_map = build_map(AgentProject(repo))
    if args.json:
        print(json.dumps(map_data(project_map), indent=2, ensure_ascii=False))
    elif args.html is not None:
        from rulelens.report.map_html import map_html

        target: Path = args.html.resolve()
        if not target.parent.is_dir():
            raise RuleError(f"--html {args.html}: the folder {target.parent} does not exist.")
        # The page is the user's file, wherever they ask: the write is atomic but not held to the root.
        write_atomic(target, map_html(map_data(project_map)).encode("utf-8"), target.parent)
        print(f"Wrote {args.html} ({len(project_map.folders):,} folders, {project_map.files:,} files).")
    else:
        from rulelens.report.map_text import map_text

        print(map_text(project_map, max(0, args.depth)))
    return 0
