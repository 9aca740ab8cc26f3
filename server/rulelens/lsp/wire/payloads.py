"""The wire contract of rulelens's own methods and commands: names and payload shapes.

Python is the source of truth: the VS Code extension mirrors these TypedDicts in
`vscode-extension/src/protocol.ts`, and the Neovim plugin names the same methods and kinds in
`neovim/lua/rulelens/init.lua` (tests compare each with this module). Neovim reads the same keys.
Keys are camelCase on the wire; clients must ignore keys they do not know.

Incoming arguments are untrusted JSON: `*_args` below read them into these shapes, keeping
only values of the right type, so that a handler never sees a half-typed dict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Literal, TypedDict

if TYPE_CHECKING:
    from rulelens.rules.model import Problem

# -- names ---------------------------------------------------------------------------------
RECORD_RULE = "rulelens.recordRule"
OPEN_RULE = "rulelens.openRule"
WRITE_INDEX = "rulelens.writeIndex"
VERIFY = "rulelens.verify"  # runs the installed agents (agent_runs.verify): seconds to minutes
VERIFY_CANCEL = "rulelens.verifyCancel"  # ends the running verifies' agents; they answer at once
COMMANDS = [RECORD_RULE, OPEN_RULE, WRITE_INDEX, VERIFY, VERIFY_CANCEL]
RECORD_KIND = "source.rulelens.record"  # the code action kind of the record actions

RULES_FOR_PATH = "rulelens/rulesForPath"
SUGGEST_GLOBS = "rulelens/suggestGlobs"
RULES_CHANGED = "rulelens/rulesChanged"  # a notification to the client: ask rulesForPath again

# "agent": another agent's rule file (`.claude/rules/*.md`, `.github/instructions`, `AGENTS.md`...).
Kind = Literal["source", "rule", "index", "agent"]


# -- requests ------------------------------------------------------------------------------
class DocumentParams(TypedDict):
    """Params of `rulelens/rulesForPath` and `rulelens/suggestGlobs`."""

    uri: str


class EntryRef(TypedDict):
    title: str
    line: int  # 1-based line of the `## ` heading


class RuleForPath(TypedDict):
    file: str  # root-relative
    uri: str
    title: str | None  # the `# ` heading
    line: int  # 1-based line of the `# ` heading (1 when there is none)
    globs: list[str]  # `paths` items as written that matched
    matched: list[str]  # their expanded alternatives that matched
    agentsSee: bool
    agentsMissBecause: str | None  # one line saying why and how to fix it; None when seen
    # What fixes it, when one action does: rewrite the index, or quote the globs in the file.
    agentsMissFix: Literal["writeIndex", "quoteGlobs"] | None
    bytes: int  # the rule file's size, what an agent reads when it follows the index to it
    entries: list[EntryRef]


class _AgentLoadKeys(TypedDict):
    file: str  # root-relative
    uri: str
    how: Literal["always", "glob", "directory"]
    patterns: list[str]  # the patterns that matched (for "glob")
    bytes: int
    entries: list[EntryRef]  # its `## ` headings (1-based lines)


class AgentLoad(_AgentLoadKeys, total=False):
    """A file an agent loads on its own for an edit of the path. The optional key is declared with
    `total=False`, not `NotRequired`, which Python 3.10 lacks (the bundled server runs on it)."""

    importedBy: str  # the file and line whose `@path` import loads it ("CLAUDE.md:12")


class AgentMaybe(TypedDict):
    """A file the model may pick by its description, or that loads only when asked for."""

    file: str
    uri: str
    how: Literal["agent-decides", "manual", "start-folder"]


class AgentCap(TypedDict):
    """An agent's documented cap: over the files loaded for one path, or on each file."""

    limit: int
    unit: Literal["bytes", "characters", "lines"]
    per: Literal["path", "file"]
    source: str


