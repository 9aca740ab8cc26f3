"""The `@document_request` decorator (pure, on a server object that is never started)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from rulelens.lsp.session import Session
from rulelens.lsp.wire.requests import document_request
from rulelens.lsp.workspace.snapshot import DocumentSnapshot
from tests.lsp.project import make_project


def _params(uri: str) -> types.HoverParams:
    return types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri),
                             position=types.Position(line=0, character=0))


def test_documents_outside_every_root_get_the_default(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj")
    server = Session()
    server.roots.configure([(proj.root, ".ai/rules")], ".ai/rules")
    seen: list[DocumentSnapshot] = []

    @document_request(default=[])
    def handler(ls: Session, target: DocumentSnapshot, params: types.HoverParams) -> list[str]:
        seen.append(target)
        return [target.kind]

    assert handler.__name__ == "handler"
    assert handler(server, _params("untitled:Untitled-1")) == []
    assert handler(server, _params((tmp_path / "elsewhere.php").as_uri())) == []
    assert seen == []
    assert handler(server, _params(proj.uri("app/Models/Invoice.php"))) == ["source"]
    assert handler(server, _params(proj.uri(".ai/rules/models.md"))) == ["rule"]
    assert [t.rel for t in seen] == ["app/Models/Invoice.php", ".ai/rules/models.md"]


def test_a_failing_handler_answers_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    proj = make_project(tmp_path / "proj")
    server = Session()
    server.roots.configure([(proj.root, ".ai/rules")], ".ai/rules")

    @document_request(default=None)
    def handler(ls: Session, target: DocumentSnapshot, params: types.HoverParams) -> str:
        raise RuntimeError("bug")

    monkeypatch.delenv("RULELENS_LSP_RAISE", raising=False)
    assert handler(server, _params(proj.uri("app/Models/Invoice.php"))) is None
    monkeypatch.setenv("RULELENS_LSP_RAISE", "1")
    with pytest.raises(RuntimeError):
        handler(server, _params(proj.uri("app/Models/Invoice.php")))
