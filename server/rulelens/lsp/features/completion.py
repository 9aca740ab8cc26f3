"""Glob completion inside a rule file's `paths` items, from the project's file list.

Offers the folders and files of the folder typed so far, then `dir/**` and `dir/*.ext`; each
item's detail says how many files it matches. In another agent's rule file the same offers come
in that agent's glob key, counted under that agent's matcher (Copilot's `applyTo` also matches
in other folders). Unquoted items are replaced by a quoted glob
when YAML needs quotes (an unquoted `**/x` is a YAML alias, and agents would see nothing).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from lsprotocol import types

from rulelens.lsp.session import Session
from rulelens.lsp.views import agent_files
from rulelens.lsp.wire.positions import lines_of, position, to_code_points
from rulelens.lsp.wire.requests import document_request
from rulelens.lsp.workspace.snapshot import DocumentSnapshot
from rulelens.rules.format.reading import find_frontmatter, scan_paths
from rulelens.rules.format.yaml_style import dump_scalar

MAX_ITEMS = 500
_ITEM_LINE = re.compile(r"^([ \t]*-[ \t]*)(.*)$")
_INLINE = re.compile(r"^(paths[ \t]*:[ \t]*)(.*)$")
_META = re.compile(r"[*?\[{]")


def register(server: Session) -> None:
    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=["/", "'", '"']))
    @document_request(default=None)
    def on_completion(ls: Session, target: DocumentSnapshot,
                      params: types.CompletionParams) -> types.CompletionList | None:
        return complete(ls, target, params.position)


@dataclass(frozen=True)
class Slot:
    """Where the glob being typed sits on its line (code points)."""

    line: int
    start: int  # first character of the value, after any opening quote
    end: int  # end of the value, before any closing quote
    quote: str  # "'", '"' or "" for a plain scalar
    typed: str  # the value from `start` up to the cursor
    raw: bool = False  # one part of an unquoted comma list: written as typed, never quoted


def slot_at(lines: list[str], line: int, col: int, key: str = "paths") -> Slot | None:
    """The `paths` value (or another top-level key's) under the cursor, if the cursor is in one."""
    fm, _ = find_frontmatter(lines)
    if fm is None or not fm.open_line < line < fm.close_line:
        return None
    block, _ = scan_paths(lines, fm, key)
    if block is None or not block.start <= line < max(block.end, block.start + 1):
        return None
    text = lines[line]
    inline = _INLINE if key == "paths" else re.compile(r"^(" + re.escape(key) + r"[ \t]*:[ \t]*)(.*)$")
    m = inline.match(text) if line == block.start else _ITEM_LINE.match(text)
    if m is None or (line == block.start and m.group(2).lstrip().startswith("[")):
        return None
    start = m.end(1)
    raw = m.group(2).rstrip()
    quote = raw[:1] if raw[:1] in ("'", '"') else ""
    if quote:
        start += 1
        closing = text.find(quote, start)
        end = closing if closing != -1 else len(text.rstrip())
    else:
        comment = re.search(r"\s#", raw)
        end = m.end(1) + (comment.start() if comment else len(raw))
    if not start <= col <= end:
        return None
    return Slot(line, start, end, quote, text[start:col])


def one_part(slot: Slot, text: str, col: int) -> Slot:
    """The comma-separated part of a one-line value that the cursor is in."""
    before = text.rfind(",", slot.start, col)
    after = text.find(",", col, slot.end)
    start = slot.start if before < 0 else before + 1
    while start < col and text[start] in " \t":
        start += 1
    end = slot.end if after < 0 else after
    while end > start and text[end - 1] in " \t":
        end -= 1
    if before < 0 and after < 0:
        return slot
    return Slot(slot.line, start, max(end, col), slot.quote, text[start:col], raw=not slot.quote)


def complete(server: Session, target: DocumentSnapshot,
             pos: types.Position) -> types.CompletionList | None:
    if target.kind not in ("rule", "agent"):
        return None
    lines = lines_of(target.text)
    line, col = to_code_points(server.codec, lines, pos)
    counted: Callable[[str], int] | None = None  # another agent's matcher, else the tree's counts
    if target.kind == "agent":
        agent = target.owner()
        if agent is None or not agent.keys:
            return None
        slot = slot_at(lines, line, col, agent.keys[0])
        # Where the agent splits a one-line value on commas, an offer completes one part of it.
        splits = agent.split_value(",") is not None
        if slot is not None and splits and "," in lines[line][slot.start:slot.end]:
            slot = one_part(slot, lines[line], col)
        counted = agent_files.counter(agent)
    else:
        slot = slot_at(lines, line, col)
    if slot is None:
        return None
    lead = ""
    typed = slot.typed
    for prefix in ("./", "/"):
        if typed.startswith(prefix):
            lead, typed = prefix, typed[len(prefix):]
            break
    folder = typed.rpartition("/")[0]
    if _META.search(folder):
        return types.CompletionList(is_incomplete=False, items=[])
    tree = target.root.tree(target.files_ttl)
    if not tree.has_folder(folder):
        return types.CompletionList(is_incomplete=False, items=[])
    base = f"{folder}/" if folder else ""
    subfolders, files = tree.listing(folder)
    listing: list[tuple[str, types.CompletionItemKind, int]] = []
    for name, count in subfolders:
        listing.append((f"{base}{name}/", types.CompletionItemKind.Folder, count))
    for name in files:
        listing.append((f"{base}{name}", types.CompletionItemKind.File, 1))
    incomplete = len(listing) > MAX_ITEMS
    if incomplete:
        stem = (base + typed.rpartition("/")[2]).casefold()
        listing = [o for o in listing if o[0].casefold().startswith(stem)][:MAX_ITEMS]
    offers = listing
    if folder:
        offers.append((f"{folder}/**", types.CompletionItemKind.Value, tree.count_below(folder)))
        for ext, count in tree.extensions(files):
            offers.append((f"{folder}/*{ext}", types.CompletionItemKind.Value, count))
    edit_range = types.Range(
        start=position(server.codec, lines, line, slot.start),
        end=position(server.codec, lines, line, slot.end),
    )
    items = []
    for n, (glob, kind, matched) in enumerate(offers):
        glob = lead + glob
        if counted is not None:
            matched = counted(glob)
        items.append(types.CompletionItem(
            label=glob,
            kind=kind,
            detail=f"{matched:,} {'file' if matched == 1 else 'files'}",
            sort_text=f"{n:05d}",
            filter_text=glob,
            text_edit=types.TextEdit(range=edit_range,
                                     new_text=glob if slot.raw else _written(glob, slot.quote)),
        ))
    return types.CompletionList(is_incomplete=incomplete, items=items)


def _written(glob: str, quote: str) -> str:
    """The glob as it must appear between the slot's quotes (or as a whole YAML scalar)."""
    if quote == "'":
        return glob.replace("'", "''")
    if quote == '"':
        return glob.replace("\\", "\\\\").replace('"', '\\"')
    return dump_scalar(glob)
