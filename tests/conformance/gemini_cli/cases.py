"""Gemini CLI's conformance cases: projects of context files (`GEMINI.md`, the names a project's
`.gemini/settings.json` sets in `context.fileName`, others it does not read), some empty, some
importing others with `@path`, some in folders git ignores, and a path a tool reads or edits.
Each case asks about one file: "always" (loaded at start, Gemini CLI started at the project
root), True (added just in time when a tool touches the path) or False. rulelens answers through
the core call `rulelens match --agents --json` makes: a file it loads "always" is loaded at
start, one it loads by "directory" (the path's folder chain) is added for the path.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from tests.conformance.harness import Case, write_project

PACKAGE = "@google/gemini-cli"
EXPLAINED: dict[str, str] = {}
AGENT = "gemini-cli"
_MARK = re.compile(r"RULE-MARK-\S+?-END")


def mark(rel: str) -> str:
    return f"RULE-MARK-{rel.replace('/', '~')}-END"


def _marked(files: dict[str, str]) -> dict[str, str]:
    """Each `{m}` in a file's text replaced by that file's own marker."""
    return {rel: text.replace("{m}", mark(rel)) for rel, text in files.items()}


# Projects as real ones write them: the context chain, other agents' files beside it, settings
# naming other files, imports (Boost's `@.ai/rules/index.md`, package names in prose), folders
# git ignores.
PROJECTS: dict[str, dict[str, str]] = {
    "chain": {
        "GEMINI.md": "# Project\n{m}\nUse strict types.\n",
        "src/GEMINI.md": "{m}\n",
        "src/api/GEMINI.md": "## API\n{m}\n",
        "docs/GEMINI.md": "{m}\n",
        "tests/GEMINI.md": "   \n",  # blank: adds nothing
        "lib/gemini.md": "{m}\n",  # not the name: Linux is case-sensitive
        "AGENTS.md": "{m}\n",
        "CLAUDE.md": "{m}\n",
        ".gemini/GEMINI.md": "{m}\n",
        "src/api/AGENTS.md": "{m}\n",
    },
    "names-list": {
        ".gemini/settings.json": '{\n  // shared by the team\n  "context": {"fileName": ["AGENTS.md", "GEMINI.md"]}\n}\n',
        "AGENTS.md": "{m}\n",
        "GEMINI.md": "{m}\n",
        "app/AGENTS.md": "{m}\n",
        "app/Models/GEMINI.md": "{m}\n",
        "app/Models/CLAUDE.md": "{m}\n",
        "resources/js/AGENTS.md": "{m}\n",
    },
    "name-string": {
        ".gemini/settings.json": '{"context": {"fileName": "AGENTS.md"}}\n',
        "AGENTS.md": "{m}\n",
        "GEMINI.md": "{m}\n",  # still loads: the names go in front of GEMINI.md
        "packages/ui/AGENTS.md": "{m}\n",
        "packages/ui/GEMINI.md": "{m}\n",
        "packages/core/CONTEXT.md": "{m}\n",
    },
    "name-with-folder": {
        ".gemini/settings.json": '{"context": {"fileName": ["docs/CONTEXT.md", "CONTEXT.md"]}}\n',
        "docs/CONTEXT.md": "{m}\n",
        "CONTEXT.md": "{m}\n",
        "src/docs/CONTEXT.md": "{m}\n",
        "src/CONTEXT.md": "{m}\n",
        "GEMINI.md": "{m}\n",
    },
    "empty-names": {
        ".gemini/settings.json": '{"context": {"fileName": []}}\n',
        "GEMINI.md": "{m}\n",
        "AGENTS.md": "{m}\n",
        "src/GEMINI.md": "{m}\n",
    },
    "ignored": {
        ".gitignore": "build/\nlocal/\nGEMINI.local.md\n*.log\n",
        ".geminiignore": "secret/\nsrc/generated/\n",
        "GEMINI.md": "{m}\n",
        "build/GEMINI.md": "{m}\n",
        "local/GEMINI.md": "{m}\n",
        "secret/GEMINI.md": "{m}\n",
        "src/generated/GEMINI.md": "{m}\n",
        "src/GEMINI.md": "{m}\n",
    },
    "imports": {
        "GEMINI.md": "# Rules\n{m}\nRead @.ai/rules/index.md first.\nStyle: @docs/style.md\n"
                     "We use @angular/core and `@event` handlers.\n",
        ".ai/rules/index.md": "{m}\n- models.md\n",
        ".ai/rules/models.md": "---\npaths:\n  - app/Models/**\n---\n{m}\n",
        "docs/style.md": "{m}\nSee @./more.md\n",
        "docs/more.md": "{m}\n",
        "docs/unused.md": "{m}\n",
        "app/GEMINI.md": "{m}\n@../docs/api.md\n",
        "docs/api.md": "{m}\n",
        "app/Models/GEMINI.md": "{m}\n```\n@../../docs/unused.md\n```\n",
    },
}
# Texts real context files hold after an `@` (Boost's index, package names, decorators, mail
# addresses, paths that are missing or outside the project, a URL), each asked about: does Gemini
# CLI replace it with an "Import failed" comment (rulelens: a `gemini-cli-import-failed` finding)?
IMPORT_TEXTS: dict[str, str] = {
    "GEMINI.md": "# Rules\nRead @.ai/rules/index.md first.\nWe use @angular/core and @types/node, "
                 "not @event, handlers.\nDecorators: @Injectable() and `@Component`.\n"
                 "Mail admin@example.com or see @docs/missing.md.\nOutside: @../secret.md and @/etc/hosts\n"
                 "Link @https://example.com/x\n```ts\n@Input() x\n```\n(@docs/paren.md) @docs/ok.md\n",
    "app/GEMINI.md": "Models: @../docs/ok.md and @./local.md\n\t@Models/Thing.php is there.\n",
    ".ai/rules/index.md": "- x.md\n",
    "docs/ok.md": "ok\n",
    "app/Models/Thing.php": "<?php\n",
}
# Settings files Gemini CLI may refuse: does it start (rulelens: does its `gemini-settings-invalid`
# finding say Gemini CLI does not start)?
SETTINGS_TEXTS = [
    '{"context": {"fileName": ["AGENTS.md",]}}', "[1, 2]", '"GEMINI.md"', '{"context": {"fileName": 3}}',
    '{"context": {"fileName": ["AGENTS.md", 7]}}', '{"context": {"fileName": {}}}', '{"context": "GEMINI.md"}',
    '{"context": {"fileName": 0}}', '{"context": {"fileName": false}}', '{"context": {"fileName": ""}}',
    '{// note\n"context": {"fileName": "AGENTS.md"}}', '{"context": {"fileName": []}}', "{}", "",
]


def _deep(settings: str | None) -> dict[str, str]:
    """Imports seven files deep from the root's file and from a folder's, and an `@` text that
    names no file in each (with `importFormat: "flat"`, the root's are read another way)."""
    files = {"GEMINI.md": "{m}\n@d/f1.md\nWe use @angular/core here.\n",
             "sub/GEMINI.md": "{m}\n@../e/g1.md\nSee @types/node too.\n"}
    files.update({f"d/f{i}.md": f"{{m}}\n@f{i + 1}.md\n" for i in range(1, 8)})
    files.update({f"e/g{i}.md": f"{{m}}\n@./g{i + 1}.md\n" for i in range(1, 8)})
    return {**files, ".gemini/settings.json": settings} if settings is not None else files


PROJECTS["deep-tree"] = _deep(None)
PROJECTS["deep-flat"] = _deep('{"context": {"importFormat": "flat"}}')
PATHS: dict[str, list[str]] = {
    "deep-tree": ["a.ts", "sub/x.ts"],
    "deep-flat": ["a.ts", "sub/x.ts"],
    "chain": ["README.md", "src/a.ts", "src/api/users.ts", "src/api/v1/x.ts", "docs/guide.md", "lib/a.ts",
              "tests/a.test.ts", ".gemini/x.json", "vendor/a.php"],
    "names-list": ["README.md", "app/User.php", "app/Models/User.php", "resources/js/app.ts", "routes/web.php"],
    "name-string": ["index.ts", "packages/ui/button.tsx", "packages/core/a.ts", "packages/ui/src/x.ts"],
    "name-with-folder": ["a.ts", "src/a.ts", "src/docs/a.md", "docs/x.md", "src/x/y.ts"],
    "empty-names": ["a.ts", "src/a.ts"],
    "ignored": ["a.ts", "build/out.js", "local/a.ts", "secret/a.ts", "src/generated/t.ts", "src/a.ts"],
    "imports": ["README.md", "app/Models/User.php", "app/Http/x.php", "docs/x.md", ".ai/rules/x.md"],
}


def _cases(kind: Any, name: str, files: dict[str, str], paths: list[str]) -> list[Case]:
    asked = [rel for rel, text in files.items() if mark(rel) in text]
    return [Case(kind, f"{name}:{path}:{rel}", path, files, {"marker": mark(rel), "file": rel})
            for path in paths for rel in asked]


def import_cases() -> list[Case]:
    from rulelens.agents.formats.gemini_imports import imports

    return [Case("realistic", f"import:{rel}:{imp.path}", "app/x.php", IMPORT_TEXTS, {"failed": imp.path, "file": rel})
            for rel in ("GEMINI.md", "app/GEMINI.md")
            for imp in imports(IMPORT_TEXTS[rel].replace("`", " "))]  # those in backticks too


def deep_failed_cases() -> list[Case]:
    return [Case("realistic", f"{name}:failed:{rel}", "sub/x.ts", _marked(PROJECTS[name]), {"failed": text, "file": rel})
            for name in ("deep-tree", "deep-flat")
            for rel, text in (("GEMINI.md", "angular/core"), ("sub/GEMINI.md", "types/node"))]


def settings_cases() -> list[Case]:
    return [Case("realistic", f"settings:{text!r}", "a.ts", {".gemini/settings.json": text, "GEMINI.md": "x\n"},
                 {"fails": True, "file": ".gemini/settings.json"}) for text in SETTINGS_TEXTS]


def realistic() -> list[Case]:
    marked = [c for name, files in PROJECTS.items() for c in _cases("realistic", name, _marked(files), PATHS[name])]
    return marked + import_cases() + deep_failed_cases() + settings_cases()


FOLDERS = ["", "", "src", "src/app", "lib", "a", "a/b", "a/b/c", ".x", "Src", "docs", "pkg/ui"]
NAMES = ["GEMINI.md", "GEMINI.md", "AGENTS.md", "CONTEXT.md", "gemini.md", "CLAUDE.md", "docs/CONTEXT.md"]
SETTINGS = [None, None, ["AGENTS.md"], "AGENTS.md", ["CONTEXT.md", "AGENTS.md"], "docs/CONTEXT.md", [], "",
            " AGENTS.md ", ["./AGENTS.md"]]
IMPORTS = ["@{f}", "@./{f}", "`@{f}`", "see @{f}.", "x@{f}", "@missing.md", "@pkg/name"]
TEXTS = ["{m}\n", "{m}\n", "{m}\n", "\n", "  \n"]


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def _rel_from(folder: str, target: str) -> str:
    ups = len(folder.split("/")) if folder else 0
    return "../" * ups + target


def generated(projects: int = 150, seed: int = 2026) -> list[Case]:
    rng = random.Random(seed)
    out: list[Case] = []
    for p in range(projects):
        files: dict[str, str] = {}
        for _ in range(rng.randint(2, 7)):
            rel = _join(rng.choice(FOLDERS), rng.choice(NAMES))
            files[rel] = rng.choice(TEXTS)
        for rel in list(files):  # some import another file, or a plain one
            if rng.random() < 0.3:
                folder = rel.rpartition("/")[0]
                target = rng.choice([*files, "notes/extra.md"])
                files.setdefault("notes/extra.md", "{m}\n")
                files[rel] += rng.choice(IMPORTS).format(f=_rel_from(folder, target)) + "\n"
        setting = rng.choice(SETTINGS)
        context: dict[str, Any] = {} if setting is None else {"fileName": setting}
        if rng.random() < 0.2:
            context["importFormat"] = "flat"
        if context:
            files[".gemini/settings.json"] = json.dumps({"context": context})
        if rng.random() < 0.2:
            files[".gitignore"] = rng.choice(["a/\n", "src/app/\n", "*.md\n", ".x/\n"])
        path = _join(rng.choice(FOLDERS), rng.choice(["x.ts", "a.md", "y.php"]))
        while path in files:
            path = "z/" + path
        out.extend(_cases("generated", f"g{p}", _marked(files), [path]))
    return out


def cases() -> list[Case]:
    return realistic() + generated()


# The projects and paths binary.mjs also runs through the `gemini` command against a fake model:
# settings naming a list, a folder git ignores (written, as the read tool refuses it), imports.
BINARY = {("names-list", "app/Models/User.php"), ("ignored", "local/a.ts"), ("imports", "app/Models/User.php")}


def binary_cases() -> list[Case]:
    return [c for c in realistic() if (c.name.split(":")[0], c.path) in BINARY and "marker" in c.extra]


def rulelens_answers(all_cases: list[Case]) -> list[Any]:
    """rulelens's answers, from the core call `match --agents --json` makes (one project read
    per set of files, then each path): "always" for a file it loads always, True for one it
    loads for the path's folder chain, False otherwise."""
    from rulelens.agents.project import AgentProject
    from rulelens.agents.traps import agent_problems
    from rulelens.rules.repository import RuleRepository

    groups: dict[str, list[int]] = {}
    for i, c in enumerate(all_cases):
        groups.setdefault(json.dumps(c.files, sort_keys=True), []).append(i)
    answers: list[Any] = [None] * len(all_cases)
    for members in groups.values():
        paths = sorted({all_cases[i].path for i in members})
        with tempfile.TemporaryDirectory() as tmp:
            # An empty template: git's sample hooks are most of the time spent writing and removing.
            subprocess.run(["git", "init", "-q", "--template=", tmp], check=True)
            root = write_project(Path(tmp), {**dict.fromkeys(paths, "x\n"), **all_cases[members[0]].files})
            project = AgentProject(RuleRepository(root))
            views = {path: project.view(path) for path in paths}
            problems = agent_problems(project)
            failed = {(p.file, p.message) for p in problems if p.code == "gemini-cli-import-failed"}
            stops = any(p.code == "gemini-settings-invalid" and "does not start" in p.message for p in problems)
        for i in members:
            x = all_cases[i].extra
            if x.get("fails"):
                answers[i] = stops
                continue
            if "failed" in x:
                answers[i] = any(file == x["file"] and f"`@{x['failed']}`" in message for file, message in failed)
                continue
            how = {load.file: load.how for load in views[all_cases[i].path].loads.get(AGENT, [])}
            got = how.get(x["file"])
            answers[i] = "always" if got == "always" else got is not None
    return answers
