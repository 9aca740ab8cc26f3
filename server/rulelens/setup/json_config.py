"""JSON config files that rulelens edits but people own (`.mcp.json`, a Claude Code plugin).

Read as an object, change a few keys, write back atomically and only when something changed:
the members that changed are spliced into the text as it was (json_edit.py), so every other
byte, the indentation and the final newline or its absence stay as the person left them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulelens.rules.model import RuleError
from rulelens.rules.write.atomic import write_atomic

BOM = b"\xef\xbb\xbf"


@dataclass
class JsonFile:
    """A JSON object on disk as read: its data, its BOM and line endings, and whether it existed."""

    path: Path
    name: str
    data: dict[str, Any]
    original: dict[str, Any] | None
    prefix: bytes = b""
    newline: str = "\n"
    text: str | None = None  # as read, for the edit in place

    @classmethod
    def read(cls, path: Path, name: str, rerun: str) -> JsonFile:
        """`rerun` is the command to suggest once the person fixed a broken file."""
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return cls(path, name, {}, None)
        prefix = BOM if raw.startswith(BOM) else b""
        try:
            text = raw[len(prefix):].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RuleError(f"{name} is not valid UTF-8 (byte {exc.start}); not rewriting it.") from exc
        data: object = {}
        if text.strip():
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise RuleError(
                    f"{name} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
                    f"fix it, then run `{rerun}` again.") from exc
        if not isinstance(data, dict):
            raise RuleError(f"{name} must hold a JSON object; fix it, then run `{rerun}` again.")
        newline = "\r\n" if "\r\n" in text else "\n"
        return cls(path, name, data, json.loads(json.dumps(data)), prefix, newline,
                   text if text.strip() else None)

    @property
    def changed(self) -> bool:
        return self.data != self.original

    def save(self, root: Path) -> bool:
        """Write the data back when it changed; True when it wrote."""
        if not self.changed:
            return False
        body = None
        if self.text is not None and self.original is not None:
            from rulelens.setup.json_edit import edited

            body = edited(self.text, self.original, self.data)
            if json.loads(body) != self.data:  # never a file that says something else
                body = None
        if body is None:  # a new or empty file
            body = json.dumps(self.data, indent=2, ensure_ascii=False).replace("\n", self.newline)
            body += self.newline
        write_atomic(self.path, self.prefix + body.encode("utf-8"), root)
        self.original = json.loads(json.dumps(self.data))
        self.text = body
        return True


def object_at(data: dict[str, Any], key: str, name: str) -> dict[str, Any]:
    """`data[key]` as a JSON object, created when missing; RuleError when it is something else."""
    value = data.setdefault(key, {})
    if not isinstance(value, dict):
        raise RuleError(f"`{key}` in {name} must be a JSON object.")
    return value
