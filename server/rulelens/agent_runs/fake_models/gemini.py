"""Google's Gemini API, as Gemini CLI calls it (`:streamGenerateContent`, `:generateContent`,
`:countTokens`), as tests/conformance/gemini_cli/binary.mjs serves it."""

from __future__ import annotations

import json
from typing import Any

from rulelens.agent_runs.fake_models.base import Family, sse
from rulelens.agent_runs.model import ToolCall


class Gemini(Family):
    def main(self, url: str, body: dict[str, Any]) -> bool:
        return ":streamGenerateContent" in url and bool(body.get("tools"))

    def tools(self, body: dict[str, Any]) -> list[str]:
        return [str(d.get("name")) for t in body.get("tools") or []
                for d in t.get("functionDeclarations") or []]

    def has_result(self, body: dict[str, Any]) -> bool:
        return any("functionResponse" in p for c in body.get("contents") or [] for p in c.get("parts") or [])

    def reply(self, url: str, body: dict[str, Any], call: ToolCall | None) -> tuple[str, bytes]:
        part = {"functionCall": {"name": call.name, "args": call.arguments}} if call else {"text": "done"}
        return "text/event-stream", sse([(None, candidate(part))])

    def side(self, method: str, url: str, body: dict[str, Any]) -> tuple[str, bytes]:
        if ":countTokens" in url:
            return "application/json", b'{"totalTokens": 1}'
        # The router's and the checks' calls want JSON back where they ask for it.
        wants_json = (body.get("generationConfig") or {}).get("responseMimeType") == "application/json"
        part = {"text": '{"model_choice":"flash","reasoning":"fake"}' if wants_json else "done"}
        if ":streamGenerateContent" in url:
            return "text/event-stream", sse([(None, candidate(part))])
        return "application/json", json.dumps(candidate(part)).encode()


def candidate(part: dict[str, Any]) -> dict[str, Any]:
    content = {"role": "model", "parts": [part]}
    return {"candidates": [{"content": content, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2}}
