"""A fake model on 127.0.0.1: it records every request an agent sends and follows one script
(one tool call, then the text "done"). Each API family (fake_models/<family>.py) says how its
requests and answers are shaped; this module serves them."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from rulelens.agent_runs.model import Recorded, ToolCall
from rulelens.workspace.later import in_thread

POLL = 0.02  # seconds between the serving loop's looks for a shutdown


class Family:
    """One API's shapes. Subclasses answer the four questions below."""

    def main(self, url: str, body: dict[str, Any]) -> bool:
        """Whether the request is the conversation itself (not a title, a count, a routing call)."""
        raise NotImplementedError

    def tools(self, body: dict[str, Any]) -> list[str]:
        """The names of the tools the request offers the model."""
        raise NotImplementedError

    def has_result(self, body: dict[str, Any]) -> bool:
        """Whether the request carries a tool's result already."""
        raise NotImplementedError

    def reply(self, url: str, body: dict[str, Any], call: ToolCall | None) -> tuple[str, bytes]:
        """The answer to a main request (`call` to make, else the text "done"): content type, bytes."""
        raise NotImplementedError

    def side(self, method: str, url: str, body: dict[str, Any]) -> tuple[str, bytes]:
        """The answer to anything else (a GET of the models, a side call)."""
        return "application/json", b"{}"


class FakeModel:
    """Serves `family` on 127.0.0.1 (a free port) until `close()`; `requests` is every request
    in order of arrival. The tool call `call` is made once, in answer to the first main request
    that offers the tool and carries no result yet."""

    def __init__(self, family: Family, call: ToolCall | None) -> None:
        self.family = family
        self.call = call
        self.requests: list[Recorded] = []
        self.called = False
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def do_GET(self) -> None:
                fake.answer(self, "GET", b"")

            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(size) if size else self.chunked()
                fake.answer(self, "POST", raw)

            def chunked(self) -> bytes:
                if self.headers.get("Transfer-Encoding", "").lower() != "chunked":
                    return b""
                out = bytearray()
                while True:
                    size = int(self.rfile.readline().strip().split(b";")[0] or b"0", 16)
                    if size == 0:
                        self.rfile.readline()
                        return bytes(out)
                    out += self.rfile.read(size)
                    self.rfile.readline()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        # A short poll: `close` waits for the loop to see the shutdown, half a second per run
        # at serve_forever's default.
        self.serving = in_thread(lambda: self.server.serve_forever(poll_interval=POLL), name="fake-model",
                                 daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def answer(self, handler: BaseHTTPRequestHandler, method: str, raw: bytes) -> None:
        url = handler.path
        body: dict[str, Any] = {}
        if raw:
            try:
                parsed = json.loads(raw)
                body = parsed if isinstance(parsed, dict) else {"_": parsed}
            except ValueError:
                body = {"_raw": raw.decode("utf-8", "replace")}
        fam = self.family
        if method == "POST" and fam.main(url, body):
            with self.lock:
                make = (self.call is not None and not self.called and not fam.has_result(body)
                        and self.call.name in fam.tools(body))
                self.called = self.called or make
                self.requests.append(Recorded(url, body, True, make))
            kind, data = fam.reply(url, body, self.call if make else None)
        else:
            with self.lock:
                self.requests.append(Recorded(url, body, False))
            kind, data = fam.side(method, url, body)
        try:
            handler.send_response(200)
            handler.send_header("Content-Type", kind)
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)
            handler.wfile.flush()
        except OSError:  # the agent went away
            pass

    def main_requests(self) -> list[dict[str, Any]]:
        with self.lock:
            return [r.body for r in self.requests if r.main]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> FakeModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def sse(events: list[tuple[str | None, dict[str, Any]]], done: bool = False) -> bytes:
    """Server-sent events: `event:` lines where named, one `data:` line of JSON each."""
    out = []
    for name, data in events:
        head = f"event: {name}\n" if name else ""
        out.append(f"{head}data: {json.dumps(data)}\n\n")
    if done:
        out.append("data: [DONE]\n\n")
    return "".join(out).encode()


Make = Callable[[], Family]
