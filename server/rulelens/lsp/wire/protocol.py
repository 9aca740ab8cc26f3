"""pygls' protocol, but a request whose params do not deserialize still gets an answer.

pygls raises while decoding such a message, before it knows the request's id, and drops it:
a client waiting on that id would wait forever. Here the request is answered with
`InvalidParams` (-32602), and a malformed notification is logged and ignored (no popup). A
notification method sent with an id (a request nobody would answer) gets `InvalidRequest`.
Every message is also announced to `on_message` (the session's idle-time warm-up waits for
the client to be quiet), and a notification goes to pygls' notification step without its
Protocol checks. `notify_json` sends a notification whose params are JSON text already
(features/diagnostics.py builds a source file's diagnostics from pieces kept per rule file).
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import json
import logging
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInternalError
from pygls.protocol import LanguageServerProtocol

log = logging.getLogger(__name__)
_IGNORED = SimpleNamespace(jsonrpc="ignored")  # handle_message logs and skips it
# pygls' own step for a notification (a private method: without it, pygls' handle_message does all)
_NOTIFY = callable(getattr(LanguageServerProtocol, "_handle_notification", None))
# Websocket writes in flight, held here because the event loop holds them weakly: per process,
# as the loop is.
_SENDING: set[asyncio.Future[Any]] = set()


class RulelensProtocol(LanguageServerProtocol):
    on_message: Callable[[], None] | None = None  # told of every message from the client

    def handle_message(self, message: Any) -> None:
        if self.on_message is not None:
            self.on_message()
        # pygls tells a request from a notification with isinstance against runtime-checkable
        # Protocols: 29 µs for a notification on Python 3.11, a tenth of a source file's didOpen.
        # lsprotocol names its notifications' classes so; one of them goes where pygls would
        # send it, in its own context as there. Anything else, or a server shutting down, is
        # pygls' to handle.
        if (_NOTIFY and type(message).__name__.endswith("Notification")
                and message.jsonrpc == self.VERSION and not self._shutdown):
            contextvars.copy_context().run(self._handle_notification, message.method, message.params)
            return
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

    def notify_json(self, method: str, params: str) -> None:
        """Send a notification whose params are JSON text (ASCII, as `json.dumps` escapes it),
        framed as pygls frames every message; pygls' `notify` would convert and encode a whole
        message again, a dozen rule files' related information on each source file opened."""
        if self.writer is None:
            log.error("rulelens: no transport to send %s", method)
            return
        body = f'{{"jsonrpc":"2.0","method":{json.dumps(method)},"params":{params}}}'
        data = body.encode(self.CHARSET)
        if self._include_headers:
            data = (f"Content-Length: {len(data)}\r\n"
                    f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
                    ).encode("ascii") + data
        try:
            written = self.writer.write(data)
            if inspect.isawaitable(written):  # a websocket's writer; kept until sent
                task = asyncio.ensure_future(written)
                _SENDING.add(task)
                task.add_done_callback(_SENDING.discard)
        except BrokenPipeError:
            log.exception("rulelens: the client's pipe is closed")
            raise
        except Exception as exc:
            log.exception("rulelens: sending %s failed", method)
            self._server._report_server_error(exc, JsonRpcInternalError)


def _is_notification(method: object) -> bool:
    """A method that lsprotocol knows as a notification (it has no result type)."""
    entry = types.METHOD_TO_TYPES.get(method) if isinstance(method, str) else None
    return entry is not None and entry[1] is None and entry[0].__name__.endswith("Notification")
