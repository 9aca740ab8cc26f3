"""The tests' one JSON-RPC framer for LSP streams (`Content-Length` headers, then the body).

Hand-rolled on purpose: the reliability tests send frames no client library would, the
editor proxy sits between a real editor and the server, and the protocol test must see the
server answer a request no library would send. All of them read and write frames here.
"""

from __future__ import annotations

import json
from typing import IO, Any

Json = dict[str, Any]


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def encode(message: Json) -> bytes:
    return frame(json.dumps(message, ensure_ascii=False).encode("utf-8"))


def write_message(stream: IO[bytes], message: Json) -> None:
    stream.write(encode(message))
    stream.flush()


def read_message(stream: IO[bytes], garbage: list[bytes] | None = None) -> Json | None:
    """The next message; None at the end of the stream.

    Header lines other than Content-Length and Content-Type are appended to `garbage` (a
    server that prints to stdout shows up there); a frame without Content-Length is reported
    there too and read as `{}`.
    """
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("ascii", "replace").partition(":")
        key = name.strip().lower()
        if key == "content-length":
            length = int(value.strip())
        elif key != "content-type" and garbage is not None:
            garbage.append(line)
    if length is None:
        if garbage is not None:
            garbage.append(b"<frame without Content-Length>")
        return {}
    body = stream.read(length)
    if len(body) < length:
        return None
    message: Json = json.loads(body.decode("utf-8"))
    return message
