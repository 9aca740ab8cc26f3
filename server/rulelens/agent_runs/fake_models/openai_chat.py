"""OpenAI's chat completions, as Copilot CLI and Qwen Code call it (`/chat/completions`)."""

from __future__ import annotations

import json
from typing import Any

from rulelens.agent_runs.fake_models.base import Family, sse
from rulelens.agent_runs.model import ToolCall


class ChatCompletions(Family):
    def main(self, url: str, body: dict[str, Any]) -> bool:
        return url.split("?")[0].endswith("/chat/completions") and bool(body.get("tools"))

    def tools(self, body: dict[str, Any]) -> list[str]:
        return [str((t.get("function") or t).get("name")) for t in body.get("tools") or []]

    def has_result(self, body: dict[str, Any]) -> bool:
        return any(m.get("role") == "tool" for m in body.get("messages") or [])

    def reply(self, url: str, body: dict[str, Any], call: ToolCall | None) -> tuple[str, bytes]:
        return completion(body, call)

    def side(self, method: str, url: str, body: dict[str, Any]) -> tuple[str, bytes]:
        if method == "GET":
            return "application/json", json.dumps({"object": "list", "data": [
                {"id": "fake-model", "object": "model", "owned_by": "fake"}]}).encode()
        if url.split("?")[0].endswith("/chat/completions"):
            return completion(body, None)
        return "application/json", b"{}"


def completion(body: dict[str, Any], call: ToolCall | None) -> tuple[str, bytes]:
    model = str(body.get("model") or "fake-model")
    usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    if call is not None:
        tool = {"id": "call_fake_1", "type": "function",
                "function": {"name": call.name, "arguments": json.dumps(call.arguments)}}
        message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [tool]}
        finish = "tool_calls"
    else:
        message = {"role": "assistant", "content": "done"}
        finish = "stop"
    if not body.get("stream"):
        return "application/json", json.dumps({
            "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage}).encode()
    delta = dict(message)
    if call is not None:
        delta["tool_calls"] = [{**message["tool_calls"][0], "index": 0}]
    chunk = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": model}
    return "text/event-stream", sse([
        (None, {**chunk, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}),
        (None, {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}], "usage": usage}),
    ], done=True)
