"""Hover: in a source file, the rules that apply and what other agents load; on a glob in a rule
file (Boost's or another agent's), what it matches."""

from __future__ import annotations

from lsprotocol import types

from rulelens.lsp.session import Session
from rulelens.lsp.views import agent_files
from rulelens.lsp.views.other_agents import matcher_sureness, other_agents, section_markdown, section_plain
from rulelens.lsp.views.unseen import unseen_line
from rulelens.lsp.wire.positions import lines_of, span, to_code_points
from rulelens.lsp.wire.requests import document_request
from rulelens.lsp.wire.sanitize import code, defang
from rulelens.lsp.workspace.snapshot import DocumentSnapshot
from rulelens.report.words import unread_lines
from rulelens.rules.model import GlobItem, Match

MAX_CHARS = 12_000
EXAMPLES = 5


def register(server: Session) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @document_request(default=None)
    def on_hover(ls: Session, target: DocumentSnapshot,
                 params: types.HoverParams) -> types.Hover | None:
        return hover(ls, target, params.position)


def hover(server: Session, target: DocumentSnapshot, pos: types.Position) -> types.Hover | None:
    if target.kind == "source":
        return _source_hover(server, target, pos)
    if target.kind == "rule":
        return _glob_hover(server, target, pos)
    if target.kind == "agent":
        # Another agent's rule file: its globs; elsewhere, the Boost rules whose globs reach it.
        return _agent_glob_hover(server, target, pos) or _source_hover(server, target, pos)
    return None


def _markup(server: Session, markdown: str, plain: str) -> types.MarkupContent:
    if server.markdown:
        return types.MarkupContent(kind=types.MarkupKind.Markdown, value=markdown)
    return types.MarkupContent(kind=types.MarkupKind.PlainText, value=plain)


# -- source files -------------------------------------------------------------------------
def _source_hover(server: Session, target: DocumentSnapshot,
                  pos: types.Position) -> types.Hover | None:
    mode = target.settings.hover
    if mode == "off" or (mode == "firstLine" and pos.line != 0):
        return None
    matches = target.root.repo.rules_for(target.rel)
    others = other_agents(server, target) if target.kind == "source" else []
    unread = unread_lines(target.root.repo.unread())
    if not matches and not unread and not any(x.loads or x.maybe for x in others):
        return None
    markdown = [rules_markdown(target, matches)] if matches else []
    plain = [rules_plain(matches)] if matches else []
    if unread:  # a rule file left out is said, not hidden: its rules may apply here
        markdown.append("\n\n".join(f"> ⚠ {defang(line)}." for line in unread))
        plain.append("\n".join(f"{line}." for line in unread))
    if others:
        markdown.append(section_markdown(target, others))
        plain.append(section_plain(others))
    return types.Hover(contents=_markup(server, "\n\n---\n".join(markdown), "\n\n".join(plain)))


def rules_markdown(target: DocumentSnapshot, matches: list[Match]) -> str:
    """Each matching rule file with the glob that matched, a link, and its entries in full."""
    parts = [f"**Project rules for {code(target.rel)}**"]
    for m in matches:
        rule = m.rule
        uri = target.root.uri_of(rule.rel)
        name = defang(rule.heading or rule.stem)
        line = (rule.heading_line or 0) + 1
        globs = ", ".join(code(g) for g in m.globs)
        parts.append(f"---\n### {name}\n[{defang(rule.rel)}]({uri}#L{line}) · matched by {globs}")
        unseen = unseen_line(m)
        if unseen:
            parts.append(f"> ⚠ {defang(unseen)}")
        for entry in rule.entries:
            parts.append(f"**[{defang(entry.title)}]({uri}#L{entry.line + 1})**\n\n"
                         f"{defang(entry.note)}")
    text = "\n\n".join(parts)
    if len(text) > MAX_CHARS:
        text = text[:MAX_CHARS].rstrip() + "\n\n…(more in the rule files linked above)"
    return text


def rules_plain(matches: list[Match]) -> str:
    parts = []
    for m in matches:
        parts.append(f"{m.rule.rel} (matched by {', '.join(m.globs)})")
        unseen = unseen_line(m)
        if unseen:
            parts.append(f"  {unseen}")
        for entry in m.rule.entries:
            parts.append(f"  ## {entry.title}\n  {entry.note}")
    return "\n".join(parts)[:MAX_CHARS]


# -- globs in rule files -------------------------------------------------------------------
def glob_at(server: Session, target: DocumentSnapshot,
            pos: types.Position) -> tuple[GlobItem, list[str]] | None:
    """The `paths` item under the cursor (from the live buffer) and the buffer's lines."""
    rule = target.rule
    if rule is None:
        return None
    lines = lines_of(target.text)
    line, col = to_code_points(server.codec, lines, pos)
    for item in rule.glob_items:
        if item.line == line and item.start_col <= col <= item.end_col:
            return item, lines
    return None


def _glob_hover(server: Session, target: DocumentSnapshot,
                pos: types.Position) -> types.Hover | None:
    found = glob_at(server, target, pos)
    if found is None:
        return None
    item, lines = found
    text = item.text.strip()
    files = target.files()
    probe = text[1:] if text.startswith("!") else text
    return _count_hover(server, text, files.count(probe), files.examples(probe, EXAMPLES), len(files),
                        lines, item, "")


def _agent_glob_hover(server: Session, target: DocumentSnapshot,
                      pos: types.Position) -> types.Hover | None:
    found = agent_files.glob_at(server, target, pos)
    if found is None:
        return None
    agent = found.agent
    note = f"Counted with {agent.name}'s matcher"
    mark = matcher_sureness(agent)
    if mark is not None:
        note += f" ({mark})"
    return _count_hover(server, found.item.text.strip(), len(found.matched), found.matched[:EXAMPLES],
                        found.total, found.lines, found.item, note + ".")


def _count_hover(server: Session, text: str, count: int, examples: list[str], total: int,
                 lines: list[str], item: GlobItem, note: str) -> types.Hover:
    verb = "excludes" if text.startswith("!") else "matches"
    if count == 0:
        head = f"{code(text)} {verb} no file in the project ({total:,} files)."
    else:
        noun = "file" if count == 1 else "files"
        head = f"{code(text)} {verb} **{count:,}** {noun} of {total:,}:"
    shown = "\n".join(f"- {code(p)}" for p in examples)
    more = f"\n- …and {count - len(examples):,} more" if count > len(examples) else ""
    markdown = head + ("\n\n" + shown + more if examples else "") + (f"\n\n*{note}*" if note else "")
    plain = (head.replace("**", "").replace("`", "") + "".join(f"\n  {p}" for p in examples)
             + (f"\n{note}" if note else ""))
    return types.Hover(
        contents=_markup(server, markdown, plain),
        range=span(server.codec, lines, item.line, item.start_col, item.end_col),
    )
