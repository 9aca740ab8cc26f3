"""The quick fix for a rule file whose `paths` items Boost's YAML cannot read as text (`- **/*.php`
is an alias, `- 0o17` a number): quote every unquoted item, so the file reaches the index.

Single quotes keep a glob's text as written (a `'` is doubled); items already quoted stay.
"""

from __future__ import annotations

import re

from lsprotocol import types

from rulelens.lsp.session import Session
from rulelens.lsp.wire.positions import span
from rulelens.lsp.workspace.snapshot import DocumentSnapshot
from rulelens.rules.format.yaml_style import single_quoted

KIND = types.CodeActionKind.QuickFix
CODES = {"frontmatter-invalid", "paths-invalid"}
TITLE = "Quote the globs in `paths`, so that Boost reads them"
_ITEM = re.compile(r"^(\s*-\s+)(\S.*?)\s*$")


def register(server: Session) -> None:
    server.code_action_providers.append((KIND.value, actions))


def actions(server: Session, target: DocumentSnapshot, context: types.CodeActionContext,
            ) -> list[types.CodeAction]:
    if not server.offers_edits(target, "rule"):
        return []
    found = [d for d in context.diagnostics if d.code in CODES]
    # A client may ask before it has the document's diagnostics (a view's inline action on a file
    # it just opened): the rule file's own reading says the same.
    rule = target.root.repo.file(target.rel)
    known = rule is not None and any(p.code in CODES for p in rule.problems)
    text = target.buffer
    if not (found or known) or text is None:
        return []
    edits = quote_edits(server, text)
    if not edits:
        return []
    return [types.CodeAction(title=TITLE, kind=KIND, is_preferred=True, diagnostics=found or None,
                             edit=server.edit(target.uri, edits))]


def quote_edits(server: Session, text: str) -> list[types.TextEdit]:
    """One edit per unquoted item of the frontmatter's `paths:` block, from the item's first
    character to the end of its line."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return []
    edits: list[types.TextEdit] = []
    in_paths = False
    for number, line in enumerate(lines[1:], start=1):
        if line.strip() == "---":
            break
        if not line.startswith((" ", "\t", "-")):
            in_paths = line.split(":", 1)[0].strip() == "paths" and not line.split(":", 1)[1].strip()
            continue
        m = _ITEM.match(line)
        if not in_paths or m is None or m.group(2).startswith(("'", '"', "#")):
            continue
        start = len(m.group(1))
        edits.append(types.TextEdit(range=span(server.codec, lines, number, start, start + len(m.group(2))),
                                    new_text=single_quoted(m.group(2))))
    return edits
