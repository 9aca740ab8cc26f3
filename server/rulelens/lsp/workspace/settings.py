"""Typed settings under the `rulelens` section, from initializationOptions and didChangeConfiguration.

Bad values are ignored (and logged) rather than failing: a typo in an editor's settings must
never take the server down or turn rules into errors.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any, Literal

from lsprotocol import types

from rulelens.workspace.root import RULES_DIR

log = logging.getLogger(__name__)

SECTION = "rulelens"
SeverityName = Literal["hint", "information", "warning", "off"]
HoverMode = Literal["firstLine", "anywhere", "off"]

_SEVERITIES: dict[str, SeverityName] = {
    "hint": "hint",
    "information": "information",
    "info": "information",
    "warning": "warning",
    "off": "off",
    "none": "off",
}
_LSP_SEVERITY: dict[SeverityName, types.DiagnosticSeverity] = {
    "hint": types.DiagnosticSeverity.Hint,
    "information": types.DiagnosticSeverity.Information,
    "warning": types.DiagnosticSeverity.Warning,
}


@dataclass(frozen=True)
class Settings:
    """What a person can tune; the defaults are visible but quiet."""

    severity: SeverityName = "information"
    code_lens: bool = True
    rules_folder: str = RULES_DIR
    hover: HoverMode = "firstLine"
    prompt: bool | None = None  # None: decide from the client's capabilities
    read_only: bool = False  # an untrusted workspace: show rules, never write

    @property
    def lsp_severity(self) -> types.DiagnosticSeverity | None:
        """The severity of the rules diagnostic; None when it is switched off."""
        return None if self.severity == "off" else _LSP_SEVERITY[self.severity]

    def merged(self, raw: object) -> Settings:
        """These settings with the valid values of `raw` (the section or a wrapper) applied."""
        section = _section(raw)
        if section is None:
            return self
        changes: dict[str, Any] = {}
        if "severity" in section:
            value = section["severity"]
            key = value.lower() if isinstance(value, str) else None
            if key in _SEVERITIES:
                changes["severity"] = _SEVERITIES[key]
            else:
                log.warning("rulelens.severity must be hint, information, warning or off: %r", value)
        if "codeLens" in section:
            changes.update(_flag(section, "codeLens", "code_lens"))
        if "readOnly" in section:
            changes.update(_flag(section, "readOnly", "read_only"))
        if "prompt" in section:
            changes.update(_flag(section, "prompt", "prompt", allow_none=True))
        if "hover" in section:
            value = section["hover"]
            if value in ("firstLine", "anywhere", "off"):
                changes["hover"] = value
            else:
                log.warning("rulelens.hover must be firstLine, anywhere or off: %r", value)
        if "rulesFolder" in section:
            folder = _rules_folder(section["rulesFolder"])
            if folder is not None:
                changes["rules_folder"] = folder
        return dataclasses.replace(self, **changes) if changes else self


def _section(raw: object) -> Mapping[str, Any] | None:
    if not isinstance(raw, Mapping):
        return None
    inner = raw.get(SECTION)
    if isinstance(inner, Mapping):
        return inner
    return raw


def _flag(section: Mapping[str, Any], key: str, field: str,
          allow_none: bool = False) -> dict[str, Any]:
    value = section[key]
    if isinstance(value, bool) or (allow_none and value is None):
        return {field: value}
    log.warning("rulelens.%s must be true or false: %r", key, value)
    return {}


def _rules_folder(value: object) -> str | None:
    """A root-relative folder without `..`; anything else is refused."""
    if not isinstance(value, str) or not value.strip():
        log.warning("rulelens.rulesFolder must be a non-empty relative path: %r", value)
        return None
    path = PurePosixPath(value.strip().replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or str(path) == ".":
        log.warning("rulelens.rulesFolder must stay inside the project: %r", value)
        return None
    return path.as_posix()
