"""The rules core: read, match, record, index and check `.ai/rules`. Imports no LSP or MCP code.

The names below are re-exported for convenience (scripts, the REPL). The fronts (CLI, LSP, MCP)
import the module that holds what they use (`repository`, `model`, `reading`, `yaml_style`…):
each module is named for what it holds, and that is the map to read, not this list.
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
