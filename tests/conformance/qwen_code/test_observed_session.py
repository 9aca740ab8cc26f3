"""Qwen Code's InstructionsLoaded hook, registered by `rulelens init --observe`, in a real
headless session of its pinned release against a fake OpenAI-compatible model on 127.0.0.1.

The hook runs this tree's `rulelens observe` for QWEN.md and AGENTS.md at session start; a
`.qwen/rules` file reaches the model with no event, as its code says (the hook is fired from
`readMemoryFiles` alone), and `match --agents` says so. Without the release installed it skips,
except under CI, where its absence fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tests.conformance.harness import installed, node

ENTRY = "node_modules/@qwen-code/qwen-code/cli-entry.js"
SERVER = Path(__file__).parents[3] / "server"


class FakeModel(BaseHTTPRequestHandler):
    """OpenAI's chat completions, streamed: one short answer to every request."""

    requests: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
        type(self).requests.append(body)
        chunk = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": body.get("model", "m"),
                 "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Done."}, "finish_reason": None}]}
        last = {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
        data = f"data: {json.dumps(chunk)}\n\ndata: {json.dumps(last)}\n\ndata: [DONE]\n\n".encode()
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass


def rulelens(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulelens", *args], cwd=root, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(SERVER)}, check=False, timeout=120)


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder, exe = installed("qwen_code"), node()
    if folder is None or exe is None or not (folder / ENTRY).exists():
        message = "Qwen Code's pinned release is not installed (.ci/install-5-agents.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    base = tmp_path_factory.mktemp("qwen")
    root, home, bin_dir = base / "proj", base / "home", base / "bin"
    for made in (root / ".ai/rules", root / ".qwen/rules", home, bin_dir):
        made.mkdir(parents=True)
    (root / ".ai/rules/a.md").write_text("# A\n\n## One\nOne.\n")
    (root / "QWEN.md").write_text("# Qwen\n\nQWEN-TEXT\n")
    (root / ".qwen/rules/style.md").write_text("# Style\n\nSTYLE-RULE-TEXT\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    done = rulelens(root, "init", "--observe")
    assert "Qwen Code: registered `rulelens observe --agent qwen-code`" in done.stdout, done.stdout + done.stderr
    (bin_dir / "rulelens").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m rulelens "$@"\n')
    (bin_dir / "rulelens").chmod(0o755)
    FakeModel.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeModel)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = {"PATH": f"{bin_dir}:{Path(exe).parent}:/usr/bin:/bin", "PYTHONPATH": str(SERVER), "HOME": str(home),
           "OPENAI_BASE_URL": f"http://127.0.0.1:{server.server_address[1]}/v1", "OPENAI_API_KEY": "sk-dummy",
           "OPENAI_MODEL": "qwen3-coder", "NO_COLOR": "1"}
    try:
        run = subprocess.run([exe, str(folder / ENTRY), "-p", "Say done.", "--auth-type", "openai"], cwd=root,
                             env=env, capture_output=True, text=True, timeout=180, check=False)
    finally:
        server.shutdown()
        server.server_close()
    assert run.returncode == 0, run.stderr[-2000:]
    yield root


def test_the_hook_records_context_files_and_not_rules(session: Path) -> None:
    seen = [json.loads(line) for line in (session / ".git/rulelens/observed.jsonl").read_text().splitlines()]
    print("\n" + "\n".join(json.dumps(line) for line in seen))
    by_file = {line["file_path"]: line for line in seen}
    for name in ("QWEN.md", "AGENTS.md"):
        line = by_file[str(session / name)]
        assert (line["agent"], line["load_reason"], line["memory_type"]) == ("qwen-code", "session_start", "project")
    assert str(session / ".qwen/rules/style.md") not in by_file
    sent = json.dumps(FakeModel.requests)
    assert "QWEN-TEXT" in sent and "STYLE-RULE-TEXT" in sent  # both reached the model


def test_match_agents_says_the_rule_is_not_observable(session: Path) -> None:
    out = rulelens(session, "match", "--agents", "QWEN.md")
    assert out.returncode == 0, out.stderr
    block = out.stdout.split("Qwen Code:")[1].split("\n\n")[0]
    assert "observed: 1 real session (InstructionsLoaded hook" in block
    assert "last seen loading" in block and "session_start" in block
    assert "not observable: Qwen Code injects `.qwen/rules` files without running the hook" in block
