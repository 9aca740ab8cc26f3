"""Diagnostics: the rules that apply to a source file; check's findings in rule files and the index.

Published on open (and, for rule files and the index, as the person types), and republished for
every open document of a root whose rules changed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from json.encoder import encode_basestring_ascii  # type: ignore[attr-defined]
from typing import NamedTuple

from lsprotocol import types

from rulelens.check_document import DocumentCheck, check_document
from rulelens.lsp.session import Session
from rulelens.lsp.views.unseen import unseen_line
from rulelens.lsp.wire.guard import guarded
from rulelens.lsp.wire.payloads import mention_data
from rulelens.lsp.wire.positions import lines_of, span, whole_line
from rulelens.lsp.wire.protocol import RulelensProtocol
from rulelens.lsp.workspace.roots import Root
from rulelens.lsp.workspace.snapshot import DocumentSnapshot
from rulelens.report.words import plural, unread_lines
from rulelens.rules.model import RuleFile

SOURCE = "rulelens"
RULES_CODE = "rules-apply"
MAX_LISTED = 20
_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}


def register(server: Session) -> None:
    server.rules_changed.subscribe(lambda roots, skip: republish(server, roots, skip))
    server.findings_ready.append(lambda root: republish_rules(server, root))

    def prepare(root: Root, rule: RuleFile) -> None:
        """Each rule file's pieces ahead, and its part of a diagnostic for each of its globs
        alone (most paths match one glob of a rule file: otherwise each open would be the first
        to format most of its rule files' parts)."""
        pieces = _pieces(server, root, rule, str(server.codec.encoding))
        for item in rule.lenient_paths:
            _said(pieces, rule, [item])

    server.warmup.per_rule.append(prepare)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded()
    def did_open(ls: Session, params: types.DidOpenTextDocumentParams) -> None:
        ls.opened(params.text_document.uri)
        ls.poll(skip=params.text_document.uri)
        target = publish(ls, params.text_document.uri)
        if target is not None:
            ls.warmup.start(target.root)  # after the answer, in the loop's idle turns

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded()
    def did_change(ls: Session, params: types.DidChangeTextDocumentParams) -> None:
        target = ls.target(params.text_document.uri)
        if target is not None and target.kind != "source":
            publish(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded()
    def did_close(ls: Session, params: types.DidCloseTextDocumentParams) -> None:
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=params.text_document.uri, diagnostics=[]))


def compute(server: Session, target: DocumentSnapshot) -> list[types.Diagnostic]:
    """The diagnostics of a rule file, an agent's file or the index, as the core checks the
    document by its kind (a source file's are sent as JSON text: `rules_json`)."""
    checked = check_document(target)
    return to_diagnostics(server, checked, target) if checked is not None else []


def publish(server: Session, uri: str) -> DocumentSnapshot | None:
    """Publish (or clear) the diagnostics of one open document; the document's snapshot."""
    target = server.target(uri)
    version = target.version if target is not None else server.buffers.version(uri)
    if target is not None and target.kind == "source":
        said = f',"version":{int(version)}' if version is not None else ""
        protocol = server.protocol
        assert isinstance(protocol, RulelensProtocol)
        protocol.notify_json(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
                             f'{{"uri":{json.dumps(uri)},'
                             f'"diagnostics":{rules_json(server, target)}{said}}}')
        return target
    diagnostics = compute(server, target) if target is not None else []
    server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
        uri=uri, diagnostics=diagnostics, version=version))
    return target


def republish(server: Session, roots: Sequence[Root], skip: str | None = None) -> None:
    """Republish the open documents under `roots` (all but `skip`), and clear those now outside
    every root (a folder or rules folder went away)."""
    paths = {r.path for r in roots}
    for uri in server.open_uris():
        if uri == skip:
            continue
        target = server.target(uri)
        if target is None or target.root.path in paths:
            publish(server, uri)


