"""Diagnostics: the rules that apply to a source file; check's findings in rule files and the index.

Published on open (and, for rule files and the index, as the person types), and republished for
every open document of a root whose rules changed.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from rulelens.agents.codes import known_codes
from rulelens.lsp.session import Session
from rulelens.lsp.views import agent_files
from rulelens.lsp.views.unseen import unseen_line
from rulelens.lsp.wire.guard import guarded
from rulelens.lsp.wire.payloads import mention_data
from rulelens.lsp.wire.positions import lines_of, span, start_of_file, whole_line
from rulelens.lsp.workspace.documents import live_rule, text_for
from rulelens.lsp.workspace.roots import Root, Target
from rulelens.report.words import plural
from rulelens.rules.check.config import FILES as CONFIG_FILES
from rulelens.rules.check.config import Config, ConfigError, configured, load_config
from rulelens.rules.model import Match, Problem, RuleFile

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

    def prepare(root: Root, rule: RuleFile) -> None:  # the places of each rule file, ahead
        _places(server, root, rule)

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

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    @guarded()
    def did_save(ls: Session, params: types.DidSaveTextDocumentParams) -> None:
        target = ls.target(params.text_document.uri)
        if target is not None and target.kind == "agent":
            target.root.forget_agents()  # other files' "In other agents" may change with it
            ls.rules_changed([target.root])
        elif target is not None and (target.rel in CONFIG_FILES  # the findings' configuration
                                     or (target.kind != "source" and target.root.repo.refresh())):
            ls.rules_changed([target.root])

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded()
    def did_close(ls: Session, params: types.DidCloseTextDocumentParams) -> None:
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=params.text_document.uri, diagnostics=[]))


def compute(server: Session, target: Target) -> list[types.Diagnostic]:
    if target.kind == "source":
        return rules_diagnostic(server, target)
    if target.kind == "rule":
        return rule_file_diagnostics(server, target)
    if target.kind == "agent":
        text, problems = agent_files.problems(server, target)
        return to_diagnostics(server, text, problems, target)
    return index_diagnostics(server, target)


def publish(server: Session, uri: str) -> Target | None:
    """Publish (or clear) the diagnostics of one open document; the document's target."""
    target = server.target(uri)
    diagnostics = compute(server, target) if target is not None else []
    doc = server.workspace.text_documents.get(uri)
    server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
        uri=doc.uri if doc is not None else uri,
        diagnostics=diagnostics,
        version=doc.version if doc is not None else None,
    ))
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
def rules_diagnostic(server: Session, target: Target) -> list[types.Diagnostic]:
    severity = server.settings_for(target.root).lsp_severity
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
    head = (f"{plural(entries, 'project rule')} from {plural(len(matches), 'rule file')} "
            f"{verb} to this file:")
    lines = [head]
    for m in matches[:MAX_LISTED]:
        titles = "; ".join(e.title for e in m.rule.entries) or "no entries"
        lines.append(f"• {m.rule.rel} ({', '.join(m.globs)}): {titles}")
        unseen = unseen_line(m)
        if unseen:
            lines.append(f"  {unseen}")
    if len(matches) > MAX_LISTED:
        lines.append(f"• …and {len(matches) - MAX_LISTED} more rule files")
    return "\n".join(lines)


def related(server: Session, target: Target,
            matches: list[Match]) -> list[types.DiagnosticRelatedInformation]:
    out = []
    for m in matches:
        head, entries = _places(server, target.root, m.rule)
        out.append(types.DiagnosticRelatedInformation(
            location=head, message=f"{m.rule.rel} applies through {', '.join(m.globs)}"))
        out.extend(entries)
    return out


Places = tuple[types.Location, list[types.DiagnosticRelatedInformation]]
_PLACES: dict[tuple[int, str, str], tuple[RuleFile, Places]] = {}


