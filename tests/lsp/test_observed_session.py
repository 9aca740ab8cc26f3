"""A real Claude Code session, recorded by `rulelens init --observe`'s hook, shown in the hover
and in `match --agents`.

Claude Code's pinned release (tests/conformance/claude_code) runs headless in a project
where `rulelens init --observe` ran, against a fake Anthropic API on 127.0.0.1 (kept small and
inside this test): the first request is answered with a Read of app/Money.php, the second with
text. Its InstructionsLoaded hook runs this tree's `rulelens observe` (PATH and PYTHONPATH below),
which writes the lines the hover and `match --agents` then read. Without the release installed
it skips, except under CI, where its absence fails.

The project has no CLAUDE.md, so Claude Code loads the AGENTS.md that `init` writes through its
agents-md plugin, which runs no hook: the test checks both that the model got AGENTS.md's text
and that no line records it, and that rulelens says so rather than "not loaded".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.conformance.harness import installed
from tests.lsp.helpers import open_doc, pos

BINARY = "node_modules/@anthropic-ai/claude-code-linux-x64/claude"
SERVER = Path(__file__).parents[2] / "server"
APP_RULE = "---\npaths:\n  - 'app/**'\n---\n# App\n\nMONEY-RULE: amounts are integer cents.\n"
ALWAYS_RULE = "# Always\n\nALWAYS-RULE: run the tests.\n"
BOOST_RULE = "---\npaths:\n  - 'app/**'\n---\n# Billing\n\n## Cents\nStore cents.\n"
WAIT = 60.0  # seconds the fake model holds its last answer for the hook's line (see _answer)


def claude() -> Path:
    folder = installed("claude_code")
    binary = folder / BINARY if folder is not None else None
    if binary is None or not binary.exists():
        message = "Claude Code's pinned release is not installed (.ci/install-5-agents.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return binary


class FakeModel(BaseHTTPRequestHandler):
    """Anthropic's Messages API, streamed as server-sent events: a Read of `read` until a tool
    result comes back, then text. The text waits until the hook recorded the path's load:
    Claude Code runs that hook without waiting for it, and a headless session that ended at
    once would take the hook down with it."""

    read = ""
    observed = Path()
    requests: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
        if not self.path.startswith("/v1/messages") or "count_tokens" in self.path:
            self._send("application/json", b'{"input_tokens": 1}')
            return
        type(self).requests.append(body)
        last = body.get("messages", [{}])[-1].get("content")
        answered = isinstance(last, list) and any(c.get("type") == "tool_result" for c in last)
        if answered:
            self._wait_for_hook()
            block: dict[str, Any] = {"type": "text", "text": "Done."}
            delta = {"type": "text_delta", "text": "Done."}
            stop = "end_turn"
        else:
            block = {"type": "tool_use", "id": "toolu_01", "name": "Read", "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps({"file_path": self.read})}
            stop = "tool_use"
        events: list[dict[str, Any]] = [
            {"type": "message_start", "message": {
                "id": "msg_01", "type": "message", "role": "assistant", "model": body.get("model", "claude"),
                "content": [], "stop_reason": None, "stop_sequence": None,
                "usage": {"input_tokens": 1, "output_tokens": 1}}},
            {"type": "content_block_start", "index": 0,
             "content_block": {**block, "text": ""} if block["type"] == "text" else block},
            {"type": "content_block_delta", "index": 0, "delta": delta},
            {"type": "content_block_stop", "index": 0},
            {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
             "usage": {"output_tokens": 1}},
            {"type": "message_stop"},
        ]
        self._send("text/event-stream",
                   "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode())

    def _wait_for_hook(self) -> None:
        end = time.monotonic() + WAIT
        while time.monotonic() < end:
            if self.observed.is_file() and b'"path_glob_match"' in self.observed.read_bytes():
                return
            time.sleep(0.05)

    def _send(self, kind: str, data: bytes) -> None:
        self.send_response(200)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def rulelens(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulelens", *args], cwd=root, capture_output=True, text=True,
                          env=env or {**os.environ, "PYTHONPATH": str(SERVER)}, check=False, timeout=120)


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The project after one real headless session of Claude Code."""
    binary = claude()
    base = tmp_path_factory.mktemp("observed")
    root, home, bin_dir = base / "proj", base / "home", base / "bin"
    for folder in (root / ".ai/rules", root / ".claude/rules", root / "app", home, bin_dir):
        folder.mkdir(parents=True)
    (root / ".ai/rules/billing.md").write_text(BOOST_RULE)
    (root / ".claude/rules/app.md").write_text(APP_RULE)
    (root / ".claude/rules/always.md").write_text(ALWAYS_RULE)
    (root / "app/Money.php").write_text("<?php\n")
    git(root, "init", "-q")
    assert rulelens(root, "index").returncode == 0
    done = rulelens(root, "init", "--observe")
    assert done.returncode == 0, done.stderr
    assert "registered `rulelens observe --agent claude-code`" in done.stdout
    # The hook's `rulelens` is this tree's: this interpreter with this tree's server first.
    (bin_dir / "rulelens").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m rulelens "$@"\n')
    (bin_dir / "rulelens").chmod(0o755)

    FakeModel.read = str(root / "app/Money.php")
    FakeModel.observed = root / ".git/rulelens/observed.jsonl"
    FakeModel.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeModel)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "PYTHONPATH": str(SERVER), "HOME": str(home),
           "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{server.server_address[1]}",
           "ANTHROPIC_API_KEY": "sk-ant-dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
           "DISABLE_AUTOUPDATER": "1", "NO_COLOR": "1"}
    try:
        run = subprocess.run([str(binary), "-p", f"Read {root / 'app/Money.php'}", "--allowedTools", "Read"],
                             cwd=root, env=env, capture_output=True, text=True, timeout=180, check=False)
    finally:
        server.shutdown()
        server.server_close()
    assert run.returncode == 0, run.stderr[-2000:]
    yield root