# -- source files -------------------------------------------------------------------------
# A source file's one diagnostic names every rule file that applies, each with where its heading
# and entries are: at 10,000 globs a dozen rule files and 10 KB of JSON per file opened. The
# pieces that depend only on the rule file are JSON text kept per rule file, and the diagnostic is
# joined from them: converting the same objects with cattrs and encoding them again, on every
# open, cost more than finding the rule files.
_START_OF_FILE = '{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}'


def rules_json(server: Session, target: DocumentSnapshot) -> str:
    """The source file's diagnostics as a JSON array: the one that lists the rule files that
    apply (a zero-width range at 0:0: visible in the gutter and the problems list, never a
    squiggle), or none."""
    severity = target.settings.lsp_severity
    if severity is None:
        return "[]"
    matches = target.root.repo.rules_for(target.rel)
    unread = unread_lines(target.root.repo.unread())
    if not matches:
        if not unread:
            return "[]"
        message = "\n".join(f"{line}." for line in unread)
        return (f'[{{"range":{_START_OF_FILE},"message":{_text(message)},'
                f'"severity":{int(severity)},"code":"{RULES_CODE}","source":"{SOURCE}"}}]')
    encoding = str(server.codec.encoding)
    root = target.root
    kept = _kept(root, encoding)  # once for every match
    lines: list[str] = []
    related: list[str] = []
    entries = 0
    for n, m in enumerate(matches):  # the rule file's pieces, then its part for these globs: kept
        rule = m.rule
        # What `_pieces` and `_said` return when they kept it, looked up here: at 10,000 globs
        # a path meets a dozen rule files, and two calls for each cost more than the lookups.
        found = kept.get(id(rule))
        pieces = found[1] if found is not None and found[0] is rule else _pieces(
            server, root, rule, encoding, kept)
        said = pieces.said.get(tuple(m.globs)) or _said(pieces, rule, m.globs)
        if n:
            related.append(",")
        related.append(said.related)
        related.append(pieces.entries)
        entries += pieces.entry_count
        if n < MAX_LISTED:
            lines.append(said.line)
            if not m.agents_see:
                lines.append(f"  {unseen_line(m)}")
    if len(matches) > MAX_LISTED:
        lines.append(f"• …and {len(matches) - MAX_LISTED} more rule files")
    verb = "applies" if entries == 1 else "apply"
    head = (f"{plural(entries, 'project rule')} from {plural(len(matches), 'rule file')} "
            f"{verb} to this file:\n")
    lines.extend(f"{line}." for line in unread)
    return (f'[{{"range":{_START_OF_FILE},"message":{_text(head + chr(10).join(lines))},'
            f'"severity":{int(severity)},"code":"{RULES_CODE}","source":"{SOURCE}",'
            f'"relatedInformation":[{"".join(related)}]}}]')


_text = encode_basestring_ascii  # a JSON string, as `json.dumps` writes it (C, no encoder set-up)


def _joined(globs: list[str]) -> str:
    return ", ".join(globs)


class Pieces(NamedTuple):
    """What a source file's diagnostic says of one rule file, the same for every source file it
    applies to: its heading's related information as JSON up to its message
    (`{"location":…,"message":`), its entries' related information as JSON, each after a comma,
    and the summary's titles; `said` keeps, per tuple of the file's globs that matched, what
    `_said` made of them."""

    head: str
    entries: str
    titles: str
    entry_count: int
    said: dict[tuple[str, ...], Said]


class Said(NamedTuple):
    """A rule file's part of a source file's diagnostic, for one set of its globs that matched:
    its heading's related information as JSON (its entries' follow it: `Pieces.entries`, kept
    once per rule file) and its line of the message. A rule file's globs match many paths the
    same way (`pkg/mod/**` every file of the folder): this is made once for them all."""

    related: str
    line: str


_SAID_MOST = 256  # sets of matching globs kept per rule file


