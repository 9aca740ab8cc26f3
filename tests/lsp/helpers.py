"""Client-side steps shared by the tests: open a document and wait for its diagnostics."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from lsprotocol import types
from pytest_lsp import LanguageClient

TIMEOUT = 20.0


def language_of(uri: str) -> str:
    for ext, lang in ((".php", "php"), (".md", "markdown"), (".ts", "typescript")):
        if uri.endswith(ext):
            return lang
    return "plaintext"


def published(client: LanguageClient, uri: str) -> int:
    """How many diagnostics publications for `uri` the client has seen so far."""
    return len(client.published.get(uri, []))  # type: ignore[attr-defined]


async def diagnostics_after(client: LanguageClient, uri: str, seen: int,
                            until: Callable[[list[types.Diagnostic]], bool] | None = None,
                            ) -> list[types.Diagnostic]:
    """The first publication for `uri` after the `seen`-th one (that satisfies `until`)."""
    event: asyncio.Event = client.published_event  # type: ignore[attr-defined]

    async def wait() -> list[types.Diagnostic]:
        index = seen
        while True:
            got = client.published.get(uri, [])  # type: ignore[attr-defined]
            while index < len(got):
                if until is None or until(got[index]):
                    return list(got[index])
                index += 1
            event.clear()
            await event.wait()

    return await asyncio.wait_for(wait(), TIMEOUT)


async def open_doc(client: LanguageClient, uri: str, text: str,
                   version: int = 1) -> list[types.Diagnostic]:
    seen = published(client, uri)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id=language_of(uri),
                                             version=version, text=text)))
    return await diagnostics_after(client, uri, seen)


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


def without_document_changes(caps: types.ClientCapabilities) -> None:
    """For `pytest.mark.caps`: a client that takes only plain `changes` in a workspace edit."""
    assert caps.workspace is not None
    caps.workspace.workspace_edit = types.WorkspaceEditClientCapabilities(document_changes=False)


def with_document_changes(caps: types.ClientCapabilities) -> None:
    """For `pytest.mark.caps`: a client that takes versioned `documentChanges`."""
    assert caps.workspace is not None
    caps.workspace.workspace_edit = types.WorkspaceEditClientCapabilities(document_changes=True)
