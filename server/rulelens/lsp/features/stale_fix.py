"""Quick fixes for `stale-path` and `stale-name`: replace a moved path, or remove a dead mention.

The diagnostic carries what the fixes need in its `data` (wire/payloads.MentionFix: the mention as
published and its replacements), so the fix never parses the message. Before editing, the fix
checks that the document still has that mention at the diagnostic's range; a client that sent
an old diagnostic after further typing gets no action rather than a wrong edit.

"Remove" deletes what the person would delete by hand: the whole line when the mention is all
the line says (a list item such as "- `app/Legacy/`", or a line of its own), else the mention
with its backticks (and its parentheses when it stood alone in them) and one space beside it,
leaving the rest of the sentence for the person to reword.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lsprotocol import types

from rulelens.lsp.session import Session
from rulelens.lsp.wire.payloads import STALE_CODES, MentionFix, mention_fix
from rulelens.lsp.wire.positions import lines_of, position, to_code_points
from rulelens.lsp.workspace.snapshot import DocumentSnapshot

KIND = types.CodeActionKind.QuickFix
# What is left of a line that said only the mention: a list marker, a colon or full stop.
_NOTHING_LEFT = re.compile(r"\s*(?:[-*+]|\d{1,9}[.)])?\s*(?:\[[ xX]\])?\s*[.,;:]?\s*")


def register(server: Session) -> None:
    server.code_action_providers.append((KIND.value, actions))


def actions(server: Session, target: DocumentSnapshot, context: types.CodeActionContext,
            ) -> list[types.CodeAction]:
    if not server.offers_edits(target, "rule"):
        return []
    wanted = [d for d in context.diagnostics if d.code in STALE_CODES]
    if not wanted:
        return []
    lines = lines_of(target.text)
    out: list[types.CodeAction] = []
    for diagnostic in wanted:
        fix = mention_fix(diagnostic.data)
        found = _mention_at(server, lines, diagnostic.range, fix)
        if fix is None or found is None:
            continue
        line, start, end = found
        for i, new in enumerate(fix["replacements"]):
            out.append(_action(server, target, f"Replace with `{new}`", diagnostic,
                               [types.TextEdit(range=diagnostic.range, new_text=new)],
                               preferred=i == 0 and len(fix["replacements"]) == 1))
        title, edit = _removal(server, lines, line, start, end, fix["mention"])
        out.append(_action(server, target, title, diagnostic, [edit], preferred=False))
    return out


def _mention_at(server: Session, lines: Sequence[str], rng: types.Range,
                fix: MentionFix | None) -> tuple[int, int, int] | None:
    """(line, start, end) in code points when the document still has the mention there."""
    if fix is None or rng.start.line != rng.end.line or rng.start.line >= len(lines):
        return None
    line, start = to_code_points(server.codec, lines, rng.start)
    _, end = to_code_points(server.codec, lines, rng.end)
    return (line, start, end) if lines[line][start:end] == fix["mention"] else None


def _removal(server: Session, lines: Sequence[str], n: int, start: int, end: int,
             mention: str) -> tuple[str, types.TextEdit]:
    line = lines[n]
    a, b = _with_backticks(line, start, end)
    if a > 0 and b < len(line) and line[a - 1] == "(" and line[b] == ")":
        a, b = a - 1, b + 1  # "(`app/Old.php`)" goes whole
    if _NOTHING_LEFT.fullmatch(line[:a] + line[b:]):
        if n + 1 < len(lines):
            rng = types.Range(start=types.Position(line=n, character=0),
                              end=types.Position(line=n + 1, character=0))
        else:  # the last line: take the line break before it, if any
            rng = types.Range(start=position(server.codec, lines, n - 1, len(lines[n - 1])) if n else
                              types.Position(line=0, character=0),
                              end=position(server.codec, lines, n, len(line)))
        return f"Remove the line naming `{mention}`", types.TextEdit(range=rng, new_text="")
    if a > 0 and line[a - 1] == " " and (b == len(line) or line[b] in " .,;:!?"):
        a -= 1
    elif b < len(line) and line[b] == " ":
        b += 1
    rng = types.Range(start=position(server.codec, lines, n, a), end=position(server.codec, lines, n, b))
    return f"Remove `{mention}`", types.TextEdit(range=rng, new_text="")


def _with_backticks(line: str, start: int, end: int) -> tuple[int, int]:
    """The span widened to the code span's backticks (and the spaces inside them), if any."""
    a = start
    while a > 0 and line[a - 1] == " ":
        a -= 1
    b = end
    while b < len(line) and line[b] == " ":
        b += 1
    if a > 0 and b < len(line) and line[a - 1] == "`" and line[b] == "`":
        while a > 0 and line[a - 1] == "`":
            a -= 1
        while b < len(line) and line[b] == "`":
            b += 1
        return a, b
    return start, end


def _action(server: Session, target: DocumentSnapshot, title: str, diagnostic: types.Diagnostic,
            edits: list[types.TextEdit], preferred: bool) -> types.CodeAction:
    return types.CodeAction(title=title, kind=KIND, is_preferred=preferred or None,
                            diagnostics=[diagnostic], edit=server.edit(target.uri, edits))
