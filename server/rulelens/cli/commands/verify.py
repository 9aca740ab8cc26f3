"""`rulelens verify`: ask the agents installed here what they load, on a scratch copy of this
project against a fake model, and print it beside rulelens's prediction (agent_runs.verify)."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from rulelens.cli.common import EXIT_INTERRUPTED, Run

if TYPE_CHECKING:
    from rulelens.agent_runs.model import Moment
    from rulelens.agent_runs.verify import Case, Verification

EXAMPLE = "rulelens verify app/Models/User.php --agent claude-code --agent codex=/opt/codex/bin/codex"


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="paths to ask about (default: a few chosen from what the rules name)")
    parser.add_argument("--agent", action="append", default=[], metavar="ID[=BINARY]",
                        help="an agent to run (claude-code, copilot-cli, codex, gemini-cli, qwen-code, "
                             "or its command's name), from PATH or the BINARY given; repeatable "
                             "(default: every one whose command is on PATH)")
    parser.add_argument("--on", choices=("read", "edit", "create"), default=None,
                        help="what the agent is asked to do with each path (default: read)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON (--format json)")
    parser.add_argument("--format", choices=("text", "json", "github"), default=None,
                        help="text (default), json, or github: the text and an ::error annotation "
                             "per difference and per failure, and the text in $GITHUB_STEP_SUMMARY")
    parser.add_argument("--with-user-files", action="store_true",
                        help="copy your global instruction files (~/.claude/CLAUDE.md and the like) "
                             "into the agents' empty home (default: left out)")
    parser.add_argument("--timeout", type=float, default=120, metavar="S",
                        help="seconds each run may take before it is ended (default: 120)")


def _interrupt(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C and SIGTERM end the run through its cleanups (every agent's process group, the
    scratch copies), once: a second signal during them is ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


def run(run: Run) -> int:
    from rulelens.agent_runs.verify import AgentChoiceError, find_agents, pick_paths, verify
    from rulelens.agents.project import AgentProject
    from rulelens.cli.common import chosen_format, resolve
    from rulelens.report.as_json import dumps
    from rulelens.rules.model import RuleError

    args = run.args
    form = chosen_format(args)
    repo = run.repository()
    from rulelens.workspace.root import RULES_DIR, is_project

    if run.root is None and not is_project(repo.root):
        # Not a project (a home folder, /tmp): copying all of it for the agents is never meant.
        raise RuleError(f"No project here: neither {RULES_DIR} nor .git exists in {repo.root} or above it, "
                        "so rulelens will not copy it for the agents; open a project or pass --root DIR.")
    try:
        agents, failures = find_agents(args.agent)
    except AgentChoiceError as e:
        raise RuleError(str(e)) from e
    if args.timeout <= 0:
        raise RuleError(f"--timeout {args.timeout:g}: needs a number of seconds above 0")
    project = AgentProject(repo)
    moment: Moment = args.on or "read"
    from rulelens.agent_runs.verify import Pick

    picks = ([Pick(resolve(repo, p), "given") for p in args.paths] if args.paths
             else pick_paths(project, moment))

    def progress(line: str) -> None:
        if not run.quiet:
            sys.stderr.write(f"rulelens verify: {line}\n")
            sys.stderr.flush()

    previous = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        result = verify(repo.root, agents, picks, moment, moment_given=args.on is not None,
                        timeout=args.timeout, with_user_files=args.with_user_files,
                        failures=failures, project=project, progress=progress)
    except KeyboardInterrupt:
        sys.stderr.write("rulelens: interrupted; every agent started was ended, "
                         "its scratch copy removed\n")
        return EXIT_INTERRUPTED
    finally:
        signal.signal(signal.SIGINT, previous[0])
        signal.signal(signal.SIGTERM, previous[1])
    if form == "json":
        run.print(dumps(result.to_json()))
    else:
        lines = text(result)
        for line in lines:
            run.print(line)
        if form == "github":
            for line in github_lines(result, repo.root):
                run.print(line)
            step_summary(lines)
    for line in result.failure_lines():
        sys.stderr.write(f"rulelens: {line}\n")
    return result.code


def text(result: Verification) -> list[str]:
    """Per agent and path, the files rulelens predicts beside the files the agent sent, with
    when each arrived; `!` marks a difference."""
    from rulelens.agent_runs.verify import environment_note
    from rulelens.agents.registry import AGENTS

    names = {a.id: a.name for a in AGENTS}

    moment = result.moment + ("" if result.moment_given else " (the default; --on edit|create asks another)")
    out = [f"Asked to {moment}: {', '.join(p.path for p in result.picks) or 'no path'}.",
           environment_note(), result.user_files_note(), ""]
    by_agent: dict[str, list[Case]] = {}
    for case in result.cases:
        by_agent.setdefault(case.agent, []).append(case)
    for agent, cases in by_agent.items():
        release = next((c.observation.version for c in cases if c.observation.version != "unknown"), "?")
        out.append(f"{names.get(agent, agent)} {release} ({cases[0].binary})")
        for case in cases:
            out.extend(case_lines(case))
        out.append("")
    out.append(summary(result))
    return out


def case_lines(case: Case) -> list[str]:
    from rulelens.agent_runs.verify import rows

    o = case.observation
    why = "" if case.pick.why == "given" else f"  ({case.pick.why})"
    state = "could not verify" if o.error is not None else "equal" if case.result.agree else "DIFFERS"
    out = [f"  {o.path}{why}: {state}, {o.seconds:.1f} s"]
    if o.error is not None:
        out.append(f"    {o.error}")
    table = rows(case.result)
    if not table:
        out.append("    no instruction file predicted, none sent")
        return out
    width = max(len(r.file) for r in table)
    out.append(f"      {'file'.ljust(width)}  {'rulelens predicts':<18}  agent sent")
    for r in table:
        mark = "!" if r.differs else " "
        out.append(f"    {mark} {r.file.ljust(width)}  {(r.predicted or '-'):<18}  {r.sent or '-'}")
    return out


def summary(result: Verification) -> str:
    ran = [c for c in result.cases if c.observation.error is None]
    from rulelens.agent_runs.verify import rows

    differ = result.differences
    if differ:
        names = "; ".join(f"{c.agent} on {c.observation.path}: "
                          + ", ".join(r.file for r in rows(c.result) if r.differs) for c in differ)
        return f"{len(differ)} of {len(ran)} runs differ from the prediction ({names})."
    if not ran:
        return "Nothing could be verified."
    tail = "" if result.code == 0 else f"; {len(result.failure_lines())} could not be verified"
    return f"All {len(ran)} runs sent exactly what rulelens predicts{tail}."



def github_lines(result: Verification, root: Path) -> list[str]:
    """GitHub's `::error` lines: one per differing file of a case (at the path asked about, the
    file named relative to the repository's root), one per failure."""
    from rulelens.agent_runs.verify import rows
    from rulelens.workspace.root import repository_prefix

    prefix = repository_prefix(root)
    out: list[str] = []
    for case in result.differences:
        o = case.observation
        for r in rows(case.result):
            if r.differs:
                out.append(f"::error file={prefix}{o.path},title=rulelens verify ({case.agent} {o.version})::"
                           f"{r.file}: rulelens predicts {r.predicted or 'nothing'}, "
                           f"the agent sent {r.sent or 'nothing'} ({o.moment} {o.path})")
    out.extend(f"::error title=rulelens verify::{line}" for line in result.failure_lines())
    return out


def step_summary(lines: list[str]) -> None:
    """The text in the job summary, where GitHub gives one ($GITHUB_STEP_SUMMARY)."""
    import os

    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        return
    with open(target, "a", encoding="utf-8") as out:
        out.write("### rulelens verify\n\n```\n" + "\n".join(lines) + "\n```\n")
