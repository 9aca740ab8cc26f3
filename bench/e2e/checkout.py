"""Check the end-to-end repositories out as plain trees, at their pinned commits, from local mirrors.

Usage: python bench/e2e/checkout.py [--repos bench/e2e/repos.json] [--mirrors /work/.mirror]
           [--into /work/repos] [--only OWNER/NAME ...] [--newest-if-missing] [--status FILE] [--list FILE]

The mirrors are bare snapshots that something else brought onto the machine (in this workplace the
search tool's `fetch`, which puts OWNER/NAME at MIRRORS/OWNER+NAME/repo); this script never
downloads anything. Each repository is cloned from its mirror into INTO/OWNER+NAME and its pinned
commit checked out detached, so an agent run finds a real `.git` at the project root. A checkout
already at the pinned commit is left alone. `--repos` takes any JSON list of {"repo", "commit"}
(bench/judgements/sets.json too). Prints one JSON line per repository: what was checked out, and
whether the pinned commit was missing (then, with --newest-if-missing, the mirror's HEAD is used).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def git(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)


def mirror_of(mirrors: Path, repo: str) -> Path | None:
    """The snapshot's git directory: a bare one, or the .git of a snapshot that kept a work tree."""
    base = mirrors / repo.replace("/", "+") / "repo"
    for d in (base / ".git", base):
        if (d / "HEAD").is_file() and (d / "objects").is_dir():
            return d
    return None


def has_commit(git_dir: Path, commit: str) -> bool:
    return git(f"--git-dir={git_dir}", "cat-file", "-e", f"{commit}^{{commit}}").returncode == 0


def checkout(repo: str, commit: str, mirrors: Path, into: Path, newest_if_missing: bool) -> dict[str, object]:
    dest = into / repo.replace("/", "+")
    row: dict[str, object] = {"repo": repo, "pinned": commit, "checkout": str(dest)}
    mirror = mirror_of(mirrors, repo)
    if mirror is None:
        return {**row, "status": "no-mirror"}
    want = commit
    if not has_commit(mirror, commit):
        row["pinned_missing"] = True
        if not newest_if_missing:
            return {**row, "status": "commit-missing"}
        want = git(f"--git-dir={mirror}", "rev-parse", "HEAD").stdout.strip()
    if (dest / ".git").is_dir():
        head = git("rev-parse", "HEAD", cwd=dest).stdout.strip()
        if head == want:
            return {**row, "commit": want, "status": "present", **hide_absent(dest)}
        return {**row, "commit": head, "status": "other-commit-present"}
    done = git("clone", "--quiet", "--no-checkout", str(mirror), str(dest))
    if done.returncode != 0:
        return {**row, "status": "clone-failed", "error": done.stderr.strip()[-500:]}
    if git("cat-file", "-e", f"{want}^{{commit}}", cwd=dest).returncode != 0:
        # A shallow or partial snapshot clones by fetch, which takes only what the refs reach.
        git("fetch", "--quiet", str(mirror), want, cwd=dest)
    done = git("-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", want, cwd=dest)
    if done.returncode != 0:
        return {**row, "status": "checkout-failed", "error": done.stderr.strip()[-500:]}
    return {**row, "commit": want, "status": "checked-out", **hide_absent(dest)}


def hide_absent(dest: Path) -> dict[str, int]:
    """Snapshots leave out files of 4 MiB and more, so a checkout lacks them and `git status` would
    show them deleted, which an agent sees in its start-up git status. Mark them skip-worktree."""
    gone = [f for f in git("ls-files", "--deleted", cwd=dest).stdout.splitlines() if f]
    if gone:
        subprocess.run(["git", "update-index", "--skip-worktree", "--stdin"], cwd=dest, text=True,
                       input="\n".join(gone) + "\n", capture_output=True, check=False)
    return {"absent_files": len(gone)} if gone else {}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repos", type=Path, default=HERE / "repos.json")
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--into", type=Path, default=Path("/work/repos"))
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--newest-if-missing", action="store_true")
    ap.add_argument("--status", type=Path, help="write 'done N/M' and one line per repository here")
    ap.add_argument("--list", type=Path, help="write the checkout folders, one a line, here")
    args = ap.parse_args()
    rows = json.loads(args.repos.read_text())
    if args.only:
        rows = [r for r in rows if r["repo"] in args.only]
    args.into.mkdir(parents=True, exist_ok=True)
    results = []
    for r in rows:
        res = checkout(r["repo"], r["commit"], args.mirrors, args.into, args.newest_if_missing)
        results.append(res)
        print(json.dumps(res), flush=True)
    ok = [r for r in results if r["status"] in ("checked-out", "present")]
    if args.status:
        lines = [f"done {len(ok)}/{len(results)}"]
        for r in results:
            missing = " (pinned commit missing)" if r.get("pinned_missing") else ""
            lines.append(f"{r['status']} {r['repo']} {r.get('commit', '-')}{missing}")
        args.status.write_text("\n".join(lines) + "\n")
    if args.list:
        args.list.write_text("".join(f"{r['checkout']}\n" for r in ok))
    return 0 if len(ok) == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
