"""`rulelens init`: point AGENTS.md (and CLAUDE.md) at the rules; optionally MCP and the plugin."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from rulelens.cli.common import EXIT_OK, Run

if TYPE_CHECKING:
    from rulelens.workspace.filelist import FileList

EXAMPLE = "rulelens init --mcp"


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mcp", action="store_true",
                        help="also register `rulelens mcp` in .mcp.json (default: off)")
    parser.add_argument("--claude", action="store_true",
                        help="also write the Claude Code project plugin .claude/skills/rulelens "
                             "(rulelens serve and rulelens mcp) (default: off)")
    parser.add_argument("--observe", action="store_true",
                        help="also register the agents' hooks that log which instruction files they "
                             "load in real sessions (Claude Code's InstructionsLoaded in "
                             ".claude/settings.local.json; Qwen Code's in .qwen/settings.json when "
                             "git does not track it), kept in .git/rulelens/observed.jsonl; "
                             "match --agents, the hover and map then show them (default: off)")


def run(run: Run) -> int:
    from rulelens.setup.init_project import init_project

    repo = run.repository()

    def agent_files(files: FileList) -> list[str]:
        from rulelens.agents.project import AgentProject

        return [f.rel for agent in AgentProject(repo, files).present for f in agent.files]

    hooks = []
    if run.args.observe:
        from rulelens.agents.registry import AGENTS

        hooks = [(a.id, a.name, a.observe_hook) for a in AGENTS if a.observe_hook is not None]
    for line in init_project(repo.root, run.args.mcp, run.args.claude, agent_files, hooks):
        run.say(line)
    return EXIT_OK
