"""`rulelens mcp`: the agent's side of the rules, on the same core as the editor and the CLI.

Four tools over stdio (docs/mcp.md). Each tool checks its own arguments (see `_TextTool`), so an
agent that sends a number, null or nothing gets one plain sentence back, never a pydantic
report or a traceback. Logs go to stderr; stdout carries only protocol messages.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, TextContent, ToolAnnotations

from rulelens import __version__
from rulelens.agents.model import MOMENTS
from rulelens.report.markdown import (
    SEARCH_LIMIT,
    render_agent_loads,
    render_agent_search,
    render_imported,
    render_matches,
    render_search,
)
from rulelens.report.words import unread_lines
from rulelens.rules.model import RuleError
from rulelens.rules.repository import RuleRepository
from rulelens.workspace.git import GitSession
from rulelens.workspace.root import find_root, writable

if TYPE_CHECKING:
    from rulelens.agents.observed import AgentSeen
    from rulelens.agents.project import AgentProject, PathView

log = logging.getLogger("rulelens.mcp")

INSTRUCTIONS = (
    "Project rules for this repository live in .ai/rules. Before planning or editing a file, "
    "call rules-for-path with its path and follow what it returns. Use search-rules for "
    "concepts that cut across folders. Call record-rule only when the user asks you to "
    "record a rule. check-rules reports what is wrong with the rules themselves."
)
# A project without `.ai/rules`: its rules are the agents' own files, and the tools answer from them.
INSTRUCTIONS_AGENTS = (
    "This repository keeps its rules in the agents' own files (AGENTS.md, CLAUDE.md, "
    ".github/instructions, .cursor/rules and the like), not in .ai/rules. Before planning or "
    "editing a file, call rules-for-path with its path: it names the rule files each agent loads "
    "for it. Use search-rules to find text in those files. record-rule starts .ai/rules; call it "
    "only when the user asks you to record a rule. check-rules reports what is wrong with the rules."
)

RECORD_DESCRIPTION = (
    "Record a project rule in .ai/rules, exactly as Laravel Boost's record-rule does, and "
    "rebuild .ai/rules/index.md. Only record what the user asked you to record: a decision, "
    "trap or constraint they want kept for the next agent or teammate. Do not record your own "
    "observations or plans unprompted. Returns `Recorded rule in <file>: <title>.`"
)
RULES_FOR_PATH_DESCRIPTION = (
    "The project rules that apply to one file, as text: for each matching rule file a "
    "`# .ai/rules/<file>` line, then its entries (`## Title` and note). Call it before you "
    "plan or edit a file; it replaces reading the index and whole rule files. The path is "
    "relative to the project root (or absolute, inside it); the file need not exist yet."
)
SEARCH_DESCRIPTION = (
    "Find rule entries whose title or note contains the query (case-insensitive), with the "
    f"rule file and 1-based line of each entry. Use it for concepts that cut across folders, "
    f"and for rules in files without globs. At most {SEARCH_LIMIT} entries are returned."
)
CHECK_DESCRIPTION = (
    "Check the project's rules as `rulelens check` does: rule files agents cannot read, globs "
    "that match no file, a stale or missing index, mentions of files and code the project no "
    "longer has, and other agents' rule files. One finding per line (`file:line: severity "
    "[code] message`), then a count. Takes no arguments."
)


def _text(message: str, *, error: bool = False) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=error)


def _schema(fields: dict[str, str], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            name: {"type": "string", "description": doc} for name, doc in fields.items()
        },
        "required": [name for name in fields if name not in optional],
        "additionalProperties": False,
    }


Handler = Callable[[dict[str, Any]], Awaitable[CallToolResult]]


class _TextTool(Tool):
    """A tool that receives the raw arguments and checks them itself.

    The SDK's own validation would answer a wrong type with a multi-line pydantic report,
    and it JSON-decodes string arguments of non-`str` parameters (a note `null` would turn
    into None). The handler returns a finished `CallToolResult`; anything unexpected is
    logged to stderr and reported as one line.
    """

    async def run(
        self, arguments: dict[str, Any], context: Context[Any, Any], convert_result: bool = False
    ) -> Any:
        try:
            return await self.fn(arguments)
        except Exception:
            log.exception("Tool %s failed", self.name)
            return _text(f"{self.name} failed inside rulelens; the server log has details.",
                         error=True)


def _make_tool(name: str, description: str, fields: dict[str, str], handler: Handler,
               read_only: bool, optional: tuple[str, ...] = ()) -> Tool:
    async def fn(arguments: dict[str, Any]) -> CallToolResult:
        return await handler(arguments)

    tool = _TextTool.from_function(
        fn, name=name, description=description,
        annotations=ToolAnnotations(read_only_hint=read_only, destructive_hint=False,
                                    idempotent_hint=read_only, open_world_hint=False),
    )
    tool.parameters = _schema(fields, optional)
    return tool


def _strings(tool: str, arguments: dict[str, Any], names: tuple[str, ...]) -> list[str]:
    """The named arguments as strings; missing or null count as empty, other types are refused."""
    unknown = sorted(set(arguments) - set(names))
    if unknown:
        raise RuleError(
            f"{tool} takes only {', '.join(names)}; unknown argument(s): {', '.join(unknown)}."
        )
    out = []
    for name in names:
        value = arguments.get(name)
        if value is None:
            value = ""
        if not isinstance(value, str):
            raise RuleError(f"{tool}: `{name}` must be a string, not {_json_type(value)}.")
        out.append(value)
    return out


def _json_type(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


# -- the server ------------------------------------------------------------------------------
class RulesTools:
    """The tools over one repository; core calls run one at a time, off the event loop."""

    def __init__(self, root: Path, writable: bool = True) -> None:
        self.repo = RuleRepository(root, writable=writable)
        self.root = self.repo.root
        self._lock = anyio.Lock()
        # What git told this server about its root (a work tree's yes, where the caches live),
        # for every check it runs: the server's own, as each language-server root has its own.
        self.git = GitSession()
        self.repo.frontmatter.git = self.git

    async def _core(self, work: Callable[[], str]) -> CallToolResult:
        async with self._lock:
            try:
                return _text(await anyio.to_thread.run_sync(work))
            except RuleError as exc:
                return _text(str(exc), error=True)
            except OSError as exc:  # e.g. a read-only checkout: say so, as the CLI does
                where = f" ({self.repo.rel(exc.filename) or exc.filename})" if exc.filename else ""
                return _text(f"{exc.strerror or exc}{where}.", error=True)

    async def record_rule(self, arguments: dict[str, Any]) -> CallToolResult:
        try:
            glob, title, note = _strings("record-rule", arguments, ("glob", "title", "note"))
        except RuleError as exc:
            return _text(str(exc), error=True)
        return await self._core(lambda: self.repo.record(glob, title, note).message)

    async def rules_for_path(self, arguments: dict[str, Any]) -> CallToolResult:
        try:
            path, on = _strings("rules-for-path", arguments, ("path", "on"))
            rel = self.relative(path)
            if on and on not in MOMENTS:
                raise RuleError(f"rules-for-path: `on` is read, edit or create, not {on!r}.")
        except RuleError as exc:
            return _text(str(exc), error=True)

        def work() -> str:
            self.repo.refresh()
            if not self.repo.rules_path.is_dir():
                answer = render_agent_loads(rel, self._agent_loads(rel))
                project = self._agents()
                view = project.view(rel, on or "read")  # type: ignore[arg-type]
                seen = self._seen(project, view)
                if seen:
                    from rulelens.report.agents import observed_lines

                    answer += "\nObserved in real sessions:\n" + observed_lines(project.present, view, seen)
                return answer
            answer = render_matches(self.repo.rules_for(rel)) or f"No project rules apply to {rel}."
            project = self._agents()
            view = project.view(rel, on or "read")  # type: ignore[arg-type]
            seen = self._seen(project, view)  # what real sessions showed, as match and the hover say
            if on:  # asked about a moment: what every agent loads for the path then
                from rulelens.report.agents import loads_text

                answer += "\n" + loads_text(project.present, view, seen)
            else:  # the files agents import for the path with `@path`, which the rules alone omit
                imported = render_imported(project.present, view)
                if imported:
                    answer += "\n\n" + imported
                if seen:
                    from rulelens.report.agents import observed_lines

                    answer += "\n\nObserved in real sessions:\n" + observed_lines(project.present, view, seen)
            # A rule file left out is said: the agent would otherwise take the answer as whole.
            unread = [f"Note: {line}." for line in unread_lines(self.repo.unread())]
            return "\n\n".join([answer, "\n".join(unread)]) if unread else answer

        return await self._core(work)

    async def search_rules(self, arguments: dict[str, Any]) -> CallToolResult:
        try:
            (query,) = _strings("search-rules", arguments, ("query",))
        except RuleError as exc:
            return _text(str(exc), error=True)
        if not query.strip():
            return _text("search-rules needs a non-empty query.", error=True)

        def work() -> str:
            self.repo.refresh()
            hits = self.repo.search(query)
            if not hits and not self.repo.rules_path.is_dir():
                return render_agent_search(self._agent_lines(query.strip()), query.strip())
            return render_search(hits, query.strip())

        return await self._core(work)

    async def check_rules(self, arguments: dict[str, Any]) -> CallToolResult:
        try:
            _strings("check-rules", arguments, ())
        except RuleError as exc:
            return _text(str(exc), error=True)

        def work() -> str:
            from rulelens.check_project import check_project
            from rulelens.report.text import NO_RULES, check_summary, problem

            self.repo.refresh()
            result = check_project(self.repo, git=self.git)
            if result.nothing_to_check:
                return NO_RULES.format(self.repo.rules_dir)
            return "\n".join([*(problem(p) for p in result.problems), check_summary(result)])

        return await self._core(work)

    def _agents(self) -> AgentProject:
        from rulelens.agents.project import AgentProject

        return AgentProject(self.repo)

    def _seen(self, project: AgentProject, view: PathView) -> dict[str, AgentSeen]:
        """The agents' observed sessions for the path (`rulelens init --observe`'s hook)."""
        from rulelens.agents.observed import Observed

        observed = Observed.of(project, self.git)
        return observed.for_path(project, view) if observed else {}

    def _agent_loads(self, rel: str) -> dict[str, list[tuple[str, str]]]:
        """By file, the agents (other than Boost's) that load it for `rel`, and how."""
        agents = self._agents()
        view = agents.view(rel)
        out: dict[str, list[tuple[str, str]]] = {}
        for agent in agents.others:
            for load in view.loads.get(agent.id, []):
                out.setdefault(load.file, []).append((agent.name, load.how))
        return out

    def _agent_lines(self, query: str) -> list[tuple[str, int, str]]:
        """The lines of the agents' own rule files that hold `query` (case-insensitive)."""
        needle = query.casefold()
        seen: set[str] = set()
        hits: list[tuple[str, int, str]] = []
        for agent in self._agents().present:
            for f in agent.files:
                if f.rel in seen or agent.home:
                    continue
                seen.add(f.rel)
                for n, line in enumerate(f.text.splitlines(), 1):
                    if needle in line.casefold():
                        hits.append((f.rel, n, line.strip()))
        return hits

    def relative(self, path: str) -> str:
        """Root-relative POSIX path of a path inside the root; refuses anything else."""
        text = path.strip()
        if not text:
            raise RuleError("rules-for-path needs a non-empty path.")
        if "\x00" in text:
            raise RuleError("A path cannot contain NUL characters.")
        if os.path.normpath(self.root / text) == str(self.root):
            raise RuleError("rules-for-path needs a file path, not the project root itself.")
        rel = self.repo.rel(text)
        if rel is None and Path(text).is_absolute():
            rel = self.repo.rel(os.path.realpath(text))  # e.g. /tmp vs /private/tmp
        if rel is None:
            raise RuleError(
                f"The path {text} is outside the project root {self.root}; "
                "give a path inside the project."
            )
        return rel

    def server(self) -> MCPServer:
        tools = [
            _make_tool("record-rule", RECORD_DESCRIPTION, {
                "glob": "Files the rule applies to, relative to the project root, e.g. "
                        "`app/Http/Controllers/**` or `resources/js/**/*.vue`.",
                "title": "A short title for the rule (one line).",
                "note": "The rule itself: a few lines of what to do or avoid, and why.",
            }, self.record_rule, read_only=False),
            _make_tool("rules-for-path", RULES_FOR_PATH_DESCRIPTION, {
                "path": "A file path relative to the project root, e.g. `app/Models/User.php`.",
                "on": "Optional: `read`, `edit` or `create`. Also list what every agent (Claude Code, "
                      "Copilot, Cursor…) loads for the path when it reads, edits or creates it; "
                      "agents can load different files at each moment. Left out: no agent list.",
            }, self.rules_for_path, read_only=True, optional=("on",)),
            _make_tool("search-rules", SEARCH_DESCRIPTION, {
                "query": "Text to look for in entry titles and notes, e.g. `billing`.",
            }, self.search_rules, read_only=True),
            _make_tool("check-rules", CHECK_DESCRIPTION, {}, self.check_rules, read_only=True),
        ]
        instructions = INSTRUCTIONS if self.repo.rules_path.is_dir() else INSTRUCTIONS_AGENTS
        return MCPServer(name="rulelens", version=__version__, instructions=instructions,
                         tools=tools, log_level="WARNING")


def main(root: Path | None) -> int:
    """Serve the tools on stdio until the client closes the connection."""
    project = find_root(Path.cwd(), root)
    tools = RulesTools(project, writable=writable(project, root is not None))
    log.info("rulelens mcp serving %s", tools.root)
    tools.server().run("stdio")
    return 0
