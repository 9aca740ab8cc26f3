"""`rulelens record`: one entry, written as Boost writes it, then the index rebuilt."""

from __future__ import annotations

import argparse
import sys

from rulelens.cli.common import EXIT_OK, Run

EXAMPLE = ("rulelens record --glob 'app/Models/**' --title 'Money is integer cents' "
           "--note 'Store amounts in *_cents columns.'")


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--glob", required=True, help="the files the rule is for, relative to the root "
                        "(for example 'app/Models/**'); required")
    parser.add_argument("--title", required=True, help="the entry's title, one line; required")
    parser.add_argument("--note", required=True, help="the entry's text; line breaks are kept; required")


def run(run: Run) -> int:
    from rulelens.glob_engines.boost import patterns_of
    from rulelens.workspace.filelist import FileList

    repo = run.repository()
    result = repo.record(run.args.glob, run.args.title, run.args.note)
    run.say(result.message)
    for repeat in result.repeats:  # on stderr: stdout stays Boost's exact message
        sys.stderr.write(f"rulelens: note: {repeat}\n")
    # Boost records a glob that matches nothing (it may name files still to be written), and so
    # does rulelens; a typo such as `app/Modles/**` is worth one plain line.
    glob = run.args.glob.strip()
    includes = [p for p in patterns_of(glob) if p.include]
    files = FileList.for_root(repo.root)
    if includes and not any(files.pattern_matches_any(p) for p in includes):
        # On stderr: stdout stays Boost's exact message for scripts that read it.
        sys.stderr.write(f"rulelens: note: {glob} matches no file in the project now; the rule "
                         "applies once such a file exists (check the glob for a typo).\n")
    return EXIT_OK
