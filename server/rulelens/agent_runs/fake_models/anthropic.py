"""Anthropic's Messages API, as Claude Code calls it (`/v1/messages`, streamed)."""

from __future__ import annotations

import json
from typing import Any

from rulelens.agent_runs.fake_models.base import Family, sse
from rulelens.agent_runs.model import ToolCall


class Messages(Family):
    def main(self, url: str, body: dict[str, Any]) -> bool:
        # Claude Code's side calls (titles, topic checks) offer no tools.
        return url.split("?")[0].endswith("/v1/messages") and bool(body.get("tools"))

    def tools(self, body: dict[str, Any]) -> list[str]:
        return [str(t.get("name")) for t in body.get("tools") or []]

    def has_result(self, body: dict[str, Any]) -> bool:
        return any(isinstance(p, dict) and p.get("type") == "tool_result"
                   for m in body.get("messages") or [] if isinstance(m.get("content"), list)
                   for p in m["content"])

    def reply(self, url: str, body: dict[str, Any], call: ToolCall | None) -> tuple[str, bytes]:
        return message(body, call)

    def side(self, method: str, url: str, body: dict[str, Any]) -> tuple[str, bytes]:
        if url.split("?")[0].endswith("/count_tokens"):
            return "application/json", b'{"input_tokens": 1}'
        if method == "POST" and url.split("?")[0].endswith("/v1/messages"):
            return message(body, None)
        return "application/json", b"{}"


def message(body: dict[str, Any], call: ToolCall | None) -> tuple[str, bytes]:
    model = str(body.get("model") or "fake-model")
    usage = {"input_tokens": 1, "output_tokens": 1}
    if call is not None:
        block: dict[str, Any] = {"type": "tool_use", "id": "toolu_fake_1", "name": call.name,
                                 "input": call.arguments}
        stop = "tool_use"
    else:
        block = {"type": "text", "text": "done"}
        stop = "end_turn"
    if not body.get("stream"):
        whole = {"id": "msg_fake", "type": "message", "role": "assistant", "model": model, "content": [block],
                 "stop_reason": stop, "stop_sequence": None, "usage": usage}
        return "application/json", json.dumps(whole).encode()
    start = ({"type": "tool_use", "id": block["id"], "name": call.name, "input": {}} if call
             else {"type": "text", "text": ""})
    delta = ({"type": "input_json_delta", "partial_json": json.dumps(call.arguments)} if call
             else {"type": "text_delta", "text": "done"})
    events: list[tuple[str | None, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": {
            "id": "msg_fake", "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": usage}}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": start}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                           "usage": {"output_tokens": 1}}),
        ("message_stop", {"type": "message_stop"}),
    ]
    return "text/event-stream", sse(events)
