"""Client-side steps shared by the tests: open a document and wait for its diagnostics."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from lsprotocol import types
from pytest_lsp import LanguageClient

TIMEOUT = 20.0


def language_of(uri: str) -> str:
    for ext, lang in ((".php", "php"), (".md", "markdown"), (".ts", "typescript")):
        if uri.endswith(ext):
            return lang
    return "plaintext"


async def diagnostics_for(client: LanguageClient, uri: str) -> Sequence[types.Diagnostic]:
    """Wait for the next publishDiagnostics for `uri` (others are skipped)."""
    while True:
        params = await asyncio.wait_for(
            client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), TIMEOUT)
        if params.uri == uri:
            return list(params.diagnostics)


async def open_doc(client: LanguageClient, uri: str, text: str,
                   version: int = 1) -> Sequence[types.Diagnostic]:
    waiter = asyncio.ensure_future(diagnostics_for(client, uri))
    await asyncio.sleep(0)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id=language_of(uri),
                                             version=version, text=text)))
    return await waiter


def encoding(client: LanguageClient) -> str:
    enc = client.init_result.capabilities.position_encoding  # type: ignore[attr-defined]
    return str(enc.value if hasattr(enc, "value") else enc or "utf-16")


def units(client: LanguageClient, text: str) -> int:
    """Length of `text` in the negotiated position encoding."""
    enc = encoding(client)
    if enc == "utf-8":
        return len(text.encode("utf-8"))
    if enc == "utf-32":
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def pos(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)
