"""Codex's conformance cases: a project tree of `AGENTS.md`/`AGENTS.override.md` files and a path
Codex is started beside (in the path's folder); each case asks about one file: "whole" (it
reached the model whole), "cut" (its start did, its end was cut by `project_doc_max_bytes`) or
False.

rulelens answers through Codex's chain for an agent started in the path's folder
(`Codex.chain`, of which `match --agents` shows the root's file as loading and the nested ones as
loading only when started there), on the same tree: a file in the chain reached the model whole,
or cut where the chain's cap cuts it; one past the cap, or not in the chain, did not.
"""

from __future__ import annotations

import posixpath
import random
import subprocess
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from tests.conformance.harness import Case, write_project

PACKAGE = "@openai/codex"
EXPLAINED: dict[str, str] = {}
KIB = 1024


def marked(name: str, size: int = 0) -> str:
    """A file's text: a start and an end marker only it holds, `size` bytes in all when larger."""
    head, tail = f"RULE-MARK-{name}-START\n", f"\nRULE-MARK-{name}-END\n"
    pad = max(0, size - len(head) - len(tail))
    filler = ("- keep this rule in mind.\n" * (pad // 25 + 1))[:pad]
    return head + filler + tail


def project_cases(kind: str, tree: str, files: dict[str, str], paths: list[str], **extra: Any) -> list[Case]:
    """A case per (path, file that holds markers) of one tree."""
    out: list[Case] = []
    for path in paths:
        for rel, text in files.items():
            start = text.lstrip().partition("\n")[0]
            if not start.startswith("RULE-MARK-"):
                continue
            end = start.replace("-START", "-END")
            out.append(Case(kind, f"{tree}:{rel}@{path}", path, files,  # type: ignore[arg-type]
                            {"file": rel, "start": start, "end": end, **extra}))
    return out


def realistic() -> list[Case]:
    out: list[Case] = []
    # A monorepo as the corpus's are: a root file, one per package, one deeper.
    mono = {"AGENTS.md": marked("root"), "packages/api/AGENTS.md": marked("api"),
            "packages/web/AGENTS.md": marked("web"), "packages/web/src/legacy/AGENTS.md": marked("legacy"),
            "docs/README.md": "docs\n"}
    out += project_cases("realistic", "mono", mono, [
        "README.md", "packages/api/src/index.ts", "packages/web/src/app.tsx", "packages/web/src/legacy/old.js",
        "docs/guide.md", "packages/api/AGENTS.md"])
    # Override files: beside AGENTS.md (it wins), alone, empty (it still claims the folder).
    over = {"AGENTS.md": marked("base"), "AGENTS.override.md": marked("over"),
            "services/pay/AGENTS.override.md": marked("pay-over"),
            "services/auth/AGENTS.md": marked("auth"), "services/auth/AGENTS.override.md": "",
            "services/mail/AGENTS.md": marked("mail"), "services/mail/AGENTS.override.md": " \n\n",
            "services/blank/AGENTS.md": "\n", "services/blank/x/AGENTS.md": marked("blank-x")}
    out += project_cases("realistic", "override", over, [
        "main.go", "services/pay/handler.go", "services/auth/login.go", "services/mail/send.go",
        "services/blank/x/y.go"])
    # Names Codex does not read by default: case variants and other agents' files.
    names = {"agents.md": marked("lower"), "Agents.md": marked("title"), "AGENTS.MD": marked("upper"),
             "CLAUDE.md": marked("claude"), "src/AGENTS.md": marked("src")}
    out += project_cases("realistic", "names", names, ["src/a.py", "b.py"])
    # The 32 KiB cap: what crosses it is cut, what follows is not read, empty files cost nothing.
    big = {"AGENTS.md": marked("big-root", 20 * KIB), "app/AGENTS.md": marked("big-app", 20 * KIB),
           "app/models/AGENTS.md": marked("big-models", 2 * KIB), "lib/AGENTS.md": marked("big-lib", 12 * KIB - 100),
           "lib/x/AGENTS.md": marked("big-lib-x", 200)}
    out += project_cases("realistic", "big", big, ["app/models/user.rb", "lib/x/y.rb", "lib/z.rb", "x.rb"])
    exact = {"AGENTS.md": marked("exact-root", 32 * KIB), "a/AGENTS.md": marked("exact-a"),
             "b/AGENTS.md": marked("over-root", 33 * KIB)}
    out += project_cases("realistic", "exact", exact, ["a/x.py", "x.py", "b/c/x.py"])
    # The global $CODEX_HOME/AGENTS.md does not count against the project's cap.
    out += project_cases("realistic", "home", {"AGENTS.md": marked("home-root", 30 * KIB)}, ["x.py"],
                         home=marked("global", 30 * KIB))
    # No git: the working folder is the project root, so only its own file is read.
    plain = {"AGENTS.md": marked("plain-root"), "src/AGENTS.md": marked("plain-src"),
             "src/lib/AGENTS.md": marked("plain-lib")}
    out += project_cases("realistic", "nogit", plain, ["src/lib/a.ts", "src/a.ts", "a.ts", "docs/a.md"], git=False)
    # A repository inside the project (a submodule, a vendored clone): Codex's chain starts there.
    nested = {"AGENTS.md": marked("outer-root"), "vendor/lib/README.md": "lib\n", "app/AGENTS.md": marked("outer-app")}
    out += project_cases("realistic", "nested", nested, ["vendor/lib/src/a.c", "app/main.c", "vendor/x.c"],
                         repos=["vendor/lib"])
    # A trusted project's .codex/config.toml: fallback names after AGENTS.md, and a smaller cap.
    config = {".codex/config.toml": 'project_doc_fallback_filenames = ["CLAUDE.md", "GUIDE.md", ""]\n'
                                    "project_doc_max_bytes = 4096\n",
              "CLAUDE.md": marked("cfg-claude"), "a/AGENTS.md": marked("cfg-a"), "a/CLAUDE.md": marked("cfg-a-claude"),
              "b/GUIDE.md": marked("cfg-b-guide", 5000), "c/CLAUDE.md": "", "c/GUIDE.md": marked("cfg-c-guide"),
              "d/guide.md": marked("cfg-d-lower")}
    out += project_cases("realistic", "config", config, ["x.md", "a/x.md", "b/x.md", "c/x.md", "d/x.md"])
    # A cut that falls in a file's leading blank lines is passed over; the next file gets the rest.
    blank = {".codex/config.toml": "project_doc_max_bytes = 90\n", "AGENTS.md": marked("blank-root"),
             "a/AGENTS.md": "\n" * 40 + marked("blank-a"), "a/b/AGENTS.md": marked("blank-b")}
    out += project_cases("realistic", "blank", blank, ["a/b/x.md"])
    off = {".codex/config.toml": "project_doc_max_bytes = 0\n", "AGENTS.md": marked("off-root"),
           "a/AGENTS.md": marked("off-a")}
    out += project_cases("realistic", "off", off, ["a/x.md"])
    # Links, as teams share one file between agents: `AGENTS.md` -> `CLAUDE.md`; a link that leads
    # nowhere does not claim its folder.
    linked = {"CLAUDE.md": marked("link-claude"), "a/AGENTS.md": marked("link-a"), "b/real.md": marked("link-b")}
    links = {"AGENTS.md": "CLAUDE.md", "a/AGENTS.override.md": "missing.md", "b/AGENTS.md": "real.md"}
    by_target = {posixpath.join(posixpath.dirname(rel), target): rel for rel, target in links.items()}
    out += [replace(c, extra={**c.extra, "file": by_target.get(c.extra["file"], c.extra["file"])})
            for c in project_cases("realistic", "links", linked, ["a/x.ts", "b/x.ts", "x.ts"], links=links)]
    # A local override that git ignores, beside the shared file: Codex reads it all the same.
    ignored = {".gitignore": "AGENTS.override.md\n", "AGENTS.md": marked("ign-root"),
               "AGENTS.override.md": marked("ign-root-over"), "a/AGENTS.md": marked("ign-a"),
               "a/AGENTS.override.md": marked("ign-a-over")}
    out += project_cases("realistic", "ignored", ignored, ["a/x.ts", "x.ts"])
    # A deep chain, every folder with a file.
    deep = {"/".join("abcdef"[:i]) + ("/" if i else "") + "AGENTS.md": marked(f"deep{i}") for i in range(7)}
    out += project_cases("realistic", "deep", deep, ["a/b/c/d/e/f/g.txt", "a/b/x.txt"])
    return out


FOLDERS = ["", "a", "b", "src", "a/b", "a/c", "src/a", "src/a/b", "a/b/c", "b/a", "a/b/c/d", ".x", "src/.x", "A"]
SEGMENTS = ["a", "b", "src", ".x", "A", "pkg"]
KINDS = ["agents", "agents", "override", "both", "empty-override", "blank-agents", "lower", "claude", "none", "none"]


def generated(trees: int = 110, seed: int = 2026) -> list[Case]:
    """Random trees: each folder with no file, `AGENTS.md`, an override, both, an empty override,
    a blank `AGENTS.md` or a `CLAUDE.md`, of random sizes around the cap; some without git, some
    with a `.codex/config.toml` naming `CLAUDE.md` as a fallback or setting a random cap."""
    rng = random.Random(seed)
    out: list[Case] = []
    for t in range(trees):
        files: dict[str, str] = {}
        # One branch of folders, each of its folders with a file or none, and a few folders beside it.
        spine = [rng.choice(SEGMENTS) for _ in range(rng.randint(1, 5))]
        folders = ["/".join(spine[:depth]) for depth in range(len(spine) + 1)]
        folders += [f for f in rng.sample(FOLDERS, 2) if f not in folders]
        for folder in folders:
            prefix = folder + "/" if folder else ""
            size = rng.choice([0, 0, 300, 2 * KIB, 6 * KIB, 11 * KIB, 16 * KIB])
            kind = rng.choice(KINDS)
            tag = f"g{t}-{folder.replace('/', '.') or 'root'}"
            if kind in ("agents", "both", "empty-override"):
                files[prefix + "AGENTS.md"] = marked(tag, size)
            if kind in ("override", "both"):
                files[prefix + "AGENTS.override.md"] = marked(tag + "-o", size)
            if kind == "empty-override":
                files[prefix + "AGENTS.override.md"] = rng.choice(["", "\n", "  \n"])
            if kind == "blank-agents":
                files[prefix + "AGENTS.md"] = "\n\n"
            if kind == "lower":
                files[prefix + "agents.md"] = marked(tag + "-l", size)
            if kind == "claude":
                files[prefix + "CLAUDE.md"] = marked(tag + "-c", size)
        if rng.random() < 0.5:
            settings = ['project_doc_fallback_filenames = ["CLAUDE.md"]'] if rng.random() < 0.6 else []
            if rng.random() < 0.7:
                settings.append(f"project_doc_max_bytes = {0 if rng.random() < 0.1 else rng.randint(100, 24000)}")
            files[".codex/config.toml"] = "".join(line + "\n" for line in settings)
        # Mostly at the end of the branch, where the chain is longest.
        deep = "/".join(spine)
        folder = rng.choice([deep, deep, deep, deep + "/c", "/".join(spine[:-1]), *rng.sample(FOLDERS, 2)])
        path = (folder + "/" if folder else "") + rng.choice(["x.ts", "README.md", "y.py"])
        out += project_cases("generated", f"g{t}", files, [path], **({"git": False} if rng.random() < 0.1 else {}))
    return out


def cases() -> list[Case]:
    return realistic() + generated()


def rulelens_answers(all_cases: list[Case]) -> list[Any]:
    """rulelens's answers: Codex's view of each case's path (`AgentProject.view`, what
    `match --agents --json` shows), with what the cap reads of each file (`chain_reads`, the
    over-budget note's)."""
    from rulelens.agents.formats.codex import chain_reads
    from rulelens.agents.project import AgentProject
    from rulelens.rules.repository import RuleRepository

    groups: dict[tuple[str, str, bool, str, str], list[int]] = {}
    for i, c in enumerate(all_cases):
        key = (repr(sorted(c.files.items())), c.path, c.extra.get("git", True), repr(c.extra.get("repos")),
               repr(c.extra.get("links")))
        groups.setdefault(key, []).append(i)
    answers: list[Any] = [None] * len(all_cases)
    for members in groups.values():
        first = all_cases[members[0]]
        with tempfile.TemporaryDirectory() as tmp:
            root = write_project(Path(tmp) / "project", {first.path: "x\n", **first.files},
                                 git=first.extra.get("git", True))
            for repo in first.extra.get("repos", []):
                subprocess.run(["git", "init", "-q", str(root / repo)], check=True)
            for rel, target in first.extra.get("links", {}).items():
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).symlink_to(target)
            codex = AgentProject(RuleRepository(root)).agent("codex")
            assert codex is not None and codex.budget is not None
            loads = codex.chain(first.path)  # started in the path's folder, as the probe starts it
            reads = chain_reads(loads, codex.budget.limit, codex.blank_starts(loads))
            read = {load.file: (load.bytes, n) for load, n in zip(loads, reads, strict=True)}
        for i in members:
            size, n = read.get(all_cases[i].extra["file"], (0, 0))
            answers[i] = "whole" if n and n == size else "cut" if n else False
    return answers
