"""`rulelens review --base REF`: the rules for what a branch changed, in the chosen format."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from rulelens.cli.common import EXIT_OK, Run, chosen_format

if TYPE_CHECKING:
    from rulelens.agents.project import PathView
    from rulelens.report.agents import Loaded

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
    parser.add_argument("--agents", action="store_true",
                        help="also show the rule files every other agent loads for the changed files "
                             "(CLAUDE.md, .claude/rules, AGENTS.md, ...) (default: off)")


def run(run: Run) -> int:
    from rulelens.report import as_json, github, markdown, text
    from rulelens.rules.review import review
    from rulelens.workspace.filelist import FileList

    fmt = chosen_format(run.args)
    repo = run.repository()
    files = FileList.for_root(repo.root)
    result = review(repo, run.args.base, files)
    views: dict[str, PathView] | None = None
    loaded: list[Loaded] | None = None
    if run.args.agents:
        from rulelens.agents.project import AgentProject
        from rulelens.report.agents import review_loads

        project = AgentProject(repo, files)
        views = {path: project.view(path) for path in result.matches}
        loaded = review_loads(project.present, views)
    if fmt == "json":
        print(as_json.dumps(as_json.review(result, views)))
    elif fmt == "markdown":
        print(markdown.review(result, loaded))
    elif fmt == "github":
        from rulelens.workspace.root import repository_prefix

        summary = _job_summary(markdown.review(result, loaded))
        for line in github.review(result, summary or f"`rulelens review --base {run.args.base}`",
                                  repository_prefix(repo.root)):
            print(line)
    else:
        others: list[str] = []
        missing = result.unruled()
        if loaded is None and missing:  # lead with what loads: other agents' files, not "no rule"
            from rulelens.agents.project import AgentProject

            project = AgentProject(repo, files)
            others = list(dict.fromkeys(load.file for c in missing
                                        for loads in project.other_loads(c.path) for load in loads))
        print(text.review(result, loaded, others))
    return EXIT_OK


def _job_summary(page: str) -> str | None:
    """The whole review, as Markdown, added to the step's job summary (the file GitHub names in
    GITHUB_STEP_SUMMARY), where no count of annotations is cut; None outside Actions."""
    import os

    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        return None
    with open(target, "a", encoding="utf-8") as handle:
        handle.write(page + "\n")
    return "the job summary"
