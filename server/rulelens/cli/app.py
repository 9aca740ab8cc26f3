"""`rulelens` on the command line: a thin front over the rules core (README, "Command line")."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulelens import __version__
from rulelens.rules.check.stale.drift import DRIFT_AFTER
from rulelens.rules.check.stale.search_cache import start_snapshot
from rulelens.rules.model import Match, Problem, RuleError
from rulelens.rules.project.filelist import FileList
from rulelens.rules.project.root import find_root, writable
from rulelens.rules.repository import RuleRepository

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
CHECK_FORMATS = ("text", "json", "sarif", "github")
REVIEW_FORMATS = ("text", "json", "markdown", "github")


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line on stderr with exit 2, never a traceback."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"rulelens: {message} (see `rulelens --help`)\n")
        raise SystemExit(EXIT_USAGE)


_EPILOG = """examples:
  rulelens match app/Models/Invoice.php
  rulelens record --glob 'app/Models/**' --title 'Money is integer cents' --note 'Never floats.'
  rulelens index --check && rulelens check      (in CI)

exit codes: 0 ok, 1 problems found (check, index --check), 2 usage or input error"""


def _global_options(parser: argparse.ArgumentParser, top: bool) -> None:
    """`--root` works before or after the subcommand, as git's and ruff's global options do."""
    default = None if top else argparse.SUPPRESS
    parser.add_argument("--root", type=Path, default=default, metavar="DIR",
                        help="project root (default: the nearest folder upwards with .ai/rules, "
                             "else with .git, else the current folder)")


def _sub(sub: Any, name: str, summary: str, example: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(name, help=summary, description=f"{summary}.",
                            epilog=f"example:\n  {example}",
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    _global_options(parser, top=False)
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rulelens", description="See and record the project rules (.ai/rules) "
                     "that AI coding agents read.", epilog=_EPILOG,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    _global_options(parser, top=True)
    parser.add_argument("--version", action="version", version=f"rulelens {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")

    rec = _sub(sub, "record", "record a rule for a glob, as Laravel Boost does, and rebuild the index",
               "rulelens record --glob 'app/Models/**' --title 'Money is integer cents' "
               "--note 'Store amounts in *_cents columns.'")
    rec.add_argument("--glob", required=True, help="the files the rule is for, relative to the root "
                     "(for example 'app/Models/**'); required")
    rec.add_argument("--title", required=True, help="the entry's title, one line; required")
    rec.add_argument("--note", required=True, help="the entry's text; line breaks are kept; required")

    idx = _sub(sub, "index", "regenerate .ai/rules/index.md from the rule files", "rulelens index --check")
    idx.add_argument("--check", action="store_true",
                     help="write nothing; exit 1 if the index is missing or stale (default: off)")

    match = _sub(sub, "match", "show the rules that apply to paths, and whether agents see them",
                 "rulelens match app/Models/Invoice.php routes/web.php")
    match.add_argument("paths", nargs="+", metavar="PATH",
                       help="files or folders: root-relative, relative to the current folder, or absolute")
    match.add_argument("--json", action="store_true", help="print JSON instead of text (default: off)")
    match.add_argument("--agents", action="store_true",
                       help="also show what every agent (Boost, Claude Code, Copilot, Cursor, Windsurf, "
                            "Kiro, Continue, Cline, Codex) loads for each file (default: off)")

    chk = _sub(sub, "check", "lint the rule files and the index against the project's files",
               "rulelens check --format sarif > rulelens.sarif")
    chk.add_argument("--format", choices=CHECK_FORMATS, default=None,
                     help="text, json, sarif (SARIF 2.1.0, for code scanning) or github (Actions "
                          "annotations) (default: text)")
    chk.add_argument("--json", action="store_true", help="the same as --format json (default: off)")
    chk.add_argument("--drift-after", type=int, default=DRIFT_AFTER, metavar="N",
                     help="hint `rule-drift` when a rule file's globs changed in N commits since the "
                          f"rule file did; 0 turns it off (default: {DRIFT_AFTER})")

    rev = _sub(sub, "review", "show the rules that apply to what a branch changed since REF",
               "rulelens review --base origin/main --format markdown")
    rev.add_argument("--base", required=True, metavar="REF",
                     help="the branch or commit the change is compared with (git diff REF...HEAD); required")
    rev.add_argument("--format", choices=REVIEW_FORMATS, default=None,
                     help="text, json, markdown (a pull request comment) or github (Actions "
                          "annotations) (default: text)")
    rev.add_argument("--json", action="store_true", help="the same as --format json (default: off)")

    init = _sub(sub, "init", "point AGENTS.md (and CLAUDE.md) at the rules", "rulelens init --mcp")
    init.add_argument("--mcp", action="store_true",
                      help="also register `rulelens mcp` in .mcp.json (default: off)")
    init.add_argument("--claude", action="store_true",
                      help="also write the Claude Code project plugin .claude/skills/rulelens "
                           "(rulelens serve and rulelens mcp) (default: off)")

    serve = _sub(sub, "serve", "run the language server (stdio by default)",
                 "rulelens serve --tcp --port 2087")
    serve.add_argument("--tcp", action="store_true", help="listen on TCP instead of stdio (default: off)")
    serve.add_argument("--host", default=None, help="TCP address, with --tcp (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=None, help="TCP port, with --tcp (default: 2087)")
    serve.add_argument("--stdio", action="store_true", help=argparse.SUPPRESS)

    _sub(sub, "mcp", "run the MCP server on stdio, for agents", "rulelens mcp")
    return parser


_VALUE_OPTIONS = ("--glob", "--title", "--note")


def _attach_values(argv: Sequence[str]) -> list[str]:
    """`--title ---` as `--title=---`: argparse takes a value starting with `-` for an option."""
    out: list[str] = []
    args = iter(argv)
    for arg in args:
        value = next(args, None) if arg in _VALUE_OPTIONS else None
        out.append(arg if value is None else f"{arg}={value}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(_attach_values(sys.argv[1:] if argv is None else argv))
    try:
        with warnings.catch_warnings():
            # A library's warning (pathspec's "Possible nested set") is no message for a user:
            # what is wrong with a glob is a finding with a code.
            warnings.simplefilter("ignore")
            return _dispatch(args)
    except RuleError as exc:
        return _fail(str(exc))
    except BrokenPipeError:
        return _closed_pipe()
    except OSError as exc:
        return _fail(f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": "))
    except KeyboardInterrupt:
        return 130


def _closed_pipe() -> int:
    """`rulelens match … | head -1`: the reader left; exit quietly, as other tools do."""
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return EXIT_OK


def _fail(message: str) -> int:
    sys.stderr.write(f"rulelens: {' '.join(message.split())}\n")
    return EXIT_USAGE


def _dispatch(args: argparse.Namespace) -> int:
    explicit: Path | None = args.root
    if explicit is not None and not explicit.is_dir():
        raise RuleError(f"--root {explicit} is not a folder.")
    if args.command == "serve":
        if not args.tcp and (args.host is not None or args.port is not None):
            raise RuleError("--host and --port need --tcp (see `rulelens serve --help`)")
        from rulelens.lsp.main import serve

        host, port = args.host or "127.0.0.1", 2087 if args.port is None else args.port
        if args.tcp:
            sys.stderr.write(f"rulelens: language server listening on {host}:{port}\n")
        return serve(explicit, args.tcp, host, port)
    if args.command == "mcp":
        from rulelens.mcp import main as mcp_main

        return mcp_main(explicit)
    root = find_root(Path.cwd(), explicit)
    repo = RuleRepository(root, writable=writable(root, explicit is not None))
    if args.command == "record":
        print(repo.record(args.glob, args.title, args.note).message)
        return EXIT_OK
    if args.command == "index":
        return _index(repo, args.check)
    if args.command == "match":
        if args.agents:
            from rulelens.report.agents import match_with_agents

            return match_with_agents(repo, args.paths, args.json, _match)
        return _match(repo, args.paths, args.json)
    if args.command == "check":
        return _check(repo, _chosen_format(args), args.drift_after)
    if args.command == "review":
        from rulelens.cli.review import run_review

        return run_review(repo, args.base, _chosen_format(args), _rule_json)
    if args.command == "init":
        from rulelens.setup.init_project import init_project

        for line in init_project(root, args.mcp, args.claude):
            print(line)
        return EXIT_OK
    raise RuleError(f"unknown command {args.command}")  # pragma: no cover - argparse guards


NO_RULES = "no {} folder: nothing to check."


def _index(repo: RuleRepository, check_only: bool) -> int:
    rel = f"{repo.rules_dir}/index.md"
    if check_only:
        if not repo.rules_path.exists():
            print(NO_RULES.format(repo.rules_dir))
            return EXIT_OK
        current = repo.current_index()
        if current is None:
            print(f"{rel} is missing; run `rulelens index`.")
            return EXIT_PROBLEMS
        if current != repo.index_text():
            print(f"{rel} is stale; run `rulelens index`.")
            return EXIT_PROBLEMS
        print(f"{rel} is current.")
        return EXIT_OK
    changed = repo.write_index()
    print(f"{'Wrote' if changed else 'Unchanged:'} {rel}.")
    return EXIT_OK


def _resolve(repo: RuleRepository, raw: str) -> str:
    """A PATH argument as a root-relative path; RuleError for one that names no project path."""
    if not raw.strip():
        raise RuleError("match needs a path, not an empty string.")
    candidate = Path(raw)
    rel = repo.rel(candidate if candidate.is_absolute() else Path.cwd() / candidate)
    if rel is None and not candidate.is_absolute():
        rel = repo.rel(repo.root / candidate)
    if rel is None:
        raise RuleError(f"{raw} is outside the project root {repo.root}.")
    return rel


def _rule_json(m: Match) -> dict[str, object]:
    return {
        "file": m.rule.rel,
        "title": m.rule.heading,
        "globs": m.globs,
        "matched": m.matched,
        "agents_see": m.agents_see,
        "agents_miss_because": m.agents_miss_because,
        "entries": [{"title": e.title, "line": e.line + 1} for e in m.rule.entries],
    }


def _folder_matches(repo: RuleRepository, rel: str, files: FileList) -> tuple[int, list[tuple[Match, int]]]:
    """The files below a folder, and each rule file that applies to some of them, with how many."""
    below = [f for f in files.paths if f.startswith(rel + "/")]
    found: dict[str, tuple[Match, int]] = {}
    for path in below:
        for m in repo.rules_for(path):
            first, n = found.get(m.rule.rel, (m, 0))
            found[m.rule.rel] = (first if first.agents_see or not m.agents_see else m, n + 1)
    order = {f.rel: i for i, f in enumerate(repo.files)}
    return len(below), sorted(found.values(), key=lambda pair: order[pair[0].rule.rel])


def _match(repo: RuleRepository, paths: list[str], as_json: bool) -> int:
    """Every good path's rules, one error line per bad one (exit 2 when there was any)."""
    results: list[dict[str, object]] = []
    blocks: list[str] = []
    errors: list[str] = []
    files: FileList | None = None
    for raw in paths:
        try:
            rel = _resolve(repo, raw)
        except RuleError as exc:
            errors.append(str(exc))
            continue
        if (repo.root / rel).is_dir():
            files = files or FileList.for_root(repo.root)
            count, pairs = _folder_matches(repo, rel, files)
            results.append({"path": rel, "folder": True, "files": count,
                            "rules": [{**_rule_json(m), "files": n} for m, n in pairs]})
            blocks.append(_folder_text(rel, count, pairs))
        else:
            matches = repo.rules_for(rel)
            results.append({"path": rel, "rules": [_rule_json(m) for m in matches]})
            blocks.append(_matches_text(rel, matches))
    if as_json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
    elif blocks:
        print("\n\n".join(blocks))
    for error in errors:
        _fail(error)
    return EXIT_USAGE if errors else EXIT_OK