def _places(server: Session, root: Root, rule: RuleFile) -> Places:
    """Where a rule file's heading is, and its entries' related information: the same for every
    source file it applies to, so kept per rule file as read (a file opened at 10,000 globs is
    listed beside a dozen rule files). Shared, never changed: they are only serialised, each
    once (wire/frozen.py)."""
    key = (id(rule), root.uri, str(server.codec.encoding))
    kept = _PLACES.get(key)
    if kept is not None and kept[0] is rule:
        return kept[1]
    codec = server.codec
    lines = lines_of(rule.text)
    head_line = rule.heading_line if rule.heading_line is not None else 0
    name = rule.heading or rule.stem
    uri = root.uri_of(rule.rel)
    places = (types.Location(uri=uri, range=whole_line(codec, lines, head_line)),
              [types.DiagnosticRelatedInformation(
                  location=types.Location(uri=uri, range=whole_line(codec, lines, entry.line)),
                  message=f"{name}: {entry.title}") for entry in rule.entries])
    server.frozen.keep(places[0])
    for info in places[1]:
        server.frozen.keep(info)
    if len(_PLACES) >= 4096:
        _PLACES.clear()
    _PLACES[key] = (rule, places)
    return places


# -- rule files and the index -----------------------------------------------------------
def rule_file_diagnostics(server: Session, target: Target) -> list[types.Diagnostic]:
    rule = live_rule(server, target)
    if rule is None:
        return []
    # No `rule-drift` here: it reads git history, and a checkout storm would make an idle server
    # re-read it on every file-list refresh (tests/reliability/test_storm.py); `check` has it.
    # Staleness comes from a worker thread: published again when ready (workspace/stale_findings.py).
    from rulelens.rules.check.lint import check_file  # see index_diagnostics

    files = target.root.files(server.files_ttl)
    problems = check_file(rule, files, drift_after=0, staleness=False)
    read_only = server.settings_for(target.root).read_only
    problems += server.stale_findings.get(target.root, rule, files, keep_caches=not read_only)
    return to_diagnostics(server, text_for(server, target), problems, target)


def republish_rules(server: Session, root: Root) -> None:
    """Republish the open rule files of `root` (their staleness findings are ready)."""
    for uri in server.open_uris():
        target = server.target(uri)
        if target is not None and target.kind == "rule" and target.root is root:
            publish(server, uri)


def index_diagnostics(server: Session, target: Target) -> list[types.Diagnostic]:
    repo = target.root.repo
    text = server.text_of(target.uri)
    # The checks (and the staleness search and Markdown parser they import) are imported when a
    # rule file or the index is first shown: a source file's diagnostics never need them, and
    # the first document of a session is usually a source file.
    from rulelens.rules.check.lint import check_index

    current = text if text is not None else repo.current_index()
    problems = check_index(target.rel, current, repo.index_text())
    return to_diagnostics(server, current or "", problems, target)


def to_diagnostics(server: Session, text: str, problems: list[Problem],
                   target: Target) -> list[types.Diagnostic]:
    rel = target.rel
    lines = lines_of(text)
    out = []
    for p in _configured(server, target, text, problems):
        if p.file != rel:
            continue
        rng = span(server.codec, lines, p.line, p.col, p.end_col)
        out.append(types.Diagnostic(
            range=rng, message=p.message, severity=_SEVERITY[p.severity], code=p.code,
            source=SOURCE, data=mention_data(p, lines),
        ))
    return out


def _configured(server: Session, target: Target, text: str,
                problems: list[Problem]) -> list[Problem]:
    """The project's configuration and the inline directives (of the text as typed) applied,
    as `check` applies them; a broken configuration is shown once and leaves the findings."""
    mine = [p for p in problems if p.file == target.rel]
    try:
        config = load_config(target.root.path, known_codes())
    except ConfigError as exc:
        if target.root.config_error != str(exc):
            target.root.config_error = str(exc)
            server.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Warning, message=f"rulelens: {exc}"))
        config = Config()
    else:
        target.root.config_error = None
    return configured(mine, config, lambda rel: text if rel == target.rel else None)
