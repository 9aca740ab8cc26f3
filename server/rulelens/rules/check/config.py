"""The project's configuration of findings, and the one function every front applies it with.

Read from `rulelens.toml` at the project root, else from `[tool.rulelens]` in `pyproject.toml`
(as ruff reads `ruff.toml` before `pyproject.toml`); docs/configuration.md is the reference:

    [tool.rulelens]
    exclude = [".ai/rules/legacy.md"]   # gitignore-style globs: no findings in these files
    [tool.rulelens.severity]
    stale-name = "info"                 # error, warning, info, or off

`configured()` takes the findings of `check` (the CLI, the language server, SARIF and GitHub
annotations alike) and returns what the configuration and the inline directives
(rules/check/suppress.py) leave, at the configured severity.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulelens.rules.check.codes import CODES
from rulelens.rules.check.suppress import Suppressions, suppressions
from rulelens.rules.format.reading import read_at_most
from rulelens.rules.model import Problem, RuleError, Severity
from rulelens.workspace.reads import Reads
from rulelens.workspace.stat_stamp import Stamp, stamp

if TYPE_CHECKING:
    import pathspec

FILES = ("rulelens.toml", "pyproject.toml")
LEVELS: tuple[str, ...] = ("error", "warning", "info", "off")
_KEYS = ("agents", "exclude", "severity")
_CODE = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")


class ConfigError(RuleError):
    """The configuration cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class Config:
    """A project's configuration: severities by code and the paths `check` leaves out."""

    source: str | None = None  # the file it came from, root-relative; None: no configuration
    severity: Mapping[str, str] = field(default_factory=dict)
    exclude: tuple[str, ...] = ()
    agents: tuple[str, ...] = ()  # the agents the team uses, by id: the editor shows them first, alone

    def excluded(self, rel: str) -> bool:
        return bool(self.exclude) and _spec(self.exclude).match_file(rel)


# Per-process caches: the compiled `exclude` globs (a pure function of them), and each root's
# configuration with the stat of its files (read again when one changes; a language server
# asks on every keystroke).
_SPECS: dict[tuple[str, ...], pathspec.GitIgnoreSpec] = {}


