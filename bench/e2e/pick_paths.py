"""Choose the paths the end-to-end runs ask each agent about, from each checkout's own rule files.

Usage: python bench/e2e/pick_paths.py [--repos bench/e2e/repos.json] [--write]

For every repository in repos.json (checked out by checkout.py) it picks, without running rulelens:
- `rule`: a text file that a rule file's globs name: a `.ai/rules` or `.claude/rules` `paths`
  (nested `.claude/rules` relative to their folder), a `.github/instructions` `applyTo`, or a
  `.cursor/rules` `globs`. Catch-all globs (`**`, `**/*`) are passed over while a narrower one
  matches something; a pattern is matched from the root, and a pattern without a slash also at
  any depth when nothing at the root matches.
- `nested`: a file below a folder (not the root) that holds its own CLAUDE.md, AGENTS.md or GEMINI.md.
- `source`: an ordinary source file that no rule glob names, outside those folders.
- `create`: a new file next to `rule` whose name the same glob still matches (where no rule names a
  file: next to `nested`, else next to `source`).
- `others`: where there is no `rule` or no `nested`, more ordinary files, so each repository gets three.
Each choice is the first candidate in SHA-256 order of "OWNER/NAME:PATH", so it depends only on the
tree, never on what rulelens says. The frontmatter is read with a small line reader, not a YAML
library, because real files hold unquoted globs (`globs: **/*.ts`) that YAML rejects.
With --write the choices are stored back into repos.json (paths and names only); without it they
are printed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from wcmatch import glob as wglob

HERE = Path(__file__).resolve().parent
FLAGS = wglob.GLOBSTAR | wglob.BRACE | wglob.DOTGLOB
CATCH_ALL = {"**", "**/*", "*", "**/**", "./**", "./**/*"}
SOURCE_EXT = {".py", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".php", ".go", ".rs", ".java", ".kt", ".rb",
              ".vue", ".svelte", ".cs", ".swift", ".c", ".cc", ".cpp", ".h", ".hpp", ".ex", ".exs", ".lua",
              ".scala", ".dart", ".sh", ".ps1", ".psm1", ".ml", ".lean", ".astro", ".sql", ".css", ".scss"}
SKIP_PARTS = {"node_modules", "vendor", "dist", "build", "third_party", "3rdparty", "fixtures", "testdata"}
INSTRUCTION_NAMES = {"CLAUDE.md", "AGENTS.md", "GEMINI.md", "CLAUDE.local.md"}


@dataclass(frozen=True)
class Rule:
    file: str  # the rule file, root-relative
    base: str  # the folder its globs are relative to ("" for the root)
    globs: tuple[str, ...]


def order(repo: str, items: list[str]) -> list[str]:
    return sorted(items, key=lambda p: hashlib.sha256(f"{repo}:{p}".encode()).hexdigest())


def frontmatter_values(text: str, key: str) -> list[str]:
    """The values of one frontmatter key: a list, a [flow list], or a comma-separated string (commas
    inside braces, as in `{src/app,src/modules}/**`, do not separate)."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return []
    out: list[str] = []
    for i, line in enumerate(lines[1:], 1):
        if line.strip() == "---":
            break
        if not line.startswith(f"{key}:"):
            continue
        inline = line[len(key) + 1:].strip()
        if inline:
            inline = inline.strip("[]")
            out += [v.strip().strip("'\"") for v in split_globs(inline)]
        else:
            for item in lines[i + 1:]:
                s = item.strip()
                if not s.startswith("- "):
                    break
                out.append(s[2:].strip().strip("'\""))
    return [v for v in out if v]


def with_linked(tracked: list[str], root: Path) -> list[str]:
    """Tracked paths, plus the files below tracked links to folders inside the repository
    (`.claude/rules -> ../.agents/rules` is common): an agent reads a rule through the link."""
    out = list(tracked)
    top = root.resolve()
    for f in tracked:
        p = root / f
        if p.is_symlink() and p.is_dir() and p.resolve().is_relative_to(top):
            target = p.resolve()
            below = sorted(q for q in target.rglob("*") if q.is_file())
            out += [f"{f}/{q.relative_to(target).as_posix()}" for q in below]
    return out


def rules_of(files: list[str], root: Path) -> list[Rule]:
    found: list[Rule] = []
    for f in files:
        p = PurePosixPath(f)
        parts = p.parts
        kind = None
        base = ""
        if f.startswith(".ai/rules/") and f.endswith(".md") and p.name != "index.md":
            kind = "paths"
        elif ".claude" in parts and f.endswith(".md"):
            i = parts.index(".claude")
            if len(parts) > i + 2 and parts[i + 1] == "rules":
                kind, base = "paths", "/".join(parts[:i])
        elif f.startswith(".github/instructions/") and f.endswith(".instructions.md"):
            kind = "applyTo"
        elif f.startswith(".cursor/rules/") and f.endswith((".mdc", ".md")):
            kind = "globs"
        if kind is None:
            continue
        try:
            text = (root / f).read_text(errors="replace")[:8000]
        except OSError:
            continue
        globs = tuple(frontmatter_values(text, kind))
        if globs:
            found.append(Rule(f, base, globs))
    have = {r.file for r in found}
    if ".ai/rules/index.md" in files:
        # Rule files without frontmatter are named only by the index's table.
        text = (root / ".ai/rules/index.md").read_text(errors="replace")
        for f, globs in index_rows(text).items():
            if f not in have and f in files:
                found.append(Rule(f, "", globs))
    return found


