"""One snapshot per LSP request (lsp/workspace/snapshot.py, as ruff_server's `DocumentSnapshot`):
features and views read the document's text, rule file and settings from it, never from the
session again; and the core's check of one document has one public entry, which chooses the
check by the document's kind (check_document.py)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.architecture.test_one_home import PACKAGE, code_of

# What asks the session (or pygls's workspace) for a document's text or settings.
ASKS = re.compile(r"\.text_of\(|\btext_documents\b|\blive_rule\b|\btext_for\(|\.settings_for\(")


def asking(root: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        hits = ASKS.findall(code_of(path.read_text(encoding="utf-8")))
        if hits:
            found[path.relative_to(root).as_posix()] = hits
    return found


def public_functions(source: str) -> list[str]:
    return [node.name for node in ast.parse(source).body
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")]


def test_features_and_views_read_the_snapshot_not_the_session() -> None:
    lsp = PACKAGE / "lsp"
    assert asking(lsp / "features") == {}, "features ask the session for a document"
    assert asking(lsp / "views") == {}


def test_the_session_has_no_text_lookup_of_its_own() -> None:
    from rulelens.lsp.session import Session

    assert not hasattr(Session, "text_of")


def test_check_document_has_one_public_entry() -> None:
    source = (PACKAGE / "check_document.py").read_text(encoding="utf-8")
    assert public_functions(source) == ["check_document"]


def test_the_rules_can_fail(tmp_path: Path) -> None:
    (tmp_path / "hover.py").write_text("text = server.text_of(target.uri)\n# server.text_of in a comment\n")
    assert asking(tmp_path) == {"hover.py": [".text_of("]}
    assert public_functions("def check_rule_text(): ...\ndef check_document(): ...\n") == [
        "check_rule_text", "check_document"]