def _spec(globs: tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    if globs not in _SPECS:
        import pathspec  # only for a configuration's `exclude`, which most projects have none of

        _SPECS[globs] = pathspec.GitIgnoreSpec.from_lines(globs)
    return _SPECS[globs]


def _stat_key(root: Path, reads: Reads | None) -> tuple[Stamp | None, ...]:
    if reads is not None:
        for name in FILES:
            reads.note(root / name)
    return tuple(stamp(root / name) for name in FILES)


_CACHE: dict[tuple[Path, frozenset[str], frozenset[str]], tuple[tuple[Stamp | None, ...], Config]] = {}


def load_config(root: Path, known: Collection[str] = CODES, reads: Reads | None = None,
                agent_ids: Collection[str] = ()) -> Config:
    """The configuration of the project at `root`; read again only when its file changes.

    `known` is every code a front can report (the agents' codes too), so that a misspelt code
    is an error rather than a setting that silently does nothing; `agent_ids`, the agents an
    `agents` list may name (agents/registry.py: `rules/` does not import the agents). `reads`
    notes the files the configuration depends on (workspace/reads.py).
    """
    key = (root, frozenset(known), frozenset(agent_ids))
    stamp = _stat_key(root, reads)
    cached = _CACHE.get(key)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    config = _read(root, known, agent_ids)
    _CACHE[key] = (stamp, config)
    return config


def _read(root: Path, known: Collection[str], agent_ids: Collection[str] = ()) -> Config:
    for name in FILES:
        path = root / name
        if not path.is_file():
            continue
        from rulelens.rules.format.toml_text import TomlError, toml_loads

        try:
            data = toml_loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{name}: cannot be read ({exc}).") from None
        except TomlError as exc:
            raise ConfigError(f"{name}: not valid TOML ({exc}).") from None
        if name == "pyproject.toml":
            tool = data.get("tool")
            if not isinstance(tool, dict) or "rulelens" not in tool:
                continue
            return _parse(tool["rulelens"], name, "tool.rulelens", known, agent_ids)
        return _parse(data, name, "", known, agent_ids)
    return Config()


def _parse(data: Any, name: str, prefix: str, known: Collection[str],
           agent_ids: Collection[str] = ()) -> Config:
    where = f"{name}: {prefix}" if prefix else f"{name}:"

    def key(k: str) -> str:
        return f"{prefix}.{k}" if prefix else k

    if not isinstance(data, dict):
        raise ConfigError(f"{where} must be a table.")
    unknown = sorted(set(data) - set(_KEYS))
    if unknown:
        raise ConfigError(f"{name}: unknown key `{key(unknown[0])}`; the keys are "
                          f"{', '.join(f'`{k}`' for k in _KEYS)}.")
    exclude = data.get("exclude", [])
    if not isinstance(exclude, list) or not all(isinstance(g, str) and g.strip() for g in exclude):
        raise ConfigError(f"{name}: `{key('exclude')}` must be a list of globs (strings), "
                          "such as [\".ai/rules/legacy.md\"].")
    severity = data.get("severity", {})
    if not isinstance(severity, dict):
        raise ConfigError(f"{name}: `{key('severity')}` must be a table of code = level, "
                          "such as stale-name = \"info\".")
    for code, level in severity.items():
        if not _CODE.match(code) or code not in known:
            import difflib  # here: only a misspelt code needs a suggestion

            near = difflib.get_close_matches(code, sorted(known), n=1)
            hint = f" (did you mean `{near[0]}`?)" if near else ""
            raise ConfigError(f"{name}: `{key('severity')}` names `{code}`, which is no rulelens "
                              f"code{hint}; `rulelens check --help` lists the codes.")
        if level not in LEVELS:
            raise ConfigError(f"{name}: `{key('severity')}.{code}` is {level!r}; it must be one of "
                              f"{', '.join(LEVELS)}.")
    return Config(source=name, severity=dict(severity), exclude=tuple(g.strip() for g in exclude),
                  agents=_agents(data.get("agents", []), name, key("agents"), agent_ids))


def _agents(value: Any, name: str, key: str, agent_ids: Collection[str]) -> tuple[str, ...]:
    """The `agents` list: agent ids as `match --agents --json` gives them, each one of `agent_ids`
    (where the caller knows them; else each at least shaped like one)."""
    if not isinstance(value, list) or not all(isinstance(a, str) for a in value):
        raise ConfigError(f"{name}: `{key}` must be a list of agent ids, "
                          "such as [\"claude-code\", \"copilot\"].")
    for agent in value:
        if (agent not in agent_ids) if agent_ids else not _CODE.match(agent):
            import difflib

            near = difflib.get_close_matches(agent, sorted(agent_ids), n=1)
            hint = f" (did you mean `{near[0]}`?)" if near else ""
            ids = f"; the ids are {', '.join(f'`{a}`' for a in agent_ids)}" if agent_ids else ""
            raise ConfigError(f"{name}: `{key}` names `{agent}`, which is no agent rulelens "
                              f"models{hint}{ids}.")
    return tuple(dict.fromkeys(value))


def configured(problems: Iterable[Problem], config: Config,
               text_of: Callable[[str], str | None]) -> list[Problem]:
    """The findings the project keeps: excluded files, inline directives and `off` codes drop
    out; the rest take their configured severity. `text_of(rel)` is a file's text (what the
    editor shows, or what is on disk), None when it cannot be read."""
    directives: dict[str, Suppressions] = {}
    out: list[Problem] = []
    for p in problems:
        if config.excluded(p.file):
            continue
        if p.file not in directives:
            text = text_of(p.file)
            directives[p.file] = suppressions(text) if text is not None else Suppressions()
        if directives[p.file].silences(p.line, p.code):
            continue
        level = config.severity.get(p.code)
        if level == "off":
            continue
        if level is not None and level != p.severity:
            p = replace(p, severity=_severity(level))
        out.append(p)
    return out


def _severity(level: str) -> Severity:
    if level == "error":
        return "error"
    return "warning" if level == "warning" else "info"


def disk_reader(root: Path, limit: int = 2 * 1024 * 1024,
                reads: Reads | None = None) -> Callable[[str], str | None]:
    """`text_of` for `configured()` from the files on disk (at most `limit` bytes of each),
    each noted in `reads` when given."""
    def text_of(rel: str) -> str | None:
        if reads is not None:
            reads.note(root / rel)
        try:
            with open(root / rel, "rb") as handle:
                return read_at_most(handle, limit).decode("utf-8", errors="replace")
        except OSError:
            return None
    return text_of