def _said(pieces: Pieces, rule: RuleFile, globs: list[str]) -> Said:
    """The rule file's part of the diagnostic when `globs` matched, kept in `pieces`."""
    found = pieces.said.get(tuple(globs))
    if found is not None:
        return found
    joined = _joined(globs)
    said = Said(f"{pieces.head}{_text(f'{rule.rel} applies through {joined}')}}}",
                f"• {rule.rel} ({joined}): {pieces.titles}")
    if len(pieces.said) >= _SAID_MOST:
        pieces.said.clear()
    pieces.said[tuple(globs)] = said
    return said


_PIECES_MOST = 4096  # rule files kept per root and encoding


def _kept(root: Root, encoding: str) -> dict[int, tuple[RuleFile, Pieces]]:
    """The root's `Pieces` for one position encoding, by the id of the rule file as read (the
    file itself kept beside them: an id is reused once its file is gone). The root owns them,
    so they live and die with its session; this feature keeps nothing of its own."""
    kept: dict[int, tuple[RuleFile, Pieces]] = root.rendered.setdefault(encoding, {})
    return kept


def _pieces(server: Session, root: Root, rule: RuleFile, encoding: str,
            kept: dict[int, tuple[RuleFile, Pieces]] | None = None) -> Pieces:
    """A rule file's `Pieces`, kept per rule file as read and position encoding (`kept`: the
    root's and encoding's, when the caller has looked them up already)."""
    if kept is None:
        kept = _kept(root, encoding)
    found = kept.get(id(rule))
    if found is not None and found[0] is rule:
        return found[1]
    codec = server.codec
    lines = lines_of(rule.text)
    head_line = rule.heading_line if rule.heading_line is not None else 0
    name = rule.heading or rule.stem
    uri = _text(root.uri_of(rule.rel))
    entries = "".join(
        f',{{"location":{_location(uri, whole_line(codec, lines, entry.line))},'
        f'"message":{_text(f"{name}: {entry.title}")}}}'
        for entry in rule.entries)
    pieces = Pieces(f'{{"location":{_location(uri, whole_line(codec, lines, head_line))},"message":',
                    entries, "; ".join(e.title for e in rule.entries) or "no entries",
                    len(rule.entries), {})
    if len(kept) >= _PIECES_MOST:
        kept.clear()
    kept[id(rule)] = (rule, pieces)
    return pieces


def _location(uri: str, where: types.Range) -> str:
    """A Location as JSON, its URI already JSON text."""
    start, end = where.start, where.end
    return (f'{{"uri":{uri},"range":{{"start":{{"line":{start.line},"character":{start.character}}},'
            f'"end":{{"line":{end.line},"character":{end.character}}}}}}}')


# -- rule files and the index -----------------------------------------------------------
def republish_rules(server: Session, root: Root) -> None:
    """Republish the open rule files of `root` (their staleness findings are ready)."""
    for uri in server.open_uris():
        target = server.target(uri)
        if target is not None and target.kind == "rule" and target.root is root:
            publish(server, uri)


def to_diagnostics(server: Session, checked: DocumentCheck,
                   target: DocumentSnapshot) -> list[types.Diagnostic]:
    """The core's findings for the document, as the protocol's diagnostics; a broken
    configuration is shown once (the core kept the findings at their own severities)."""
    _say_config_error(server, target, checked.config_error)
    lines = lines_of(checked.text)
    out = []
    for p in checked.problems:
        rng = span(server.codec, lines, p.line, p.col, p.end_col)
        out.append(types.Diagnostic(
            range=rng, message=p.message, severity=_SEVERITY[p.severity], code=p.code,
            source=SOURCE, data=mention_data(p, lines),
        ))
    return out


def _say_config_error(server: Session, target: DocumentSnapshot, error: str | None) -> None:
    if error is not None and target.root.config_error != error:
        server.window_show_message(types.ShowMessageParams(
            type=types.MessageType.Warning, message=f"rulelens: {error}"))
    target.root.config_error = error