def lines(root: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (root / ".git/rulelens/observed.jsonl").read_text().splitlines()]


def test_the_hook_recorded_real_loads(session: Path) -> None:
    """Claude Code ran this tree's `rulelens observe` for each file it loaded with the hook, and
    left AGENTS.md, which its plugin adds, unrecorded although the model got its text."""
    seen = lines(session)
    print("\n" + "\n".join(json.dumps(line) for line in seen))
    by_file = {line["file_path"]: line for line in seen}
    rule = by_file[str(session / ".claude/rules/app.md")]
    assert rule["agent"] == "claude-code" and rule["hook_event_name"] == "InstructionsLoaded"
    assert rule["load_reason"] == "path_glob_match" and rule["memory_type"] == "Project"
    assert rule["trigger_file_path"] == str(session / "app/Money.php") and rule["globs"] == ["app"]
    assert by_file[str(session / ".claude/rules/always.md")]["load_reason"] == "session_start"
    assert str(session / "AGENTS.md") not in by_file
    sent = json.dumps(FakeModel.requests)
    assert "## Project rules" in sent and "MONEY-RULE" in sent  # AGENTS.md and the rule reached it
    assert "MONEY-RULE" not in json.dumps(FakeModel.requests[0])  # the rule came with the read
    assert len({line["session_id"] for line in seen}) == 1
    assert subprocess.run(["git", "-C", str(session), "status", "--porcelain"], capture_output=True,
                          text=True, check=True).stdout.count("settings.local.json") == 0


def test_match_agents_shows_the_session(session: Path) -> None:
    out = rulelens(session, "match", "--agents", "app/Money.php")
    assert out.returncode == 0, out.stderr
    claude_block = out.stdout.split("Claude Code:")[1].split("\n\n")[0]
    assert "observed: 1 real session (InstructionsLoaded hook" in claude_block
    assert "last seen loading" in claude_block and "path_glob_match for app/Money.php" in claude_block
    assert "not observable: Claude Code adds AGENTS.md through its built-in agents-md plugin" in claude_block
    data = json.loads(rulelens(session, "match", "--agents", "--json", "app/Money.php").stdout)[0]
    files = {f["file"]: f for f in data["agents_observed"]["claude-code"]["files"]}
    assert files[".claude/rules/app.md"]["last_seen"]["trigger"] == "app/Money.php"
    assert files[".claude/rules/always.md"]["last_seen"]["load_reason"] == "session_start"
    assert files["AGENTS.md"]["last_seen"] is None and "agents-md plugin" in files["AGENTS.md"]["hook_silent"]


@pytest.fixture
def folders(session: Path) -> list[Path]:
    return [session]


async def test_the_hover_shows_the_session(client: LanguageClient, session: Path) -> None:
    uri = (session / "app/Money.php").as_uri()
    await open_doc(client, uri, "<?php\n")
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=pos(0, 0)))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    text = hover.contents.value
    print("\n" + text)
    claude_part = text[text.index("Claude Code"):]
    assert "last seen loading" in claude_part and "path_glob_match for app/Money.php" in claude_part
    assert "observed: 1 real session" in claude_part
    assert "not observable" in claude_part and "agents-md plugin" in claude_part