def index_rows(text: str) -> dict[str, tuple[str, ...]]:
    """`.ai/rules/index.md`'s table: each row's rule file and the globs in its other cell."""
    rows: dict[str, tuple[str, ...]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or set(line.strip()) <= set("|-: "):
            continue
        target = next((c for c in cells if ".md" in c), None)
        if target is None:
            continue
        name = target.split("](")[-1].strip("`()[] ") if "](" in target else target.strip("` ")
        name = name if name.startswith(".ai/rules/") else f".ai/rules/{name}"
        globs = [g.strip().strip("`'\" ") for c in cells if c is not target for g in split_globs(c)]
        if globs:
            rows[name] = tuple(g for g in globs if g)
    return rows


def split_globs(cell: str) -> list[str]:
    """Split a cell on commas outside braces (`app/Models/{A,B}.php` stays whole)."""
    out, depth, cur = [], 0, ""
    for ch in cell:
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return [*out, cur]


def matches(pattern: str, rel: str) -> bool:
    pattern = pattern.removeprefix("./").removeprefix("/")
    if wglob.globmatch(rel, pattern, flags=FLAGS):
        return True
    return "/" not in pattern and wglob.globmatch(rel, "**/" + pattern, flags=FLAGS)


def is_text(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            head = fh.read(8000)
    except OSError:
        return False
    return b"\0" not in head and path.stat().st_size < 2_000_000


def rule_targets(rule: Rule, files: list[str]) -> dict[str, list[str]]:
    """Per glob, the files it names (root-relative), for a rule's base folder."""
    prefix = f"{rule.base}/" if rule.base else ""
    out: dict[str, list[str]] = {}
    for g in rule.globs:
        out[g] = [f for f in files if f.startswith(prefix) and matches(g, f[len(prefix):])]
    return out


def skipped(f: str) -> bool:
    """Hidden folders, vendored or built output, minified files and dotfiles: no one's ordinary file."""
    parts = f.split("/")
    hidden = any(x.startswith(".") for x in parts)
    built = any(x in SKIP_PARTS or x.startswith("build") for x in parts[:-1])
    return hidden or built or ".min." in parts[-1]


def new_name(near: str, taken: set[str], root: Path) -> str | None:
    """A free name beside NEAR that keeps its full suffix (`a.test.ts` -> `a_e2e_new.test.ts`)."""
    p = PurePosixPath(near)
    head, dot, rest = p.name.partition(".")
    if not head:  # a dotfile such as .gitkeep: a plain new file beside it
        head, dot, rest = "e2e_new", ".", "md"
    for i in range(1, 100):
        stem = head if head == "e2e_new" else f"{head}_e2e_new"
        name = str(p.with_name(f"{stem}{i if i > 1 else ''}{dot}{rest}"))
        if name not in taken and not (root / name).exists():
            return name
    return None


def rule_names(rule: Rule, glob: str, path: str) -> bool:
    prefix = f"{rule.base}/" if rule.base else ""
    return path.startswith(prefix) and matches(glob, path[len(prefix):])


def keeps_rule(cand: tuple[Rule, str, str], taken: set[str], root: Path) -> bool:
    """Whether the new file beside CAND is still named by the same glob."""
    name = new_name(cand[2], taken, root)
    return name is not None and rule_names(cand[0], cand[1], name)


def pick(repo: str, root: Path) -> dict[str, object]:
    ls = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True, check=True)
    tracked = ls.stdout.splitlines()
    files = [f for f in tracked if (root / f).is_file() and not (root / f).is_symlink()]
    fileset = set(tracked)
    rules = rules_of(with_linked(tracked, root), root)
    named: set[str] = set()  # by a narrow glob
    choice: dict[str, object] = {}
    narrow: list[tuple[Rule, str, str]] = []  # (rule, glob, file)
    broad: list[tuple[Rule, str, str]] = []
    for rule in rules:
        for g, hits in rule_targets(rule, files).items():
            if g.strip() in CATCH_ALL:
                broad += [(rule, g, f) for f in hits]
            else:
                named.update(hits)
                narrow += [(rule, g, f) for f in hits]

    def usable(cands: list[tuple[Rule, str, str]], hidden: bool) -> dict[str, tuple[Rule, str, str]]:
        return {f"{r.file}|{g}|{f}": (r, g, f) for r, g, f in cands
                if PurePosixPath(f).name not in INSTRUCTION_NAMES and skipped(f) == hidden}

    rule_pick = None
    # Narrow globs before catch-alls, ordinary files before hidden or built ones; one rule file at a
    # time (in hash order) so a rule with many hits does not crowd out the others; and within a
    # rule, a file whose new sibling the same glob still names.
    for cands, hidden in ((narrow, False), (narrow, True), (broad, False), (broad, True)):
        by_key = usable(cands, hidden)
        for rf in order(repo, sorted({r.file for r, _, _ in by_key.values()})):
            mine = order(repo, [k for k in by_key if k.startswith(rf + "|")])
            keys = [k for k in mine if is_text(root / by_key[k][2])]
            good = [k for k in keys if keeps_rule(by_key[k], fileset, root)]
            if good or keys:
                rule_pick = by_key[(good or keys)[0]]
                break
        if rule_pick:
            break
    nested_dirs = sorted({str(PurePosixPath(f).parent) for f in files
                          if PurePosixPath(f).name in INSTRUCTION_NAMES and "/" in f and not skipped(f)})
    nested_pick = None
    for d in order(repo, nested_dirs):
        below = [f for f in files if f.startswith(d + "/") and PurePosixPath(f).name not in INSTRUCTION_NAMES
                 and not skipped(f) and is_text(root / f)]
        src = [f for f in below if PurePosixPath(f).suffix in SOURCE_EXT] or below
        if src:
            nested_pick = order(repo, src)[0]
            choice["nested_folder"] = d
            break
    in_nested = tuple(d + "/" for d in nested_dirs)
    taken = {rule_pick[2] if rule_pick else "", nested_pick or ""}
    plain = [f for f in files if not skipped(f) and not f.startswith(in_nested) and f not in taken
             and PurePosixPath(f).name not in INSTRUCTION_NAMES]
    unnamed = [f for f in plain if f not in named] or plain
    tiers = ([f for f in unnamed if PurePosixPath(f).suffix in SOURCE_EXT],
             [f for f in unnamed if PurePosixPath(f).suffix not in {"", ".json", ".lock", ".txt"}],
             unnamed)
    ranked = [f for tier in tiers for f in order(repo, tier)]
    source_pick = next((f for f in ranked if is_text(root / f)), None)
    # Where a repository has no rule glob or no nested folder, more ordinary files (from other
    # top-level folders first) keep three reads per repository.
    chosen = [p for p in (rule_pick[2] if rule_pick else None, nested_pick, source_pick) if p]
    others: list[str] = []
    for f in dict.fromkeys(ranked):
        if len(chosen) + len(others) >= 3:
            break
        tops = {c.split("/")[0] for c in chosen + others}
        if f not in chosen and f.split("/")[0] not in tops and is_text(root / f):
            others.append(f)
    for f in dict.fromkeys(ranked):
        if len(chosen) + len(others) >= 3:
            break
        if f not in chosen and f not in others and is_text(root / f):
            others.append(f)
    for f in order(repo, files):  # a repository of little but dotfiles: those too
        if len(chosen) + len(others) >= 3:
            break
        if f in chosen or f in others or PurePosixPath(f).name in INSTRUCTION_NAMES:
            continue
        if is_text(root / f):
            others.append(f)
    choice["others"] = others
    choice["rule"] = rule_pick[2] if rule_pick else None
    choice["rule_file"] = rule_pick[0].file if rule_pick else None
    choice["nested"] = nested_pick
    choice["source"] = source_pick
    near = rule_pick[2] if rule_pick else nested_pick or source_pick
    create = new_name(near, fileset, root) if near else None
    if rule_pick and create:
        choice["create_named_by_rule"] = rule_names(rule_pick[0], rule_pick[1], create)
    choice["create"] = create
    choice["rule_files"] = len(rules)
    return choice


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repos", type=Path, default=HERE / "repos.json")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    rows = json.loads(args.repos.read_text())
    for row in rows:
        root = Path(row["checkout"])
        if not (root / ".git").exists():
            print(f"{row['repo']}: no checkout at {root}", file=sys.stderr)
            continue
        c = pick(row["repo"], root)
        row["roles"] = {k: c[k] for k in ("rule", "nested", "source", "others")}
        row["rule_file"] = c["rule_file"]
        if "nested_folder" in c:
            row["nested_folder"] = c["nested_folder"]
        others = c["others"]
        assert isinstance(others, list)
        row["paths"] = [p for p in (c["rule"], c["nested"], c["source"], *others) if p]
        row["create"] = c["create"]
        if "create_named_by_rule" in c:
            row["create_named_by_rule"] = c["create_named_by_rule"]
        print(json.dumps({"repo": row["repo"], **c}), flush=True)
    if args.write:
        args.repos.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
