"""The editor's fix for a cause that repeats across files: on one file's finding, every file mended."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.edits import apply_text_edits
from tests.lsp.helpers import open_doc, pos
from tests.lsp.project import Project

RULE = "# TypeScript rule {n}\nRule {n}: use strict types everywhere, never any, prefer readonly arrays.\n"


def _all_edits(edit: types.WorkspaceEdit | None) -> dict[str, list[types.TextEdit]]:
    assert edit is not None
    if edit.document_changes:
        return {c.text_document.uri: [e for e in c.edits if isinstance(e, types.TextEdit)]
                for c in edit.document_changes if isinstance(c, types.TextDocumentEdit)}
    assert edit.changes is not None
    return {uri: list(edits) for uri, edits in edit.changes.items()}


async def test_a_skill_s_finding_offers_paths_for_every_converted_skill(
    client: LanguageClient, proj: Project,
) -> None:
    proj.write("src/a.ts", "")
    texts = {}
    for n in range(2):
        body = RULE.format(n=n)
        proj.write(f".cursor/rules/ts-{n}.mdc", f"---\ndescription: TS {n}\nglobs: ['src/**/*.ts']\n---\n{body}")
        texts[f".claude/skills/ts-{n}/SKILL.md"] = f"---\nname: ts-{n}\ndescription: TS {n}\n---\n{body}"
    for rel, text in texts.items():
        proj.write(rel, text)
    rel = ".claude/skills/ts-0/SKILL.md"
    uri = proj.uri(rel)
    found = await open_doc(client, uri, texts[rel])
    [d] = [d for d in found if d.code == "agents-disagree"]
    assert "this file carries no `paths`" in d.message  # the file's own finding, not the group's
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=pos(0, 0), end=pos(0, 0)), context=types.CodeActionContext(diagnostics=[d])))
    [fix] = [a for a in actions or [] if isinstance(a, types.CodeAction) and a.title.startswith("Add `paths:`")]
    edits = _all_edits(fix.edit)
    assert set(edits) == {proj.uri(r) for r in texts}
    for r, text in texts.items():
        fixed = apply_text_edits(text, edits[proj.uri(r)], "utf-16")
        assert '\npaths:\n  - "src/**/*.ts"\n---\n' in fixed
