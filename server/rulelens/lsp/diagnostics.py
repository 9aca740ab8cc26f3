"""Diagnostics: the rules that apply to a source file; check's findings in rule files and the index."""

from __future__ import annotations

from lsprotocol import types

from rulelens.lsp.context import RulelensServer
from rulelens.lsp.documents import live_rule, text_for
from rulelens.lsp.positions import lines_of, span, start_of_file, whole_line
from rulelens.lsp.workspace import Target
from rulelens.rules.check import check_file, check_index
from rulelens.rules.model import Match, Problem

SOURCE = "rulelens"
RULES_CODE = "rules-apply"
MAX_LISTED = 20
_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}


def compute(server: RulelensServer, target: Target) -> list[types.Diagnostic]:
    if target.kind == "source":
        return rules_diagnostic(server, target)
    if target.kind == "rule":
        return rule_file_diagnostics(server, target)
    return index_diagnostics(server, target)


def publish(server: RulelensServer, uri: str) -> None:
    """Publish (or clear) the diagnostics of one open document."""
    target = server.target(uri)
    diagnostics = compute(server, target) if target is not None else []
    doc = server.workspace.text_documents.get(uri)
    server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
        uri=doc.uri if doc is not None else uri,
        diagnostics=diagnostics,
        version=doc.version if doc is not None else None,
    ))


def publish_all(server: RulelensServer) -> None:
    for uri in server.open_uris():
        publish(server, uri)


# -- source files -------------------------------------------------------------------------
def rules_diagnostic(server: RulelensServer, target: Target) -> list[types.Diagnostic]:
    severity = server.settings.lsp_severity
    if severity is None:
        return []
    matches = target.root.repo.rules_for(target.rel)
    if not matches:
        return []
    return [types.Diagnostic(
        range=start_of_file(),
        message=summary(matches),
        severity=severity,
        code=RULES_CODE,
        source=SOURCE,
        related_information=related(server, target, matches),
    )]


def summary(matches: list[Match]) -> str:
    """One line per rule file: where it is, what matched, and its entry titles."""
    entries = sum(len(m.rule.entries) for m in matches)
    verb = "applies" if entries == 1 else "apply"
    head = (f"{_plural(entries, 'project rule')} from {_plural(len(matches), 'rule file')} "
            f"{verb} to this file:")
    lines = [head]
    for m in matches[:MAX_LISTED]:
        titles = "; ".join(e.title for e in m.rule.entries) or "no entries"
        lines.append(f"• {m.rule.rel} ({', '.join(m.globs)}): {titles}")
    if len(matches) > MAX_LISTED:
        lines.append(f"• …and {len(matches) - MAX_LISTED} more rule files")
    return "\n".join(lines)


def related(server: RulelensServer, target: Target,
            matches: list[Match]) -> list[types.DiagnosticRelatedInformation]:
    out = []
    codec = server.codec
    for m in matches:
        rule = m.rule
        uri = target.root.uri_of(rule.rel)
        lines = lines_of(rule.text)
        head_line = rule.heading_line if rule.heading_line is not None else 0
        out.append(types.DiagnosticRelatedInformation(
            location=types.Location(uri=uri, range=whole_line(codec, lines, head_line)),
            message=f"{rule.rel} applies through {', '.join(m.globs)}",
        ))
        name = rule.heading or rule.stem
        for entry in rule.entries:
            out.append(types.DiagnosticRelatedInformation(
                location=types.Location(uri=uri, range=whole_line(codec, lines, entry.line)),
                message=f"{name}: {entry.title}",
            ))
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# -- rule files and the index -----------------------------------------------------------
def rule_file_diagnostics(server: RulelensServer, target: Target) -> list[types.Diagnostic]:
    rule = live_rule(server, target)
    if rule is None:
        return []
    problems = check_file(rule, target.root.files(server.files_ttl))
    return to_diagnostics(server, text_for(server, target), problems, target.rel)


def index_diagnostics(server: RulelensServer, target: Target) -> list[types.Diagnostic]:
    repo = target.root.repo
    text = server.text_of(target.uri)
    current = text if text is not None else repo.current_index()
    problems = check_index(target.rel, current, repo.index_text())
    return to_diagnostics(server, current or "", problems, target.rel)


def to_diagnostics(server: RulelensServer, text: str, problems: list[Problem],
                   rel: str) -> list[types.Diagnostic]:
    lines = lines_of(text)
    out = []
    for p in problems:
        if p.file != rel:
            continue
        rng = span(server.codec, lines, p.line, p.col, p.end_col)
        out.append(types.Diagnostic(
            range=rng, message=p.message, severity=_SEVERITY[p.severity], code=p.code,
            source=SOURCE,
        ))
    return out
