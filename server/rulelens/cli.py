"""`rulelens` on the command line: a thin front over the rules core (SPEC §6)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from rulelens import __version__
from rulelens.rules.filelist import FileList
from rulelens.rules.model import Problem, RuleError
from rulelens.rules.repository import RuleRepository
from rulelens.rules.root import find_root

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line on stderr with exit 2, never a traceback."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"rulelens: {message} (see `rulelens --help`)\n")
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rulelens", description="Project rules (.ai/rules) for people and agents.")
    parser.add_argument("--root", type=Path, help="project root (default: nearest with .ai/rules)")
    parser.add_argument("--version", action="version", version=f"rulelens {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    rec = sub.add_parser("record", help="record a rule for a glob, Boost-compatibly")
    rec.add_argument("--glob", required=True)
    rec.add_argument("--title", required=True)
    rec.add_argument("--note", required=True)

    idx = sub.add_parser("index", help="regenerate .ai/rules/index.md")
    idx.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")

    match = sub.add_parser("match", help="show the rules that apply to paths")
    match.add_argument("paths", nargs="+", metavar="PATH")
    match.add_argument("--json", action="store_true")

    chk = sub.add_parser("check", help="lint rule files against the project's files")
    chk.add_argument("--json", action="store_true")

    init = sub.add_parser("init", help="point AGENTS.md (and CLAUDE.md) at the rules")
    init.add_argument("--mcp", action="store_true", help="also register rulelens in .mcp.json")

    serve = sub.add_parser("serve", help="run the language server (stdio by default)")
    serve.add_argument("--tcp", action="store_true")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=2087)
    serve.add_argument("--stdio", action="store_true", help=argparse.SUPPRESS)

    sub.add_parser("mcp", help="run the MCP server on stdio")
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
        return _dispatch(args)
    except RuleError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": "))
    except KeyboardInterrupt:
        return 130


def _fail(message: str) -> int:
    sys.stderr.write(f"rulelens: {' '.join(message.split())}\n")
    return EXIT_USAGE


def _dispatch(args: argparse.Namespace) -> int:
    explicit: Path | None = args.root
    if explicit is not None and not explicit.is_dir():
        raise RuleError(f"--root {explicit} is not a folder.")
    if args.command == "serve":
        from rulelens.lsp.main import serve

        return serve(explicit, args.tcp, args.host, args.port)
    if args.command == "mcp":
        from rulelens.mcp import main as mcp_main

        return mcp_main(explicit)
    root = find_root(Path.cwd(), explicit)
    repo = RuleRepository(root)
    if args.command == "record":
        print(repo.record(args.glob, args.title, args.note).message)
        return EXIT_OK
    if args.command == "index":
        return _index(repo, args.check)
    if args.command == "match":
        return _match(repo, args.paths, args.json)
    if args.command == "check":
        return _check(repo, args.json)
    if args.command == "init":
        from rulelens.rules.init_project import init_project

        for line in init_project(root, args.mcp):
            print(line)
        return EXIT_OK
    raise RuleError(f"unknown command {args.command}")  # pragma: no cover - argparse guards


def _index(repo: RuleRepository, check_only: bool) -> int:
    rel = f"{repo.rules_dir}/index.md"
    if check_only:
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


def _match(repo: RuleRepository, paths: list[str], as_json: bool) -> int:
    out = []
    for raw in paths:
        candidate = Path(raw)
        rel = repo.rel(candidate if candidate.is_absolute() else Path.cwd() / candidate)
        if rel is None and not candidate.is_absolute():
            rel = repo.rel(repo.root / candidate)
        if rel is None:
            raise RuleError(f"{raw} is outside the project root {repo.root}.")
        out.append({
            "path": rel,
            "rules": [
                {
                    "file": m.rule.rel,
                    "title": m.rule.heading,
                    "globs": m.globs,
                    "matched": m.matched,
                    "agents_see": m.agents_see,
                    "agents_miss_because": m.agents_miss_because,
                    "entries": [{"title": e.title, "line": e.line + 1} for e in m.rule.entries],
                }
                for m in repo.rules_for(rel)
            ],
        })
    if as_json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return EXIT_OK
    for rel in [str(item["path"]) for item in out]:
        _print_matches(repo, rel)
    return EXIT_OK


def _print_matches(repo: RuleRepository, rel: str) -> None:
    matches = repo.rules_for(rel)
    count = "1 rule file applies" if len(matches) == 1 else f"{len(matches)} rule files apply"
    unseen = sum(not m.agents_see for m in matches)
    if unseen:
        count += f" ({unseen} of them not seen by agents)" if len(matches) > 1 else " (not seen by agents)"
    print(f"{rel}: {count}")
    for m in matches:
        print(f"\n  {m.rule.rel}  (matched by {', '.join(m.matched or m.globs)})")
        if not m.agents_see:
            print(f"    agents do not see this file: {m.agents_miss_because}")
        for e in m.rule.entries:
            print(f"    ## {e.title}  [{m.rule.rel}:{e.line + 1}]")
            for line in e.note.splitlines():
                print(f"       {line}")


def _check(repo: RuleRepository, as_json: bool) -> int:
    problems = repo.check(FileList.for_root(repo.root))
    failing = [p for p in problems if p.severity in ("error", "warning")]
    if as_json:
        print(json.dumps([p.to_json() for p in problems], indent=2, ensure_ascii=False))
    else:
        for p in problems:
            print(_format(p))
        errors = sum(p.severity == "error" for p in problems)
        print(f"{len(repo.files)} rule files checked: {errors} errors, "
              f"{len(failing) - errors} warnings, {len(problems) - len(failing)} hints.")
    return EXIT_PROBLEMS if failing else EXIT_OK


def _format(p: Problem) -> str:
    return f"{p.file}:{p.line + 1}:{p.col + 1}: {p.severity} [{p.code}] {p.message}"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
