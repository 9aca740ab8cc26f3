"""`rulelens check`: lint the rule files, the index and the other agents' rule files."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rulelens.cli.common import EXIT_OK, EXIT_PROBLEMS, Run, chosen_format
from rulelens.rules.check.stale import DRIFT_AFTER
from rulelens.rules.model import Problem

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, as mypy reads it
if TYPE_CHECKING:
    from pathlib import Path

EXAMPLE = "rulelens check --format sarif > rulelens.sarif"
FORMATS = ("text", "json", "sarif", "github")
# The least severe finding that fails the run, and everything more severe.
FAILING = {"error": ("error",), "warning": ("error", "warning"), "info": ("error", "warning", "info")}


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=FORMATS, default=None,
                        help="text, json, sarif (SARIF 2.1.0, for code scanning) or github (Actions "
                             "annotations) (default: text)")
    parser.add_argument("--json", action="store_true", help="the same as --format json (default: off)")
    parser.add_argument("--fail-on", choices=tuple(FAILING), default="warning", metavar="SEVERITY",
                        help="exit 1 when a finding is this severe or more: error, warning or info "
                             "(default: warning)")
    parser.add_argument("--drift-after", type=int, default=DRIFT_AFTER, metavar="N",
                        help="hint `rule-drift` when a rule file's globs changed in N commits since the "
                             f"rule file did; 0 turns it off (default: {DRIFT_AFTER})")
    parser.add_argument("--fix", action="store_true",
                        help="where one cause repeats across files (skills without `paths`, a key "
                             "Boost does not read), apply its fix to every file, then check again "
                             "(default: off)")
    parser.add_argument("--no-cache", action="store_true",
                        help="check in full, without the answer kept from an earlier run on the same "
                             "files (also RULELENS_NO_CACHE=1) (default: off)")


def more_help() -> str:
    """Every code, for the configuration's `severity` table: a pip-installed rulelens has no docs
    folder to point at, so the help is where a configuration error sends people."""
    import textwrap

    from rulelens.agents.codes import known_codes

    return "codes (rulelens.toml's or [tool.rulelens]'s `severity` table sets each one's level):\n" + \
        textwrap.fill(", ".join(sorted(known_codes())), width=90, initial_indent="  ",
                      subsequent_indent="  ", break_on_hyphens=False) + "\n"


def run(run: Run) -> int:
    from pathlib import Path

    from rulelens.workspace.git import GitSession
    from rulelens.workspace.root import find_root, is_project

    # This process checks once, then exits: git's "no repository" is remembered for the run.
    git = run.git if run.git is not None else GitSession(remember_missing=True)
    root = find_root(Path.cwd(), run.root)
    if run.root is None and not is_project(root):
        # Outside any project, find_root falls back to the current folder: from `/` or the home
        # folder that is a walk of everything, thousands of findings about no one's rules.
        from rulelens.rules.model import RuleError
        from rulelens.workspace.root import NOT_A_PROJECT, RULES_DIR

        raise RuleError(NOT_A_PROJECT.format(rules=RULES_DIR, root=root))
    from rulelens.check_project import check_project, warm_up

    warm_up(root, git)  # git lists the files while the rest of the core loads
    from rulelens.cli.progress import progress_line
    from rulelens.report import text

    fmt = chosen_format(run.args)
    repo = run.repository()
    with progress_line(sys.stderr, enabled=not run.quiet) as progress:
        result = check_project(repo, run.args.drift_after, progress, git)
        run.records.append(result.record)
        if run.args.fix and result.fixes:
            from rulelens.rules.write.edits import apply_fixes

            written = apply_fixes(repo.root, result.fixes)
            for fix in result.fixes:
                print(f"fixed: {fix.title}", file=sys.stderr)
            print(f"fixed {len(written)} {'file' if len(written) == 1 else 'files'}; checking again",
                  file=sys.stderr)
            repo = run.repository()
            result = check_project(repo, run.args.drift_after, progress, git)
            run.records.append(result.record)
    failing = [p for p in result.problems if p.severity in FAILING[run.args.fail_on]]
    if result.nothing_to_check:
        if fmt == "text":
            run.say(text.NO_RULES.format(repo.rules_dir))
        elif fmt != "github":
            run.print(_formatted([], fmt, repo.root))
        return EXIT_OK
    if fmt != "text":
        run.print(_formatted(result.problems, fmt, repo.root))
    else:
        paint = run.palette()
        for p in result.problems:
            run.print(text.problem(p, paint))
        run.say(text.check_summary(result))
    return EXIT_PROBLEMS if failing else EXIT_OK


def _formatted(problems: Sequence[Problem], fmt: str, root: Path) -> str:
    from rulelens.report import as_json

    if fmt in ("sarif", "github"):  # read by GitHub, which names files from the repository's root
        from rulelens.workspace.root import repository_prefix

        prefix = repository_prefix(root)
    if fmt == "sarif":
        from rulelens.report.sarif import to_sarif

        return as_json.dumps(to_sarif(problems, prefix))
    if fmt == "github":
        from rulelens.report.github import problem_annotation

        return "\n".join(problem_annotation(p, prefix) for p in problems)
    return as_json.dumps(as_json.problems(problems))