class AgentView(TypedDict):
    """What one agent other than Boost loads for the path."""

    id: str  # an id of agents/registry.py (never the home format's: Boost is the main view)
    name: str
    confirmed: bool  # False: rulelens follows third-party material ("documented behaviour not confirmed")
    # The release that was run end to end for what a read of the path loads ("Claude Code
    # 2.1.337"), else None; `matcherConfirmedIn`: the release whose code its matcher and file
    # reading were checked against, where the whole answer was not run (else None).
    confirmedIn: str | None
    matcherConfirmedIn: str | None
    loads: list[AgentLoad]
    maybe: list[AgentMaybe]
    overBudget: str | None  # one line when the load is over the agent's cap
    cap: AgentCap | None


class RulesForPath(TypedDict):
    """`rulelens/rulesForPath`'s answer (None for a document outside every root)."""

    uri: str
    root: str  # absolute path of the project root
    rootUri: str
    rulesFolder: str  # root-relative, e.g. ".ai/rules"
    path: str  # root-relative
    kind: Kind
    rules: list[RuleForPath]  # empty for rule files and the index (other agents' files: Boost's rules)
    # One per present agent other than Boost (its rules are `rules`), in a fixed order; empty for
    # rule files, the index and other agents' rule files. Clients must tolerate its absence.
    agents: list[AgentView]
    agent: str | None  # for kind "agent": the id of the agent whose rule file this is


class RulesChanged(TypedDict):
    """`rulelens/rulesChanged`'s params: the roots (URIs) whose rules or agent files changed."""

    roots: list[str]


class GlobSuggestion(TypedDict):
    glob: str
    count: int  # files of the project it matches


class SuggestGlobs(TypedDict):
    """`rulelens/suggestGlobs`'s answer: the file, `dir/**`, `dir/*.ext`, in that order."""

    globs: list[GlobSuggestion]


# -- diagnostic data -----------------------------------------------------------------------
STALE_CODES = frozenset({"stale-path", "stale-name"})


class MentionFix(TypedDict):
    """`data` of a `stale-path` or `stale-name` diagnostic (clients send it back unchanged with
    the code action request): what its quick fixes edit, so that they never re-read the message."""

    mention: str  # the text at the diagnostic's range when it was published
    replacements: list[str]  # texts that could replace it (a moved path), best first; may be empty


# -- commands ------------------------------------------------------------------------------
class RecordRuleArgs(TypedDict, total=False):
    """`rulelens.recordRule`'s one argument; without title and note the server places a
    skeleton. `root` is the project's URI, `uri` the document's."""

    glob: str
    title: str
    note: str
    root: str
    uri: str


class RecordedRule(TypedDict):
    """`rulelens.recordRule`'s answer after a record."""

    file: str  # root-relative
    line: int  # 1-based line of the new `## ` heading
    uri: str
    created: bool
    message: str


class PlacedSkeleton(TypedDict):
    """`rulelens.recordRule`'s answer when it placed an entry skeleton (no title and note)."""

    file: str  # absolute path
    line: int  # 1-based line of the skeleton's `## ` heading
    uri: str
    skeleton: bool


class OpenRuleArgs(TypedDict):
    uri: str
    line: int  # 0-based


class WriteIndexArgs(TypedDict, total=False):
    root: str  # the project's URI; the only root when absent


class WriteIndexResult(TypedDict):
    written: bool


class ErrorResult(TypedDict):
    error: str


Moment = Literal["read", "edit", "create"]


class VerifyArgs(TypedDict, total=False):
    """`rulelens.verify`'s one argument. `uri`: a file (asked about) or a project root (a few
    paths chosen from what its rules name). `agents`: ids, or `ID=BINARY`; absent: every agent
    whose command is on the server's PATH. `on`: the moment, "read" when absent. Its answer is
    `rulelens verify --json`'s object as is (docs/verify.md), or an ErrorResult."""

    uri: str  # required: verify_args refuses an argument without it
    agents: list[str]
    on: Moment


Arrived = Literal["start", "after-read", "after-edit", "after-create"]


class VerifySeen(TypedDict):
    file: str
    arrived: Arrived


