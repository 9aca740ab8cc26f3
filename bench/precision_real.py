"""How many of `rulelens check`'s warnings and errors on real repositories are true, per code and agent.

Usage: python bench/precision_real.py [CHECKOUTS] [--server [LABEL=]DIR ...] [--sets FILE]
                                      [--judgements DIR] [--group GROUP ...] [--save DIR] [--load DIR]
  CHECKOUTS (or $RULELENS_CHECKOUTS): a folder of full git checkouts, one per repository, each
  named OWNER+NAME and checked out at the commit its judgements were made on: the commit in
  bench/judgements/sets.json, or for the first corpus a folder's meta.json ({"repo", "commit"}):
      git clone https://github.com/OWNER/NAME CHECKOUTS/OWNER+NAME
      git -C CHECKOUTS/OWNER+NAME checkout --detach COMMIT
  (some commits are only on a branch: fetch it first).

Each repository is in a group: its `set` in sets.json (`tuned`, or `set-aside`: judged only after
the changes, so never used to tune them; `--sets bench/e2e/repos.json` adds `new`, the 25
repositories first seen in the end-to-end runs); a checkout not listed there but with judgements is in
`corpus` (the repositories the trust work was tuned on). For each `--server` (a server/ folder;
`--server before=/tmp/before/server --server after=server` prints the code before a change and
after it, one after the other; default: this checkout's) it runs `python -m rulelens check
--format json` on every checkout, matches every finding with bench/judgements/OWNER+NAME.json
(file, line, code and, where one line holds several findings of a code, `about`: a text the
message contains; each with a verdict, true / false / unclear, and a one-line reason), and prints
per group two tables of the warnings and errors, per code and per agent (the agent a code
belongs to, or for a code every agent shares, the agent whose file it is about): how many are
judged true, false or unclear and the precision (true over true or false). `true, demoted` counts
findings judged true that an earlier `--server` reported as a warning or error and this one reports
below warning (a true finding demoted); under the tables, those it no longer reports at all.
Findings without a judgement are listed: judge them by hand against the repository's text and
history before trusting the tables. `--save DIR` keeps each run's JSON (DIR/LABEL/OWNER+NAME.json);
`--load DIR` reads such files instead of running `check`. It prints figures only; nothing here
asserts.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
SERVER = HERE.parent / "server"
GROUPS = ("corpus", "tuned", "set-aside", "new")
SHOWN = ("warning", "error")

# A code's agent by its prefix (docs/agents.md); Boost's format's codes have none.
PREFIXES = (("claude-", "claude-code"), ("copilot-cli-", "copilot-cli"), ("copilot-", "copilot"),
            ("cursor-", "cursor"), ("windsurf-", "windsurf"), ("kiro-", "kiro"),
            ("continue-", "continue"), ("cline-", "cline"), ("codex-", "codex"), ("gemini-", "gemini-cli"))
SHARED = ("agent-", "agents-")
# For a code every agent shares: the agent whose file the finding is on, by the file's place.
PLACES = ((".rulesync/", "rulesync source"), (".ruler/", "ruler source"),
          (".ai/rules/", "boost"), (".claude/", "claude-code"), ("CLAUDE.md", "claude-code"),
          (".github/instructions/", "copilot"), (".github/copilot-instructions.md", "copilot"),
          (".cursor/", "cursor"), (".windsurf/", "windsurf"), (".devin/", "windsurf"), (".kiro/", "kiro"),
          (".continue/", "continue"),
          (".clinerules", "cline"), (".gemini/", "gemini-cli"), ("GEMINI.md", "gemini-cli"),
          (".agent/", "antigravity"), (".agents/rules/", "antigravity"), (".agents/", "codex"),
          ("AGENTS.md", "codex"))


def agent_of(finding: dict[str, object]) -> str:
    code = str(finding["code"])
    for prefix, agent in PREFIXES:
        if code.startswith(prefix):
            return agent
    if not code.startswith(SHARED):
        return "boost"
    path = f"/{finding['file']}"
    for place, agent in PLACES:
        if f"/{place}" in path:  # a folder or file name anywhere: nested AGENTS.md, packages/x/.cursor/
            return agent
    return "other"


def run_check(checkout: Path, server: Path = SERVER) -> list[dict[str, object]]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(server), os.environ.get("PYTHONPATH", "")]),
           "RULELENS_NO_CACHE": "1"}
    out = subprocess.run([sys.executable, "-m", "rulelens", "--root", str(checkout), "check", "--format",
                          "json"], capture_output=True, text=True, check=False, env=env)
    try:
        found = json.loads(out.stdout)
    except ValueError:
        sys.stderr.write(f"{checkout.name}: check printed no JSON (exit {out.returncode}): "
                         f"{out.stderr.strip()[-300:]}\n")
        return []
    return found if isinstance(found, list) else []


def verdict_of(finding: dict[str, object], judged: list[dict[str, object]]) -> dict[str, object] | None:
    """The judgement of a finding: same file, line and code, and `about` in its message if given."""
    for j in judged:
        if (j["file"], j["line"], j["code"]) == (finding["file"], finding["line"], finding["code"]) and (
                "about" not in j or str(j["about"]) in str(finding["message"])):
            return j
    return None


def groups_of(checkouts: Path, sets_file: Path, judgements: Path) -> dict[str, str]:
    listed = {str(r["repo"]).replace("/", "+"): str(r["set"])
              for r in (json.loads(sets_file.read_text()) if sets_file.is_file() else [])}
    out = {}
    for p in sorted(checkouts.iterdir()):
        if (p / ".git").exists():
            group = listed.get(p.name) or ("corpus" if (judgements / f"{p.name}.json").is_file() else None)
            if group is not None:
                out[p.name] = group
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    env = os.environ.get("RULELENS_CHECKOUTS")
    ap.add_argument("checkouts", nargs="?", type=Path, default=Path(env) if env else None)
    ap.add_argument("--judgements", type=Path, default=HERE / "judgements")
    ap.add_argument("--sets", type=Path, default=HERE / "judgements" / "sets.json")
    ap.add_argument("--group", action="append", choices=GROUPS,
                    help="only these groups (repeat; default: all)")
    ap.add_argument("--save", type=Path)
    ap.add_argument("--load", type=Path, help="read DIR/LABEL/OWNER+NAME.json instead of running check")
    ap.add_argument("--server", action="append", default=[],
                    help="[LABEL=]DIR: a server/ folder whose check to measure (repeat: before, after)")
    args = ap.parse_args()
    if args.checkouts is None or not args.checkouts.is_dir():
        print(__doc__)
        return 2
    servers = [(s.split("=", 1)[0], Path(s.split("=", 1)[1])) if "=" in s else (Path(s).parent.name, Path(s))
               for s in args.server] or [("this checkout", SERVER)]
    missing = [str(d) for _, d in servers if not (d / "rulelens" / "__init__.py").is_file()]
    if missing and args.load is None:  # Python would quietly import another rulelens instead
        print(f"no rulelens package in {', '.join(missing)}: give a server/ folder", file=sys.stderr)
        return 2
    groups = groups_of(args.checkouts, args.sets, args.judgements)
    wanted = args.group or list(GROUPS)
    shown_true: set[tuple[str, int]] = set()  # (repository, judgement) true and shown by an earlier tree
    for label, server in servers:
        now: set[tuple[str, int]] = set()
        for group in wanted:
            names = [n for n, g in groups.items() if g == group]
            if names:
                now |= report(label, server, group, names, args, shown_true)
        shown_true |= now
    return 0


def report(label: str, server: Path, group: str, names: list[str], args: argparse.Namespace,
           earlier: set[tuple[str, int]]) -> set[tuple[str, int]]:
    """Print one tree's tables for one group; return the true judgements it showed as warnings."""
    by_code: dict[str, Counter[str]] = defaultdict(Counter)
    by_agent: dict[str, Counter[str]] = defaultdict(Counter)
    unjudged: list[str] = []
    shown_true: set[tuple[str, int]] = set()
    matched: set[tuple[str, int]] = set()  # every judgement a finding of this run matched
    for name in names:
        path = args.judgements / f"{name}.json"
        judged = json.loads(path.read_text()) if path.is_file() else []
        saved = args.load / label / f"{name}.json" if args.load is not None else None
        if saved is not None and not saved.is_file():
            sys.stderr.write(f"{name}: no saved run at {saved}; left out\n")
            continue
        found = (json.loads(saved.read_text()) if saved is not None
                 else run_check(args.checkouts / name, server))
        if args.save is not None:
            (args.save / label).mkdir(parents=True, exist_ok=True)
            (args.save / label / f"{name}.json").write_text(json.dumps(found, indent=1))
        for finding in found:
            j = verdict_of(finding, judged)
            verdict = str(j["verdict"]) if j is not None else "unjudged"
            shown = finding["severity"] in SHOWN
            seen = (name, judged.index(j) if j is not None else -1)
            matched.add(seen)
            if shown and verdict == "true":
                shown_true.add(seen)
            for c in (by_code[str(finding["code"])], by_agent[agent_of(finding)]):
                if shown:
                    c[verdict] += 1
                    c["findings"] += 1
                elif verdict == "true" and seen in earlier:
                    c["demoted"] += 1
            if j is None and shown:
                unjudged.append(f"{name} {finding['file']}:{finding['line']} {finding['code']} "
                                f"{finding['severity']}: {finding['message']}")
    print(f"\n### {label}: {group} ({len(names)} repositories), warnings and errors")
    for title, counts in (("code", by_code), ("agent", by_agent)):
        total: Counter[str] = Counter()
        print(f"\n| {title} | findings | true | false | unclear | unjudged | precision "
              "| true, demoted |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for key in sorted(counts):
            if counts[key]["findings"] or counts[key]["demoted"]:
                total.update(counts[key])
                print(row(key, counts[key]))
        print(row("**all**", total))
    gone = sorted(k for k in earlier if k[0] in names and k not in matched)
    print(f"\ntrue findings an earlier tree showed as a warning and this one does not report: {len(gone)}")
    for name, index in gone:
        j = json.loads((args.judgements / f"{name}.json").read_text())[index]
        print(f"  gone: {name} {j['file']}:{j['line']} {j['code']} {j.get('about', '')}")
    print(f"unjudged: {len(unjudged)}")
    for line in unjudged:
        print("  unjudged:", line)
    return shown_true


def row(key: str, c: Counter[str]) -> str:
    decided = c["true"] + c["false"]
    precision = f"{c['true'] / decided:.0%}" if decided else "-"
    return (f"| {key} | {c['findings']} | {c['true']} | {c['false']} | {c['unclear']} | "
            f"{c['unjudged']} | {precision} | {c['demoted']} |")


if __name__ == "__main__":
    sys.exit(main())
