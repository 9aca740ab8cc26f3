"""Shared protocol objects converted to JSON once, not once per message that carries them.

A source file's diagnostic lists, for each rule file that applies, where the rule file and its
entries are: the same objects for every file the rule applies to (features/diagnostics.py keeps
them). pygls converts every message with cattrs, walking each object again; a file at 10,000
globs names a dozen rule files, and that walk cost more than finding them. The converter here
answers the locations and related information it was asked to keep with what it converted when
they were kept. A kept object must never change after `keep`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import cattrs
from lsprotocol import types
from pygls.protocol import default_converter

LIMIT = 16384  # kept objects; past it the memo starts again (a session's rules changed a lot)
KEPT_TYPES = (types.Location, types.DiagnosticRelatedInformation)
T = TypeVar("T")


class Frozen:
    """id → (the object, its JSON form); the object is held so that its id stays its own."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[object, Any]] = {}
        self._convert: dict[type, Callable[[Any], Any]] = {}

    def keep(self, obj: types.Location | types.DiagnosticRelatedInformation) -> None:
        """Convert `obj` now and answer it from the memo from now on (it never changes)."""
        convert = self._convert.get(type(obj))
        if convert is None or id(obj) in self._kept:
            return
        if len(self._kept) >= LIMIT:
            self._kept.clear()
        self._kept[id(obj)] = (obj, convert(obj))

    def _hook(self, default: Callable[[T], Any]) -> Callable[[T], Any]:
        kept = self._kept

        def unstructure(obj: T) -> Any:
            found = kept.get(id(obj))
            return found[1] if found is not None and found[0] is obj else default(obj)

        return unstructure

    def converter(self) -> cattrs.Converter:
        """pygls' converter, answering kept objects from the memo."""
        converter: cattrs.Converter = default_converter()  # type: ignore[no-untyped-call]
        for cls in KEPT_TYPES:
            default = converter.get_unstructure_hook(cls)
            self._convert[cls] = default
            converter.register_unstructure_hook(cls, self._hook(default))
        return converter