class VerifyRow(TypedDict):
    """One file: when rulelens predicts it arrives, when the agent sent it (None: not at all)."""

    file: str
    predicted: Arrived | None
    sent: Arrived | None
    differs: bool


class VerifyCase(TypedDict):
    """One agent asked about one path."""

    agent: str
    version: str
    path: str
    moment: Moment
    why: str
    agree: bool
    seconds: float
    rows: list[VerifyRow]
    predicted: list[VerifySeen]
    sent: list[VerifySeen]
    error: str | None  # why the run did not finish


class VerifyUserFiles(TypedDict):
    included: bool
    files: dict[str, list[str]]  # agent id -> the ~/ files copied into its empty home
    note: str


class VerifyAgent(TypedDict):
    agent: str
    binary: str


class VerifyPath(TypedDict):
    path: str
    why: str


class VerifyResult(TypedDict):
    """`rulelens.verify`'s answer: `rulelens verify --json`'s object (snake_case, as the CLI's)."""

    root: str
    moment: Moment
    moment_default: bool
    user_files: VerifyUserFiles
    agents: list[VerifyAgent]
    paths: list[VerifyPath]
    cases: list[VerifyCase]
    failures: list[str]
    exit: Literal[0, 1, 2]


# -- reading untrusted arguments -----------------------------------------------------------
def _first(args: Sequence[object]) -> Mapping[str, object]:
    first = args[0] if args else None
    return first if isinstance(first, Mapping) else {}


def record_rule_args(args: Sequence[object]) -> RecordRuleArgs:
    """The string fields of the first argument; anything else is dropped."""
    raw = _first(args)
    out = RecordRuleArgs()
    for key in ("glob", "title", "note", "root", "uri"):
        value = raw.get(key)
        if isinstance(value, str):
            out[key] = value  # type: ignore[literal-required]
    return out


def open_rule_args(args: Sequence[object]) -> OpenRuleArgs | None:
    raw = _first(args)
    uri, line = raw.get("uri"), raw.get("line", 0)
    if isinstance(uri, str) and isinstance(line, int) and not isinstance(line, bool):
        return OpenRuleArgs(uri=uri, line=line)
    return None


def verify_args(args: Sequence[object]) -> VerifyArgs | None:
    """The uri (required), the agents (strings only) and the moment (one of the three)."""
    raw = _first(args)
    uri, agents, on = raw.get("uri"), raw.get("agents"), raw.get("on")
    if not isinstance(uri, str):
        return None
    out = VerifyArgs(uri=uri)
    if isinstance(agents, list):
        out["agents"] = [a for a in agents if isinstance(a, str)]
    if on in ("read", "edit", "create"):
        out["on"] = on  # type: ignore[typeddict-item]
    return out


def write_index_args(args: Sequence[object]) -> WriteIndexArgs:
    root = _first(args).get("root")
    return WriteIndexArgs(root=root) if isinstance(root, str) else WriteIndexArgs()


def mention_data(problem: Problem, lines: Sequence[str]) -> MentionFix | None:
    """The `data` of a published staleness diagnostic (None for other findings)."""
    if problem.code not in STALE_CODES or not 0 <= problem.line < len(lines):
        return None
    line = lines[problem.line]
    mention = line[problem.col : problem.end_col if problem.end_col is not None else len(line)]
    if not mention:
        return None
    return MentionFix(mention=mention, replacements=list(problem.replacements))


def mention_fix(data: object) -> MentionFix | None:
    """A diagnostic's `data` read back into a MentionFix; None when it is not one."""
    if not isinstance(data, Mapping):
        return None
    mention, replacements = data.get("mention"), data.get("replacements")
    if not isinstance(mention, str) or not mention or not isinstance(replacements, list):
        return None
    return MentionFix(mention=mention, replacements=[r for r in replacements if isinstance(r, str) and r])


def document_uri(params: object) -> str | None:
    """The `uri` of a request's params, whether pygls hands over a mapping or an object."""
    value = params.get("uri") if isinstance(params, Mapping) else getattr(params, "uri", None)
    return value if isinstance(value, str) else None