def _applies(matches: list[Match]) -> str:
    count = "1 rule file applies" if len(matches) == 1 else f"{len(matches)} rule files apply"
    unseen = sum(not m.agents_see for m in matches)
    if unseen:
        count += f" ({unseen} of them not seen by agents)" if len(matches) > 1 else " (not seen by agents)"
    return count


def _count_line(rel: str, matches: list[Match]) -> str:
    return f"{rel}: {_applies(matches)}"


def _rule_text(m: Match, suffix: str = "") -> list[str]:
    lines = [f"\n  {m.rule.rel}  (matched by {', '.join(m.matched or m.globs)}){suffix}"]
    if not m.agents_see:
        lines.append(f"    agents do not see this file: {m.agents_miss_because}")
    for e in m.rule.entries:
        lines.append(f"    ## {e.title}  [{m.rule.rel}:{e.line + 1}]")
        lines.extend(f"       {line}" for line in e.note.splitlines())
    return lines


def _matches_text(rel: str, matches: list[Match]) -> str:
    return "\n".join([_count_line(rel, matches), *(line for m in matches for line in _rule_text(m))])


def _folder_text(rel: str, count: int, pairs: list[tuple[Match, int]]) -> str:
    files = "1 file" if count == 1 else f"{count} files"
    head = f"{rel} is a folder ({files} below it): {_applies([m for m, _ in pairs])}"
    body = [line for m, n in pairs for line in _rule_text(m, f", to {n} of them")]
    return "\n".join([head, *body])


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _chosen_format(args: argparse.Namespace) -> str:
    if args.json and args.format not in (None, "json"):
        raise RuleError(f"--json and --format {args.format} disagree; give one of them.")
    return "json" if args.json else (args.format or "text")


