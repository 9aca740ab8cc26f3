"""TOML read with the standard library where it has a reader (3.11+), and with tomli, which the
server bundled in the VS Code extension carries, where it runs on 3.10. The one place that
chooses, so that no module imports `tomllib` on its own and breaks the bundle."""

from __future__ import annotations

import sys
from typing import Any


class TomlError(ValueError):
    """Text that is not valid TOML; the message is the parser's."""


def toml_loads(text: str) -> dict[str, Any]:
    # Imported here: only a project that has a TOML file pays for the parser.
    if sys.version_info >= (3, 11):  # noqa: UP036 - the VSIX bundle also runs on 3.10
        import tomllib
    else:
        import tomli as tomllib
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TomlError(str(exc)) from None
