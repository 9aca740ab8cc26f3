"""How many of `rulelens check`'s findings on real repositories are true, per code.

Usage: python bench/precision_real.py [CHECKOUTS] [--judgements DIR] [--save DIR] [--server DIR]
  CHECKOUTS (or $RULELENS_CHECKOUTS): a folder of full git checkouts, one per repository, each
  named OWNER+NAME and checked out at the commit its judgements were made on. To make them from
  a corpus folder whose entries hold a meta.json ({"repo": "owner/name", "commit": "…"}):
      git clone https://github.com/OWNER/NAME CHECKOUTS/OWNER+NAME
      git -C CHECKOUTS/OWNER+NAME checkout --detach COMMIT
  (some commits are only on a branch: fetch it first).

For each checkout it runs `python -m rulelens check --format json` (this checkout's code first on
the path), matches every finding with the committed judgements in bench/judgements/OWNER+NAME.json
(file, line, code and, where one line holds several findings of a code, `about`: a text the
message contains; each with a verdict, true / false / unclear, and a one-line reason), and prints
per code the findings, how many are judged true, false or unclear, and the precision (true over
judged true or false). Findings without a judgement are listed: judge them by hand against the
repository's text and history before trusting the table. `--save DIR` keeps each run's JSON.
It prints figures only; nothing here asserts.
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
VERDICTS = ("true", "false", "unclear")


def run_check(checkout: Path, server: Path = SERVER) -> list[dict[str, object]]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(server), os.environ.get("PYTHONPATH", "")])}
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    env = os.environ.get("RULELENS_CHECKOUTS")
    ap.add_argument("checkouts", nargs="?", type=Path, default=Path(env) if env else None)
    ap.add_argument("--judgements", type=Path, default=HERE / "judgements")
    ap.add_argument("--save", type=Path)
    ap.add_argument("--server", type=Path, default=SERVER,
                    help="the server/ folder whose check to measure (another worktree: 'before')")
    args = ap.parse_args()
    if args.checkouts is None or not args.checkouts.is_dir():
        print(__doc__)
        return 2
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    unjudged: list[str] = []
    repos = sorted(p for p in args.checkouts.iterdir() if (p / ".git").exists())
    for checkout in repos:
        path = args.judgements / f"{checkout.name}.json"
        judged = json.loads(path.read_text()) if path.is_file() else []
        found = run_check(checkout, args.server)
        if args.save is not None:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"{checkout.name}.json").write_text(json.dumps(found, indent=1))
        for finding in found:
            code = str(finding["code"])
            j = verdict_of(finding, judged)
            verdict = str(j["verdict"]) if j is not None else "unjudged"
            counts[code][verdict] += 1
            counts[code]["findings"] += 1
            if verdict == "false" and finding["severity"] in ("warning", "error"):
                counts[code]["false warning or error"] += 1
            if j is None:
                unjudged.append(f"{checkout.name} {finding['file']}:{finding['line']} {code} "
                                f"{finding['severity']}: {finding['message']}")
    total: Counter[str] = Counter()
    print(f"{len(repos)} checkouts in {args.checkouts}")
    print("| code | findings | true | false | unclear | unjudged | precision |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for code in sorted(counts):
        c = counts[code]
        total.update(c)
        print(row(code, c))
    print(row("**all**", total))
    print(f"false warnings or errors: {total['false warning or error']}; unjudged: {len(unjudged)}")
    for line in unjudged:
        print("  unjudged:", line)
    return 0


def row(code: str, c: Counter[str]) -> str:
    decided = c["true"] + c["false"]
    precision = f"{c['true'] / decided:.0%}" if decided else "-"
    share = f" ({c['true'] / c['findings']:.0%} of all)" if c["findings"] else ""
    return (f"| {code} | {c['findings']} | {c['true']} | {c['false']} | {c['unclear']} | "
            f"{c['unjudged']} | {precision}{share} |")


if __name__ == "__main__":
    sys.exit(main())
