"""Tag each checkout by the rule formats it holds and split the repositories into tuned and set-aside.

Usage: python bench/corpus_sets.py CHECKOUTS [--out bench/judgements/sets.json] [--exclude NAME ...]

Run once, before anyone looks at a finding: the split depends only on each repository's name and
the formats its tree holds, never on what `check` says. A repository's primary format is the rarest
of its formats (the order of FORMATS); the repositories are ordered by primary format, then by the
SHA-256 of OWNER+NAME, and every third in that order (the 2nd, 5th, ...) goes to `set-aside`, so
each format keeps about a third aside.
It writes repository, commit, format tags and set; no repository text.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Rarest first: a repository is balanced under the rarest format it has.
FORMATS = ("ai-rules", "rulesync", "ruler", "github-instructions", "cursor-rules", "agents-md-tree",
           "claude-rules-paths", "claude-rules-no-paths", "copilot-instructions", "skills", "gemini-md",
           "agents-md", "claude-md")


def tags(files: list[str], checkout: Path) -> list[str]:
    found: set[str] = set()
    for f in files:
        parts = f.split("/")
        if f.startswith(".ai/rules/") and f.endswith(".md"):
            found.add("ai-rules")
        if f.startswith(".rulesync/") or parts[-1] in ("rulesync.jsonc", "rulesync.json"):
            found.add("rulesync")
        if f.startswith(".ruler/") or parts[-1] == "ruler.toml":
            found.add("ruler")
        if f.startswith(".github/instructions/") and f.endswith(".instructions.md"):
            found.add("github-instructions")
        if f.startswith(".cursor/rules/") and f.endswith((".mdc", ".md")):
            found.add("cursor-rules")
        if parts[-1] == "AGENTS.md":
            found.add("agents-md-tree" if len(parts) > 1 else "agents-md")
        if f == ".github/copilot-instructions.md":
            found.add("copilot-instructions")
        if parts[-1] == "GEMINI.md":
            found.add("gemini-md")
        if parts[-1] == "CLAUDE.md":
            found.add("claude-md")
        if "skills" in parts and parts[-1] == "SKILL.md" and parts[0] in (".claude", ".agents", ".github"):
            found.add("skills")
        if f.startswith(".claude/rules/") and f.endswith(".md"):
            head = (checkout / f).read_text(errors="replace")[:2000] if (checkout / f).is_file() else ""
            lines = head.splitlines()[1:40]
            scoped = head.startswith("---") and any(line.startswith("paths:") for line in lines)
            found.add("claude-rules-paths" if scoped else "claude-rules-no-paths")
    return [t for t in FORMATS if t in found]


def walk(root: Path) -> list[str]:
    """Every file under root, through symlinked folders (`.claude/rules` is often a link to another)."""
    out: list[str] = []
    for here, dirs, names in os.walk(root, followlinks=True):
        rel = Path(here).relative_to(root)
        ancestors = {os.path.realpath(root / Path(*rel.parts[:i])) for i in range(len(rel.parts))}
        if os.path.realpath(here) in ancestors:  # a link back up: a loop
            dirs[:] = []
            continue
        dirs[:] = [d for d in dirs if d not in (".git", "node_modules")]
        out += [(rel / n).as_posix() for n in names]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkouts", type=Path)
    ap.add_argument("--out", type=Path, default=HERE / "judgements" / "sets.json")
    ap.add_argument("--exclude", nargs="*", default=[], help="checkouts that belong to another group")
    args = ap.parse_args()
    rows = []
    for checkout in sorted(p for p in args.checkouts.iterdir() if (p / ".git").exists()):
        if checkout.name in args.exclude:
            continue
        git = ["git", "-C", str(checkout)]
        files = walk(checkout)
        commit = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True,
                                check=True).stdout.strip()
        owner, _, name = checkout.name.partition("+")
        found = tags(files, checkout)
        rows.append({"repo": f"{owner}/{name}", "commit": commit, "formats": found,
                     "primary": found[0] if found else "none"})
    rank = {f: i for i, f in enumerate(FORMATS)}
    rows.sort(key=lambda r: (rank.get(str(r["primary"]), len(FORMATS)),
                             hashlib.sha256(str(r["repo"]).replace("/", "+").encode()).hexdigest()))
    for i, r in enumerate(rows):  # one count across the formats, so small formats share the thirds
        r["set"] = "set-aside" if i % 3 == 1 else "tuned"
    rows.sort(key=lambda r: str(r["repo"]).lower())
    args.out.write_text(json.dumps(rows, indent=1) + "\n")
    for fmt in FORMATS:
        tuned = sum(1 for r in rows if fmt in r["formats"] and r["set"] == "tuned")  # type: ignore[operator]
        aside = sum(1 for r in rows if fmt in r["formats"] and r["set"] == "set-aside")  # type: ignore[operator]
        print(f"{fmt}: {tuned} tuned, {aside} set aside")
    print(f"{len(rows)} repositories: {sum(r['set'] == 'tuned' for r in rows)} tuned, "
          f"{sum(r['set'] == 'set-aside' for r in rows)} set aside")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
