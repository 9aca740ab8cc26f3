"""`rulelens init`: point agents at the rules from AGENTS.md / CLAUDE.md, and register the MCP server
(`--mcp`) or the Claude Code project plugin with both servers (`--claude`, rules/claude_plugin.py).

The pointer is a marker-delimited section, so re-running `init` replaces only its own text and
leaves the rest of the file (for example Laravel Boost's `<laravel-boost-guidelines>` block)
byte for byte as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from rulelens.rules.model import RuleError
from rulelens.rules.write.atomic import write_atomic
from rulelens.setup.claude_plugin import make_dirs, ruled_paths, write_plugin
from rulelens.setup.mcp_clients import CLAUDE, register_json, register_others, registered
from rulelens.setup.observe_hooks import Hook, register_all
from rulelens.workspace.filelist import FileList
from rulelens.workspace.root import RULES_DIR

BEGIN = "<!-- rulelens:begin -->"
END = "<!-- rulelens:end -->"
BOM = b"\xef\xbb\xbf"
MCP_JSON = ".mcp.json"
# Claude Code's docs recommend a CLAUDE.md under about 200 lines, the budget `check` holds it to
# (agents/formats/claude_code.py; tests/cli/test_init.py keeps the two equal). A section that
# would take it past that goes into a rule file of its own, which Claude Code also loads for
# every file (it has no `paths`) and which the budget does not count.
CLAUDE_LINES = 200
CLAUDE_RULE = ".claude/rules/rulelens.md"

_BODY = [
    "## Project rules",
    "",
    f"This project keeps rules for coding agents in `{RULES_DIR}/` (Laravel Boost's format).",
    "",
    f"- Before planning or editing a file, open `{RULES_DIR}/index.md`, find every row whose "
    "globs match the file's path, and read those rule files. Follow what they say.",
    f"- Then search `{RULES_DIR}/` for the concepts of the task (for example "
    f"`grep -rin 'billing' {RULES_DIR}`): cross-cutting rules, and rule files without globs, "
    "are not found by path.",
]
_RECORD_CLI = (
    "- Record a rule only when the user asks you to: "
    "`rulelens record --glob 'app/Models/**' --title '...' --note '...'`."
)
_MCP = [
    "- The `rulelens` MCP server offers the same rules as tools: `rules-for-path` returns just "
    "the entries that apply to a file (use it instead of reading the index and whole rule "
    "files), `search-rules` finds entries by text, with file and line, and `record-rule` "
    "records a rule.",
    "- Record a rule (`record-rule`) only when the user asks you to.",
]


def section(mcp: bool, newline: str = "\n") -> str:
    """The marker-delimited section, in the file's own line endings."""
    lines = [BEGIN, *_BODY, *(_MCP if mcp else [_RECORD_CLI]), END]
    return newline.join(lines) + newline


def init_project(root: Path, mcp: bool, claude: bool = False,
                 agent_files: Callable[[FileList], Iterable[str]] | None = None,
                 observe: Iterable[tuple[str, str, Hook]] = ()) -> list[str]:
    """Write the agent pointer (with mcp, the `.mcp.json` entry; with claude, the Claude Code
    plugin, for the files the rules reach and `agent_files(files)`, every agent's rule files;
    `observe`: the agents' instruction-loading hooks to register); returns lines to print."""
    root = root.resolve()
    if not (root / RULES_DIR).is_dir():
        raise RuleError(
            f"There is no {RULES_DIR}/ folder in {root}: record a rule first "
            "(`rulelens record ...`), then run `rulelens init` again."
        )
    out: list[str] = []
    if mcp:
        out.append(register_server(root))
        out.extend(register_others(root, _real_target))
    if claude:
        files = FileList.for_root(root)
        out.extend(write_plugin(root, ruled_paths(root, files, agent_files(files) if agent_files else ())))
    if observe:
        out.extend(register_all(root, observe))
    # The tools are named only where a client starts the server: else agents look for tools
    # they do not have.
    mention_mcp = mcp or claude or registered(root)
    done: set[Path] = set()
    for name, create in (("AGENTS.md", True), ("CLAUDE.md", False)):
        path = root / name
        if not create and not path.is_symlink() and not path.exists():
            continue
        real = _real_target(path, root)
        if real in done:
            out.append(f"{name} is a link to a file already updated.")
            continue
        done.add(real)
        moved = _claude_rule(real, root, mention_mcp) if name == "CLAUDE.md" else None
        out.append(moved if moved is not None else _update_file(real, name, mention_mcp, root))
    return out


