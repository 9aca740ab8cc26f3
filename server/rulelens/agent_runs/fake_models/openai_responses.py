"""OpenAI's Responses API, as Codex calls it (`/responses`, streamed events)."""

from __future__ import annotations

import json
from typing import Any

from rulelens.agent_runs.fake_models.base import Family, sse
from rulelens.agent_runs.model import ToolCall

RESULTS = ("function_call_output", "custom_tool_call_output", "local_shell_call_output")


class Responses(Family):
    def main(self, url: str, body: dict[str, Any]) -> bool:
        return url.split("?")[0].endswith("/responses") and bool(body.get("tools"))

    def tools(self, body: dict[str, Any]) -> list[str]:
        return [str(t.get("name") or t.get("type")) for t in body.get("tools") or []]

    def has_result(self, body: dict[str, Any]) -> bool:
        return any(isinstance(item, dict) and item.get("type") in RESULTS for item in body.get("input") or [])

    def reply(self, url: str, body: dict[str, Any], call: ToolCall | None) -> tuple[str, bytes]:
        return response(body, call)

    def side(self, method: str, url: str, body: dict[str, Any]) -> tuple[str, bytes]:
        if method == "POST" and url.split("?")[0].endswith("/responses"):
            return response(body, None)
        return "application/json", json.dumps({"models": [], "data": []}).encode()


def tool_item(body: dict[str, Any], call: ToolCall) -> dict[str, Any]:
    """A function call, or a custom (freeform) tool's call where the request declares the tool
    so (Codex's apply_patch): its input is the `input` argument's text."""
    kind = next((t.get("type") for t in body.get("tools") or [] if t.get("name") == call.name), "function")
    if kind == "custom":
        return {"type": "custom_tool_call", "id": "ctc_fake_1", "call_id": "call_fake_1", "name": call.name,
                "input": str(call.arguments.get("input", "")), "status": "completed"}
    return {"type": "function_call", "id": "fc_fake_1", "call_id": "call_fake_1", "name": call.name,
            "arguments": json.dumps(call.arguments), "status": "completed"}


def response(body: dict[str, Any], call: ToolCall | None) -> tuple[str, bytes]:
    item = tool_item(body, call) if call is not None else {
        "type": "message", "role": "assistant", "id": "msg_fake_1", "status": "completed",
        "content": [{"type": "output_text", "text": "done", "annotations": []}]}
    usage = {"input_tokens": 1, "input_tokens_details": None, "output_tokens": 1,
             "output_tokens_details": None, "total_tokens": 2}
    head = {"id": "resp_fake", "object": "response", "model": str(body.get("model") or "fake-model")}
    return "text/event-stream", sse([
        ("response.created", {"type": "response.created", "response": {**head, "status": "in_progress"}}),
        *((name, {"type": name, "output_index": 0, "item": item})
          for name in ("response.output_item.added", "response.output_item.done")),
        ("response.completed", {"type": "response.completed", "response": {
            **head, "status": "completed", "output": [item], "usage": usage}}),
    ])
