"""pygls' protocol, but a request whose params do not deserialize still gets an answer.

pygls raises while decoding such a message, before it knows the request's id, and drops it:
a client waiting on that id would wait forever. Here the request is answered with
`InvalidParams` (-32602), and a malformed notification is logged and ignored (no popup). A
notification method sent with an id (a request nobody would answer) gets `InvalidRequest`.
Every message is also announced to `on_message` (the session's idle-time warm-up waits for
the client to be quiet).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from lsprotocol import types
from pygls.protocol import LanguageServerProtocol

log = logging.getLogger(__name__)
_IGNORED = SimpleNamespace(jsonrpc="ignored")  # handle_message logs and skips it


class RulelensProtocol(LanguageServerProtocol):
    on_message: Callable[[], None] | None = None  # told of every message from the client

    def handle_message(self, message: Any) -> None:
        if self.on_message is not None:
            self.on_message()
        super().handle_message(message)

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            message = super().structure_message(data)
        except Exception as exc:
            if "method" not in data or "jsonrpc" not in data:
                raise
            method = data.get("method")
            msg_id = data.get("id")
            log.warning("rulelens: malformed %s message dropped: %s", method, exc.__cause__ or exc)
            if isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool):
                self._send_response(msg_id, error=types.ResponseError(
                    code=types.ErrorCodes.InvalidParams,
                    message=f"Invalid params for {method}."))
            return _IGNORED
        if "jsonrpc" in data and "method" in data and "id" in data and _is_notification(
                data["method"]):
            msg_id = data["id"]
            if isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool):
                self._send_response(msg_id, error=types.ResponseError(
                    code=types.ErrorCodes.InvalidRequest,
                    message=f"{data['method']} is a notification; send it without an id."))
            return _IGNORED
        return message


def _is_notification(method: object) -> bool:
    """A method that lsprotocol knows as a notification (it has no result type)."""
    entry = types.METHOD_TO_TYPES.get(method) if isinstance(method, str) else None
    return entry is not None and entry[1] is None and entry[0].__name__.endswith("Notification")
