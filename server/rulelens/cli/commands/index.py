"""`rulelens index`: regenerate `.ai/rules/index.md`, or with `--check` say whether it is current."""

from __future__ import annotations

import argparse
import sys

from rulelens.cli.common import EXIT_OK, EXIT_PROBLEMS, Run

EXAMPLE = "rulelens index --check"


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the index is missing or stale (default: off)")


def run(run: Run) -> int:
    from rulelens.report.text import NO_RULES

    repo = run.repository()
    rel = f"{repo.rules_dir}/index.md"
    if not run.args.check:
        changed = repo.write_index()
        run.say(f"{'Wrote' if changed else 'Unchanged:'} {rel}.")
        invalid = repo.first_invalid()
        if invalid is not None:  # Boost's index has no row for it: never dropped silently
            print(f"rulelens: warning: {rel} has no row for it: {invalid}, so Boost reads no paths "
                  "there. Fix it (`rulelens check` says how), then run `rulelens index` again.",
                  file=sys.stderr)
        return EXIT_OK
    if not repo.rules_path.exists():
        run.say(NO_RULES.format(repo.rules_dir))
        return EXIT_OK
    current = repo.current_index()
    # `rulelens index` refuses while a rule file cannot be read: that comes first.
    unread = repo.first_blocking()
    then = "run `rulelens index`" if unread is None else (
        f"{unread}: fix or remove it, then run `rulelens index`")
    if current is None:
        print(f"{rel} is missing; {then}.")
        return EXIT_PROBLEMS
    if current != repo.index_text():
        print(f"{rel} is stale; {then}.")
        return EXIT_PROBLEMS
    run.say(f"{rel} is current.")
    return EXIT_OK
