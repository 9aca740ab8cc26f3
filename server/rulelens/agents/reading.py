"""Read any agent's Markdown rule file: frontmatter (strictly, and line by line), body, heading.

The strict reading is PyYAML's safe loader, as most agents parse frontmatter with a real YAML
library. The line-by-line reading is hand-written on purpose: it models the permissive readers
some agents use (Cursor's, Windsurf's `globs`), which no YAML library reproduces.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulelens.agents.model import AgentFile
from rulelens.rules.format.reading import decode, find_frontmatter, split_lines
from rulelens.workspace.reads import Reads

if TYPE_CHECKING:
    from rulelens.rules.format.yaml_cache import FrontmatterCache

MAX_BYTES = 2 * 1024 * 1024
_KEY = re.compile(r"([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*)|[ \t]*)$")
_ITEM = re.compile(r"[ \t]+-[ \t]*(.*)$")
_HEADING = re.compile(r"#[ \t]+(.+?)[ \t#]*$")


def read_agent_file(root: Path, rel: str, agent: str, cache: FrontmatterCache | None = None,
                    reads: Reads | None = None) -> AgentFile:
    """The file at root/rel as `agent` reads it; unreadable files read as empty. `cache` answers
    for a frontmatter parsed in an earlier run; `reads` notes the read (workspace/reads.py)."""
    try:
        raw = (reads if reads is not None else Reads()).read_bytes(root / rel, MAX_BYTES + 1)
    except OSError:
        raw = b""
    text, _ = decode(raw)
    return parse_agent_text(text, rel, agent, len(raw), cache=cache)


def parse_agent_text(text: str, rel: str, agent: str, size: int | None = None,
                     read_yaml: bool = True, cache: FrontmatterCache | None = None) -> AgentFile:
    """`text` as `agent` reads it; `read_yaml=False` skips the YAML (Boost's files are read by the
    core already)."""
    lines = split_lines(text)
    f = AgentFile(agent, rel, text, len(text.encode("utf-8")) if size is None else size)
    fm, unclosed = find_frontmatter(lines)
    body_start = 0
    if fm is not None:
        f.has_frontmatter = True
        f.head = fm.body
        body_start = fm.close_line + 1
        if read_yaml:
            _strict(f, fm.body, fm.open_line + 1, cache)
        _loose(f, lines[fm.open_line + 1 : fm.close_line], fm.open_line + 1)
    elif unclosed:
        f.has_frontmatter = True
        f.yaml_error = unclosed
    body_lines = lines[body_start:]
    f.body = "\n".join(body_lines).strip()
    for line in body_lines:
        m = _HEADING.match(line)
        if m:
            f.heading = m.group(1).strip()
            break
    return f


def _safe_load(source: str) -> Any:
    from rulelens.rules.format import simple_yaml  # here, as the rules' reading loads it

    simple = simple_yaml.load_safe(source)
    if simple is not None:
        return simple
    import yaml  # here: a simple or cached frontmatter needs no YAML library

    return yaml.safe_load(source)


def _strict(f: AgentFile, source: str, first_line: int, cache: FrontmatterCache | None = None) -> None:
    try:
        if not source.strip():
            data = {}
        else:
            data = cache.parse("safe", source, _safe_load) if cache else _safe_load(source)
    except RecursionError:
        f.yaml_error, f.yaml_error_line = "the frontmatter is nested too deeply to read", first_line
        return
    except Exception as exc:
        import yaml

        if not isinstance(exc, yaml.YAMLError):
            raise
        from rulelens.rules.format.yaml_words import explain

        said = explain(exc, source)
        f.yaml_error_line = first_line + said.line
        f.yaml_error = said.words + (f"; quote it: '{said.quote}'" if said.quote is not None else "")
        return
    if isinstance(data, dict):
        f.data = {str(k): v for k, v in data.items()}
    elif data is None:
        f.data = {}
    else:
        f.yaml_error = "The frontmatter is not a mapping of keys to values."
        f.yaml_error_line = first_line


def _loose(f: AgentFile, lines: list[str], first_line: int) -> None:
    key: str | None = None
    for i, line in enumerate(lines):
        m = _KEY.match(line)
        if m:
            key = m.group(1)
            f.key_lines.setdefault(key, first_line + i)
            f.loose[key] = unquote((m.group(2) or "").strip())
            continue
        item = _ITEM.match(line)
        if item and key is not None:
            current = f.loose.get(key)
            items = current if isinstance(current, list) else []
            items.append(unquote(item.group(1).strip()))
            f.loose[key] = items


def unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value
