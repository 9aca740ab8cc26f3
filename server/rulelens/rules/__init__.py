"""The rules core: read, match, record, index and check `.ai/rules`. Imports no LSP or MCP code.

Public surface (every front goes through these):

- ``find_root(start, explicit=None) -> Path``
- ``RuleRepository(root, rules_dir=".ai/rules")``
    - ``refresh() -> bool``          cheap stat of the rules folder; reloads what changed
    - ``files -> list[RuleFile]``    root and ``boost/`` files, by relative path
    - ``file(path) -> RuleFile|None``  by absolute path or root-relative string
    - ``rel(path) -> str|None``      root-relative POSIX path, None outside the root
    - ``is_rule_file(rel)``, ``is_index(rel)``
    - ``rules_for(rel_path) -> list[Match]``   lenient reading, index order
    - ``suggest_globs(rel_path) -> list[str]`` file, ``dir/**``, ``dir/*.ext``
    - ``record(glob, title, note) -> RecordResult``  raises RuleError
    - ``index_text() -> str``, ``index_is_current() -> bool``, ``write_index() -> bool``
    - ``check(files=None) -> list[Problem]``
    - ``search(query) -> list[tuple[RuleFile, Entry]]``
- ``FileList.for_root(root)``: the project's file list (sorted) with ``count(glob)``,
  ``examples(glob, n)`` and ``children(dir)``.
"""

from rulelens.rules.filelist import FileList
from rulelens.rules.model import (
    Entry,
    GlobItem,
    Match,
    Problem,
    RecordResult,
    RuleError,
    RuleFile,
    Severity,
)
from rulelens.rules.repository import RuleRepository
from rulelens.rules.root import find_root

__all__ = [
    "Entry",
    "FileList",
    "GlobItem",
    "Match",
    "Problem",
    "RecordResult",
    "RuleError",
    "RuleFile",
    "RuleRepository",
    "Severity",
    "find_root",
]
