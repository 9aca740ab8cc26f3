"""Other agents' rule files: one reader and matcher per agent, and what each loads for a path.

- ``AgentProject(repo, files=None)``: the agents present in a project;
  ``view(path) -> PathView`` with ``loads`` / ``maybe`` per agent id and budget notes.
- ``agent_problems(project) -> list[Problem]``: traps, budgets and ``agents-disagree``;
  filter by ``Problem.file`` for one file's diagnostics.
- ``project.owner_of(rel) -> Agent | None``: whose rule file a path is; ``agent.keys[0]`` is its
  frontmatter glob key (``paths``, ``applyTo``, ``globs``, ``fileMatchPattern``).
- ``AGENT_IDS``: ``boost``, ``claude-code``, ``copilot``, ``cursor``, ``windsurf``, ``kiro``,
  ``continue``, ``cline``, ``codex``.
"""

from rulelens.rules.agents.model import Load, Maybe
from rulelens.rules.agents.project import AGENT_IDS, AgentProject, PathView
from rulelens.rules.agents.traps import agent_problems

__all__ = ["AGENT_IDS", "AgentProject", "Load", "Maybe", "PathView", "agent_problems"]