def _claude_rule(claude_md: Path, root: Path, mcp: bool) -> str | None:
    """The section's place for Claude Code when it is not CLAUDE.md: `.claude/rules/rulelens.md`
    when that holds it already, or when CLAUDE.md, without one, would go past its budget; None
    to write it in CLAUDE.md."""
    from rulelens.rules.format.reading import split_lines

    rule = root / CLAUDE_RULE
    text, _ = _read_text(claude_md, "CLAUDE.md")
    if any(line.strip() == BEGIN for line in text.splitlines()):
        return None  # the person's CLAUDE.md holds it: it is updated there
    if not (rule.is_file() and BEGIN in _read_text(rule, CLAUDE_RULE)[0]):
        lines = len(split_lines(replace_section(text, mcp)))
        if lines <= CLAUDE_LINES:
            return None
        make_dirs(root, CLAUDE_RULE.rpartition("/")[0])  # refusing a `.claude` that links out
        said = _update_file(_real_target(rule, root), CLAUDE_RULE, mcp, root)
        return (f"{said} CLAUDE.md has {len(split_lines(text))} lines and the section would take it "
                f"to {lines}, past the {CLAUDE_LINES} Claude Code's docs recommend; Claude Code loads "
                f"{CLAUDE_RULE} for every file, as it loads CLAUDE.md.")
    return _update_file(_real_target(rule, root), CLAUDE_RULE, mcp, root)


def _real_target(path: Path, root: Path) -> Path:
    """Where a write to `path` lands; a link is followed only while it stays in the root."""
    real = path.resolve()
    if real != root and root not in real.parents:
        raise RuleError(f"{path.name} links to {real}, outside the project; not writing through it.")
    if real.exists() and not real.is_file():
        raise RuleError(f"{path.name} is not a regular file.")
    return real


def _read_text(path: Path, name: str) -> tuple[str, bytes]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return "", b""
    prefix = BOM if raw.startswith(BOM) else b""
    try:
        return raw[len(prefix):].decode("utf-8"), prefix
    except UnicodeDecodeError as exc:
        raise RuleError(f"{name} is not valid UTF-8 (byte {exc.start}); not rewriting it.") from exc


def replace_section(text: str, mcp: bool) -> str:
    """The text with its section written in, replacing an existing one or appended at the end."""
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    begins = [i for i, line in enumerate(lines) if line.strip() == BEGIN]
    ends = [i for i, line in enumerate(lines) if line.strip() == END]
    if not begins and not ends:
        head = text.rstrip("\r\n")
        return (head + newline + newline if head.strip() else "") + section(mcp, newline)
    if len(begins) != 1 or len(ends) != 1 or ends[0] < begins[0]:
        raise RuleError(
            f"The file has {len(begins)} `{BEGIN}` and {len(ends)} `{END}` markers; it needs "
            "one of each, in that order. Fix or remove them, then run `rulelens init` again."
        )
    start, end = begins[0], ends[0]
    new = section(mcp, newline)
    if not lines[end].endswith(("\n", "\r")):
        new = new.rstrip("\r\n")
    return "".join(lines[:start]) + new + "".join(lines[end + 1:])


def _update_file(path: Path, name: str, mcp: bool, root: Path) -> str:
    existed = path.exists()
    text, prefix = _read_text(path, name)
    had_section = any(line.strip() == BEGIN for line in text.splitlines())
    new = replace_section(text, mcp)
    if new == text:
        return f"{name} is up to date."
    write_atomic(path, prefix + new.encode("utf-8"), root)
    if not existed:
        return f"Created {name} with the project-rules section."
    if had_section:
        return f"Updated the project-rules section in {name}."
    return f"Added the project-rules section to {name}."


def register_server(root: Path) -> str:
    """Add or update the `rulelens` entry of `.mcp.json`, keeping every other entry and key."""
    return register_json(root, CLAUDE, _real_target(root / MCP_JSON, root))
