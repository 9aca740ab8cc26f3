"""Protocol fuzzing: random and malformed JSON-RPC against the running `rulelens serve`.

Every request must get an answer (a result or a protocol error), notifications may be ignored,
and after each example the server must still serve a correct hover and, at the end, a correct
diagnostic. Example counts are bounded and the run is derandomised, so CI time is stable.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.reliability.conftest import cli, make_root
from tests.reliability.wire import Lsp

MODELS = "---\npaths:\n  - 'app/Models/**'\n---\n\n# Models\n\n## Money is integer cents\nNever floats.\n"
EXAMPLES = 200
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))

REQUESTS = ["textDocument/hover", "textDocument/completion", "textDocument/codeAction",
            "textDocument/codeLens", "textDocument/documentSymbol", "textDocument/documentLink",
            "workspace/symbol", "workspace/executeCommand", "codeAction/resolve",
            "textDocument/definition", "textDocument/formatting"]
NOTIFICATIONS = ["textDocument/didOpen", "textDocument/didChange", "textDocument/didClose",
                 "textDocument/didSave", "workspace/didChangeWatchedFiles",
                 "workspace/didChangeConfiguration", "workspace/didChangeWorkspaceFolders",
                 "$/cancelRequest", "$/setTrace"]
# Ending the session is legitimate behaviour, not a crash: never fuzzed.
FORBIDDEN = {"initialize", "shutdown", "exit"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Lsp, Path]]:
    base = tmp_path_factory.mktemp("fuzz")
    root = make_root(base / "project")
    (root / ".ai/rules/models.md").write_text(MODELS)
    for rel in ("app/Models/User.php", "app/Models/Invoice.php", "routes/web.php"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("<?php\n\nclass X {}\n")
    assert cli(root, "index").returncode == 0
    lsp = Lsp(root, base / "lsp.err")
    lsp.initialize(root)
    yield lsp, root
    lsp.shutdown()


# -- strategies ----------------------------------------------------------------------------
json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**64),
                      st.floats(allow_nan=False), st.text(max_size=40))
json_value = st.recursive(json_leaf, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(st.text(max_size=12), kids, max_size=4)),
    max_leaves=12)
big_int = st.one_of(st.integers(-5, 5), st.integers(-2**31, 2**31), st.sampled_from([2**31 - 1, 2**32, 10**12]))


def uris(root: Path) -> st.SearchStrategy[Any]:
    known = [(root / r).as_uri() for r in ("app/Models/User.php", ".ai/rules/models.md",
                                           ".ai/rules/index.md", "app/Models/Closed.php")]
    return st.one_of(st.sampled_from(known), st.sampled_from(
        ["untitled:Untitled-1", "file:///etc/passwd", "file://", "not a uri", "",
         (root / "..").as_uri() + "/x.php", "file:///%00"]), json_value)


def position() -> st.SearchStrategy[Any]:
    return st.one_of(st.fixed_dictionaries({"line": big_int, "character": big_int}), json_value)


def rng() -> st.SearchStrategy[Any]:
    return st.one_of(st.fixed_dictionaries({"start": position(), "end": position()}), json_value)


def params_for(root: Path) -> st.SearchStrategy[Any]:
    doc = st.fixed_dictionaries({"uri": uris(root)}, optional={"version": big_int})
    return st.one_of(
        json_value,
        st.fixed_dictionaries({"textDocument": doc, "position": position()}),
        st.fixed_dictionaries({"textDocument": doc, "range": rng(),
                               "context": st.one_of(json_value, st.just({"diagnostics": []}))}),
        st.fixed_dictionaries({"textDocument": doc, "contentChanges": st.lists(st.one_of(
            st.fixed_dictionaries({"range": rng(), "text": st.text(max_size=30)}),
            st.fixed_dictionaries({"text": st.text(max_size=200)}), json_value), max_size=4)}),
        st.fixed_dictionaries({"command": st.sampled_from(
            ["rulelens.recordRule", "rulelens.writeIndex", "rulelens.openRule", "nope"]),
            "arguments": st.one_of(json_value, st.lists(json_value, max_size=3))}),
        st.fixed_dictionaries({"query": st.one_of(st.text(max_size=20), json_value)}),
        st.fixed_dictionaries({"changes": st.lists(st.fixed_dictionaries(
            {"uri": uris(root), "type": big_int}), max_size=5)}),
    )


def method() -> st.SearchStrategy[str]:
    unknown = st.text(min_size=0, max_size=30).filter(lambda m: m not in FORBIDDEN)
    return st.one_of(st.sampled_from(REQUESTS), st.sampled_from(NOTIFICATIONS),
                     unknown, st.just("rulelens/secret"), st.just("$/unknown"))


def messages(root: Path) -> st.SearchStrategy[dict[str, Any]]:
    """Half near-valid requests (valid shape, hostile values), half anything at all."""
    doc = st.fixed_dictionaries({"uri": uris(root)})
    pos = st.fixed_dictionaries({"line": st.integers(0, 2**31 - 1),
                                 "character": st.integers(0, 2**31 - 1)})
    span = st.fixed_dictionaries({"start": pos, "end": pos})
    near_valid = st.one_of(
        st.fixed_dictionaries({"method": st.sampled_from(["textDocument/hover",
                                                          "textDocument/completion"]),
                               "params": st.fixed_dictionaries({"textDocument": doc,
                                                                "position": pos})}),
        st.fixed_dictionaries({"method": st.just("textDocument/codeAction"),
                               "params": st.fixed_dictionaries({
                                   "textDocument": doc, "range": span,
                                   "context": st.just({"diagnostics": []})})}),
        st.fixed_dictionaries({"method": st.sampled_from([
            "textDocument/codeLens", "textDocument/documentSymbol", "textDocument/documentLink"]),
            "params": st.fixed_dictionaries({"textDocument": doc})}),
        st.fixed_dictionaries({"method": st.just("workspace/symbol"),
                               "params": st.fixed_dictionaries({"query": st.text(max_size=30)})}),
        st.fixed_dictionaries({"method": st.just("workspace/executeCommand"),
                               "params": st.fixed_dictionaries({
                                   "command": st.sampled_from(["rulelens.recordRule",
                                                               "rulelens.writeIndex",
                                                               "rulelens.openRule", "nope"]),
                                   "arguments": st.lists(json_value, max_size=3)})}),
    ).map(lambda m: {**m, "request": True})
    anything = st.fixed_dictionaries({"method": method(), "params": params_for(root),
                                      "request": st.booleans()})
    return st.one_of(near_valid, anything)


# -- the canary: the server still works, and correctly --------------------------------------
def assert_serves(lsp: Lsp, root: Path) -> None:
    uri = (root / "app/Models/Invoice.php").as_uri()
    response = lsp.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": {"line": 0, "character": 0}},
                           timeout=60)
    if response.get("result") is None:
        # Not open (a fuzzed didClose may have closed it): open it again, ask again.
        lsp.open(root / "app/Models/Invoice.php", version=10**6)
        response = lsp.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                      "position": {"line": 0, "character": 0}})
    assert "Money is integer cents" in response["result"]["contents"]["value"], response


def assert_fresh_diagnostic(lsp: Lsp, root: Path) -> None:
    path = root / "app/Models/User.php"
    uri = path.as_uri()
    lsp.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    seen = lsp.diagnostics_count(uri)
    lsp.open(path, version=1)
    [diag] = lsp.wait_diagnostics(uri, after=seen, accept=bool)
    assert diag["source"] == "rulelens" and ".ai/rules/models.md" in diag["message"], diag
    assert "Money is integer cents" in diag["message"]


def test_random_messages_get_an_answer_and_never_kill_the_server(
        served: tuple[Lsp, Path]) -> None:
    lsp, root = served
    lsp.open(root / "app/Models/Invoice.php")
    answered = {"result": 0, "error": 0, "ignored": 0, "notification": 0}
    ignored: set[str] = set()

    @settings(FUZZ, max_examples=3 * EXAMPLES)
    @given(messages(root))
    def one(msg: dict[str, Any]) -> None:
        if msg["request"]:
            rid = lsp.send_request(msg["method"], msg["params"])
        else:
            lsp.notify(msg["method"], msg["params"])
            answered["notification"] += 1
        # The canary is read after the fuzzed message (one stream, in order): by the time it
        # is answered, a handler on the event loop has answered the fuzzed request or dropped it.
        assert_serves(lsp, root)
        if msg["request"]:
            with lsp.lock:
                response = lsp.responses.pop(rid, None)
            if response is None and msg["method"] == "workspace/executeCommand":
                # A write command waits for the rules folder's lock on a worker thread, off the
                # loop that answers the canary: its answer may come after the canary's.
                response = lsp.wait_response(rid)
            if response is None:
                answered["ignored"] += 1
                ignored.add(msg["method"])
            elif "error" in response:
                answered["error"] += 1
                assert isinstance(response["error"].get("code"), int), response
            else:
                answered["result"] += 1

    one()
    assert_fresh_diagnostic(lsp, root)
    assert lsp.alive() and lsp.garbage == []
    # Every request is answered (LSP bugs 3 and 5, fixed).
    assert ignored == set(), f"requests dropped without an answer: {ignored}"
    print(f"protocol fuzz: {answered}; requests dropped without an answer: {sorted(ignored)}")


def test_a_notification_sent_as_a_request_is_answered(served: tuple[Lsp, Path]) -> None:
    lsp, root = served
    uri = (root / "routes/web.php").as_uri()
    response = lsp.request("textDocument/didClose", {"textDocument": {"uri": uri}}, timeout=10)
    assert "error" in response or "result" in response


def test_did_change_with_bad_ranges_keeps_the_server_correct(served: tuple[Lsp, Path]) -> None:
    lsp, root = served
    rule = root / ".ai/rules/models.md"
    uri = lsp.open(rule, version=1)
    version = [1]

    @FUZZ
    @given(st.lists(st.fixed_dictionaries({"range": rng(), "text": st.text(max_size=50)}),
                    min_size=1, max_size=5))
    def one(changes: list[dict[str, Any]]) -> None:
        version[0] += 1
        lsp.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version[0]},
                                              "contentChanges": changes})
        assert_serves(lsp, root)

    one()
    # A full-text change restores the buffer; the diagnostics follow it exactly.
    seen = lsp.diagnostics_count(uri)
    broken = MODELS.replace("'app/Models/**'", "**/*.php")
    version[0] += 1
    lsp.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version[0]},
                                          "contentChanges": [{"text": broken}]})
    diags = lsp.wait_diagnostics(uri, after=seen, accept=lambda d: any(
        x.get("code") == "frontmatter-invalid" for x in d))
    assert diags[0]["range"]["start"]["line"] == 2
    lsp.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert_fresh_diagnostic(lsp, root)
    assert lsp.alive()


def test_garbage_frames_and_odd_ids(served: tuple[Lsp, Path]) -> None:
    lsp, root = served
    frames = [b"{", b"null", b"[]", b"42", b'"text"', b"\xff\xfe\x00", b'{"jsonrpc": "2.0"}',
              b'{"jsonrpc": "1.0", "id": 1, "method": "textDocument/hover"}',
              b'{"id": 7, "method": "workspace/symbol", "params": {"query": "x"}}',
              json.dumps({"jsonrpc": "2.0", "id": {"nested": 1}, "method": "workspace/symbol",
                          "params": {"query": "x"}}).encode(),
              json.dumps({"jsonrpc": "2.0", "id": None, "method": "workspace/symbol"}).encode(),
              json.dumps({"jsonrpc": "2.0", "id": 1.5, "method": "workspace/symbol",
                          "params": {"query": "Money"}}).encode(),
              json.dumps({"jsonrpc": "2.0", "result": 1, "id": 999_999}).encode(),
              json.dumps({"jsonrpc": "2.0", "method": "textDocument/hover", "params": None}).encode()]
    for body in frames:
        lsp.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        assert_serves(lsp, root)
    assert lsp.alive()


def test_huge_documents(served: tuple[Lsp, Path]) -> None:
    lsp, root = served
    for size in (1, 5, 20):
        text = ("x" * 200 + "\n") * (size * 1024 * 1024 // 201)
        path = root / "app/Models/Huge.php"
        uri = lsp.open(path, text=text, version=1)
        diags = lsp.wait_diagnostics(uri, accept=bool, timeout=120)
        assert "Money is integer cents" in diags[0]["message"]
        far = {"line": 10**6, "character": 10**6}
        assert "result" in lsp.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": far})
        lsp.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    huge_rule = MODELS + ("## Entry\n" + "note " * 50 + "\n") * 40_000
    uri = lsp.open(root / ".ai/rules/models.md", text=huge_rule, version=1)
    assert lsp.wait_diagnostics(uri, timeout=120) is not None
    lsp.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert_serves(lsp, root)
    assert_fresh_diagnostic(lsp, root)
