"""Roots: multi-root workspaces; documents outside every root, untitled and non-file URIs."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import open_doc, pos
from tests.lsp.project import Project, make_project


@pytest.fixture
def second(tmp_path: Path) -> Project:
    other = make_project(tmp_path / "other", with_index=False)
    other.write(".ai/rules/models.md", "---\npaths:\n  - 'app/Models/*.php'\n---\n\n"
                "# Other models\n\n## Other project's rule\nOnly in the second root.\n")
    return other


@pytest.fixture
def folders(proj: Project, second: Project) -> list[Path]:
    return [proj.root, second.root]


async def test_each_root_has_its_own_rules(
    client: LanguageClient, proj: Project, second: Project,
) -> None:
    (a,) = await open_doc(client, proj.uri("app/Models/Invoice.php"), "<?php\n")
    (b,) = await open_doc(client, second.uri("app/Models/Invoice.php"), "<?php\n")
    assert "Money is integer cents" in a.message and "Other project" not in a.message
    assert "Other project's rule" in b.message
    assert b.related_information and b.related_information[0].location.uri == second.uri(
        ".ai/rules/models.md")
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="rule"))
    assert found is not None
    assert any(s.location.uri.startswith(second.root.as_uri()) for s in found)


async def test_record_goes_to_the_root_of_the_document(
    client: LanguageClient, proj: Project, second: Project,
) -> None:
    uri = second.uri("routes/web.php")
    await open_doc(client, uri, "<?php\n")
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="rulelens.recordRule",
        arguments=[{"glob": "routes/*.php", "title": "T", "note": "N", "uri": uri}]))
    assert result["file"] == ".ai/rules/routes.md"
    assert second.path(".ai/rules/routes.md").exists()
    assert not proj.path(".ai/rules/routes.md").exists()


async def test_documents_outside_roots_get_nothing(
    client: LanguageClient, proj: Project, tmp_path: Path,
) -> None:
    outside = tmp_path / "elsewhere" / "app" / "Models" / "X.php"
    outside.parent.mkdir(parents=True)
    outside.write_text("<?php\n")
    for uri in (outside.as_uri(), "untitled:Untitled-1", "git:/x/app/Models/Invoice.php?ref=HEAD",
                "file:///does/not/exist/app/Models/Y.php"):
        assert await open_doc(client, uri, "<?php\n") == []
        doc = types.TextDocumentIdentifier(uri=uri)
        hover = await client.text_document_hover_async(
            types.HoverParams(text_document=doc, position=pos(0, 0)))
        assert hover is None
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=doc, range=types.Range(start=pos(0, 0), end=pos(0, 0)),
            context=types.CodeActionContext(diagnostics=[])))
        assert not actions
        lenses = await client.text_document_code_lens_async(
            types.CodeLensParams(text_document=doc))
        assert not lenses
        completion = await client.text_document_completion_async(
            types.CompletionParams(text_document=doc, position=pos(0, 0)))
        assert completion is None
    assert not [m for m in client.messages if m.type == types.MessageType.Error]


def test_a_folder_that_is_no_project_is_read_but_not_written(tmp_path: Path) -> None:
    from rulelens.lsp.workspace.roots import Root
    from rulelens.rules.model import RuleError

    lonely = Root(tmp_path, ".ai/rules")
    assert lonely.repo.writable is False
    with pytest.raises(RuleError, match="open a project or pass --root"):
        lonely.repo.record("app/**", "t", "n")
    assert list(tmp_path.iterdir()) == []
    assert Root(tmp_path, ".ai/rules", explicit=True).repo.writable is True
    (tmp_path / ".git").mkdir()
    assert Root(tmp_path, ".ai/rules").repo.writable is True


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab./ é%#?\udcff", min_size=1, max_size=10))
def test_a_files_uri_is_what_pathlib_says(tmp_path_factory: pytest.TempPathFactory, rel: str) -> None:
    """`uri_of` builds most URIs from the root's as text; each must be what `as_uri` gives."""
    from rulelens.lsp.workspace.roots import Root

    folder = tmp_path_factory.getbasetemp() / "a root é #"
    folder.mkdir(exist_ok=True)
    root = Root(folder, ".ai/rules", explicit=True)
    assert root.uri_of(rel) == (folder / rel).as_uri()


def test_each_root_keeps_its_own_git_session(tmp_path: Path) -> None:
    """Two roots never share what git told one of them (workspace/git.py's GitSession): a
    work tree's yes, where its caches live; the file list and the staleness checks over it ask
    git through their root's session."""
    import subprocess

    from rulelens.lsp.workspace.roots import Root
    from rulelens.rules.check.stale.findings import scan_of
    from rulelens.workspace.cache_files import cache_file

    repo, plain = make_project(tmp_path / "repo").root, make_project(tmp_path / "plain").root
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    a, b = Root(repo, ".ai/rules", explicit=True), Root(plain, ".ai/rules", explicit=True)
    assert a.git is not b.git
    files_a, files_b = a.files(), b.files()
    assert files_a.git is a.git and files_b.git is b.git
    rule_a = next(r for r in a.repo.files if not r.is_boost)
    rule_b = next(r for r in b.repo.files if not r.is_boost)
    assert scan_of(rule_a, files_a).is_git and not scan_of(rule_b, files_b).is_git
    assert cache_file(repo, "rulelens/x.json", a.git) is not None
    assert (repo, "rulelens") in a.git.git_paths and not b.git.git_paths
    assert a.git.work_tree(repo) and not b.git.work_tree(plain)
    a.forget_files()
    assert a.files().git is a.git  # a new list, the same root's session
