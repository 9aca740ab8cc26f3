"""`rulelens review --base REF`: the rules for what a branch changed, in the chosen format."""

from __future__ import annotations

import argparse

from rulelens.cli.common import EXIT_OK, Run, chosen_format

EXAMPLE = "rulelens review --base origin/main --format markdown"
FORMATS = ("text", "json", "markdown", "github")


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base", required=True, metavar="REF",
                        help="the branch or commit the change is compared with (git diff REF...HEAD); "
                             "required")
    parser.add_argument("--format", choices=FORMATS, default=None,
                        help="text, json, markdown (a pull request comment) or github (Actions "
                             "annotations) (default: text)")
    parser.add_argument("--json", action="store_true", help="the same as --format json (default: off)")


def run(run: Run) -> int:
    from rulelens.report import as_json, github, markdown, text
    from rulelens.rules.review import review

    fmt = chosen_format(run.args)
    repo = run.repository()
    result = review(repo, run.args.base)
    if fmt == "json":
        print(as_json.dumps(as_json.review(result)))
    elif fmt == "markdown":
        print(markdown.review(result))
    elif fmt == "github":
        from rulelens.rules.project.root import repository_prefix

        for line in github.review(result, repository_prefix(repo.root)):
            print(line)
    else:
        print(text.review(result))
    return EXIT_OK
