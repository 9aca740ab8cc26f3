"""A recorded editor session against `rulelens serve` on a copy of examples/.

Usage: python bench/lsp_transcript.py [--keep]
Opens app/Models/Invoice.php, receives its rules, hovers, records a rule through the code
action (answering the title/note prompt as an editor would) and shows the new rule in the
republished diagnostics. Prints each message exchanged (abridged JSON), for the docs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pytest_lsp import client_capabilities

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
sys.path.insert(0, str(REPO))
from tests.lsp.conftest import fix_code_action_union  # noqa: E402  (the same lsprotocol fix)


def show(direction: str, method: str, payload: Any, client: LanguageClient) -> None:
    data = client.protocol._converter.unstructure(payload) if payload is not None else None
    text = json.dumps(data, ensure_ascii=False, indent=1)
    if len(text) > 1800:
        text = text[:1800] + "\n …"
    print(f"\n{direction} {method}\n{text}", flush=True)


async def main(keep: bool) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="rulelens-transcript-"))
    root = tmp / "examples"
    shutil.copytree(EXAMPLES, root)
    client = LanguageClient("transcript", "1")
    fix_code_action_union(client)
    published: asyncio.Queue[types.PublishDiagnosticsParams] = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(ls: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        show("<-", "textDocument/publishDiagnostics", params, ls)
        published.put_nowait(params)

    @client.feature(types.WINDOW_SHOW_DOCUMENT)
    def on_show(ls: LanguageClient, params: types.ShowDocumentParams) -> types.ShowDocumentResult:
        show("<-", "window/showDocument", params, ls)
        return types.ShowDocumentResult(success=True)

    @client.feature(types.WORKSPACE_CONFIGURATION)
    def on_config(ls: LanguageClient, params: types.ConfigurationParams) -> list[Any]:
        return [None for _ in params.items]

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def on_register(ls: LanguageClient, params: types.RegistrationParams) -> None:
        show("<-", "client/registerCapability", params, ls)

    for method in (types.WINDOW_LOG_MESSAGE, types.WORKSPACE_CODE_LENS_REFRESH):
        client.feature(method)(lambda ls, params, m=method: show("<-", m, params, ls))

    await client.start_io(sys.executable, "-m", "rulelens", "serve")
    init = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), process_id=os.getpid(),
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="examples")])
    print(f"# rulelens serve on a copy of examples/ at {root}")
    print("-> initialize (VS Code 1.65 capabilities from pytest-lsp)")
    result = await client.initialize_async(init)
    show("<-", "initialize result (capabilities)", result.capabilities, client)
    client.initialized(types.InitializedParams())

    rel = "app/Models/Invoice.php"
    uri = (root / rel).as_uri()
    doc = types.TextDocumentIdentifier(uri=uri)
    opened = types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="php", version=1, text=(root / rel).read_text()))
    show("->", "textDocument/didOpen", opened, client)
    client.text_document_did_open(opened)
    await published.get()

    hover = types.HoverParams(text_document=doc, position=types.Position(line=0, character=0))
    show("->", "textDocument/hover", hover, client)
    show("<-", "hover result", await client.text_document_hover_async(hover), client)

    request = types.CodeActionParams(
        text_document=doc, range=types.Range(start=hover.position, end=hover.position),
        context=types.CodeActionContext(diagnostics=[]))
    show("->", "textDocument/codeAction", request, client)
    actions = await client.text_document_code_action_async(request)
    show("<-", "codeAction result", actions, client)
    raw = client.protocol._converter.unstructure(actions)
    chosen = next(a for a in raw if a["title"].endswith("app/Models/*.php"))
    args = dict(chosen["command"]["arguments"][0])
    print("\n# the editor prompts: title and note")
    args["title"] = "Totals are computed, never stored"
    args["note"] = "Invoice totals come from the line items; do not add a `total` column."
    execute = types.ExecuteCommandParams(command=chosen["command"]["command"], arguments=[args])
    show("->", "workspace/executeCommand", execute, client)
    show("<-", "executeCommand result",
         await client.workspace_execute_command_async(execute), client)
    while True:
        params = await published.get()
        if params.uri == uri:
            break
    print("\n# .ai/rules/models.md now:\n" + (root / ".ai/rules/models.md").read_text())
    print("# .ai/rules/index.md now:\n" + (root / ".ai/rules/index.md").read_text())
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    if not keep:
        shutil.rmtree(tmp)
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--keep", action="store_true", help="keep the temporary copy")
    raise SystemExit(asyncio.run(main(ap.parse_args().keep)))
