"""Amp's conformance cases: projects of guidance files (`AGENTS.md` and its fallbacks in any
folder) and the files they @-mention, scoped by `globs`, with a path Amp's Read tool reads; each
case asks about one file: "always" (loaded at the start of a thread, Amp started at the root),
True (loaded after reading the path) or False. rulelens answers through the call `rulelens
match --agents --json` makes, where a file that loads for the folder it sits in ("directory")
is one Amp finds when it reads a file below that folder.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from tests.conformance.harness import Case, generated_projects, write_project

PACKAGE = "@ampcode/cli-linux-x64"
EXPLAINED: dict[str, str] = {}
# Both sides write each project to a folder of this name in the temporary folder: Amp matches
# globs against the absolute path, so a pattern can reach the project's own folder name.
PREFIX = "amp-probe-"


def _globs(value: Any) -> str:
    return "" if value is None else f"---\nglobs: {json.dumps(value)}\n---\n"


# A monorepo as real ones write it: a root AGENTS.md that @-mentions scoped guidance, nested
# AGENTS.md files (and the fallback names), and the mistakes real files make.
MONOREPO = {
    "AGENTS.md": ("# Project\n\nRead @docs/typescript.md, @docs/php.md and @.amp/testing.md.\n"
                  "Also @docs/commas.md, @docs/bad-yaml.md, @docs/duplicate.md, @docs/numbers.md,\n"
                  "@docs/root-slash.md, @docs/empty.md and @.ai/rules/index.md.\n"
                  "`@docs/in-code.md` is code, not a mention.\n"),
    "docs/typescript.md": '---\nglobs: ["**/*.ts", "**/*.tsx"]\n---\n# TypeScript\nSee @style.md.\n',
    "docs/style.md": "Style for everything the TypeScript guide covers.\n",
    "docs/php.md": "---\nglobs: app/**/*.php\n---\nPHP\n",
    "docs/commas.md": "---\nglobs: src/**/*.ts, lib/**/*.ts\n---\nOne pattern, never split\n",
    "docs/bad-yaml.md": "---\nglobs: **/*.ts\n---\nAn alias YAML refuses\n",
    "docs/duplicate.md": "---\nglobs: src/**\nglobs: lib/**\n---\nA key twice\n",
    "docs/numbers.md": "---\nglobs: [7]\n---\nNot a string\n",
    "docs/root-slash.md": "---\nglobs: /src/**\n---\nAn absolute path\n",
    "docs/empty.md": '---\nglobs: ["src/**"]\n---\n',
    "docs/in-code.md": "Never mentioned.\n",
    ".amp/testing.md": '---\nglobs:\n  - "./tests/**"\n  - "../tests/**"\n---\nTests\n',
    ".ai/rules/index.md": "---\npaths: [\"app/**\"]\n---\nBoost's index, with `paths`, not `globs`\n",
    "packages/web/AGENTS.md": "Web package. React rules: @rules/react.md\n",
    "packages/web/rules/react.md": '---\nglobs: ["*.tsx", "./src/**"]\n---\nReact\n',
    "packages/api/AGENT.md": "The API package (AGENT.md)\n",
    "packages/api/CLAUDE.md": "Shadowed by AGENT.md\n",
    "packages/lib/CLAUDE.md": "Only a CLAUDE.md here\n",
    "packages/scoped/AGENTS.md": "---\nglobs: \"*.test.ts\"\n---\nTests of this package\n",
    "packages/scoped/agents.md": "Lower case: after AGENTS.md\n",
}
# A root AGENTS.md with globs of its own; the files it mentions with and without.
ROOT_GLOBS = {
    "AGENTS.md": "---\nglobs: [\"**/*.ts\"]\n---\nRoot. @docs/always.md @docs/ts.md\n",
    "docs/always.md": "No frontmatter\n",
    "docs/ts.md": "---\nglobs: src/*.ts\n---\nTS\n",
    "pkg/Agents.md": "Capital A, lower s\n",
}
# Only CLAUDE.md at the root; a string frontmatter; a file ending in its frontmatter.
FALLBACK = {
    "CLAUDE.md": "Fallback root. @notes.md\n",
    "notes.md": "---\njust a string\n---\nnot a mapping\n",
    "src/AGENTS.md": "---\nglobs: [\"*.ts\"]\n---",
}
PROJECTS = (MONOREPO, ROOT_GLOBS, FALLBACK)
PATHS = [
    "src/a.ts", "src/comp.tsx", "lib/x.ts", "app/Models/User.php", "packages/web/src/App.tsx",
    "packages/web/src/x.ts", "packages/web/b.tsx", "packages/api/src/h.ts", "packages/lib/index.js",
    "packages/scoped/a.test.ts", "packages/scoped/b.ts", "tests/x.php", ".amp/tests/a.ts",
    "README.md", "pkg/src/a.ts", "docs/guide.md",
]


def realistic() -> list[Case]:
    return [Case("realistic", f"r{n}-{rel}-{path}", path, files, {"file": rel})
            for n, files in enumerate(PROJECTS) for path in PATHS if path not in files for rel in files]


SEGMENTS = ["a", "b", "src", "Src", "*", "**", "*.ts", "a*", "?", "[ab]", "{a,b}", ".x", "x.TS", "*.md", "..", "."]
PATH_SEGMENTS = ["a", "b", "src", "Src", ".x", "x.ts", "a.ts", "b.md", "x.TS", "ab"]


def _project(values: list[Any]) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """Half the patterns in files the root's AGENTS.md mentions, half in files `a/AGENTS.md`
    mentions (read once Amp reads a file below `a/`), each with one `globs` value."""
    files: dict[str, str] = {}
    for i, value in enumerate(values):
        folder = "" if i % 2 == 0 else "a/"
        files[f"{folder}rules/p{i}.md"] = f"{_globs(value)}rule {i}\n"
    for folder in ("", "a/"):
        names = [rel[len(folder):] for rel in files if rel.startswith(folder + "rules/")]
        files[f"{folder}AGENTS.md"] = "Guidance: " + " ".join(f"@{n}" for n in names) + "\n"
    return files, [(rel, "") for rel in files if "/rules/" in f"/{rel}"]


def generated(paths: int = 60, patterns: int = 30, seed: int = 2026) -> list[Case]:
    return generated_projects(_project, SEGMENTS, PATH_SEGMENTS, ["", "", "", "./", "../", "/", "**/"], 0.7,
                              paths, patterns, seed)


def cases() -> list[Case]:
    return realistic() + generated()


def rulelens_answers(all_cases: list[Case]) -> list[Any]:
    """What `rulelens match --agents --json` calls (`AgentProject.view`), in this process, per
    project and path: "always" where rulelens's Amp loads the file at start, True where it loads
    it for the path (a glob, or the folder it is in: Amp started at the root finds a nested file
    when it reads below it), False where not."""
    from rulelens.agents.project import AgentProject
    from rulelens.rules.repository import RuleRepository

    groups: dict[str, list[int]] = {}
    for i, c in enumerate(all_cases):
        groups.setdefault(json.dumps([c.files, c.path], sort_keys=True), []).append(i)
    answers: list[Any] = [None] * len(all_cases)
    for members in groups.values():
        first = all_cases[members[0]]
        with tempfile.TemporaryDirectory(prefix=PREFIX) as tmp:
            root = write_project(Path(tmp).resolve(), {first.path: "x\n", **first.files})
            view = AgentProject(RuleRepository(root)).view(first.path)
        how = {x.file: x.how for x in view.loads.get("amp", [])}
        for i in members:
            got = how.get(all_cases[i].extra["file"])
            answers[i] = "always" if got == "always" else got is not None
    return answers