def _check(repo: RuleRepository, fmt: str, drift_after: int) -> int:
    from rulelens.agents.project import AgentProject
    from rulelens.agents.traps import agent_problems

    if drift_after < 0:
        raise RuleError("--drift-after needs a number of commits, 0 or more.")
    start_snapshot(repo.root, repo.rules_dir)  # git stats the files while they are listed and read
    files = FileList.for_root(repo.root)
    agents = AgentProject(repo, files)
    others = [a for a in agents.present if a.id != "boost"]
    has_rules = repo.rules_path.exists()
    if not has_rules and not others:
        if fmt == "text":
            print(NO_RULES.format(repo.rules_dir))
        elif fmt != "github":
            print(_formatted([], fmt))
        return EXIT_OK
    problems = (repo.check(files, drift_after) if has_rules else []) + agent_problems(agents)
    failing = [p for p in problems if p.severity in ("error", "warning")]
    if fmt != "text":
        print(_formatted(problems, fmt))
    else:
        for p in problems:
            print(_format(p))
        errors = sum(p.severity == "error" for p in problems)
        total = len(repo.files) + sum(len(a.files) for a in others)
        checked = "1 rule file checked" if total == 1 else f"{total} rule files checked"
        print(f"{checked}: {_plural(errors, 'error')}, {_plural(len(failing) - errors, 'warning')}, "
              f"{len(problems) - len(failing)} info.")
    return EXIT_PROBLEMS if failing else EXIT_OK


def _formatted(problems: list[Problem], fmt: str) -> str:
    if fmt == "sarif":
        from rulelens.report.sarif import to_sarif

        return json.dumps(to_sarif(problems), indent=2, ensure_ascii=False)
    if fmt == "github":
        from rulelens.report.github import problem_annotation

        return "\n".join(problem_annotation(p) for p in problems)
    return json.dumps([p.to_json() for p in problems], indent=2, ensure_ascii=False)


def _format(p: Problem) -> str:
    return f"{p.file}:{p.line + 1}:{p.col + 1}: {p.severity} [{p.code}] {p.message}"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
