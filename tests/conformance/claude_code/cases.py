"""Claude Code's conformance cases: a rule's `paths` value (as its frontmatter parses) and a
path; the answer is "always" (the rule loads for every file), or whether it loads for the path.

Realistic cases are answered by rulelens through `rulelens match --agents --json` on a project
holding one rule file per value; generated ones through the same core call `match` makes
(`ClaudeCode.decide`), which is what keeps thousands of them fast.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

from rulelens.agents.formats.claude_code import rule_patterns
from rulelens.glob_engines import ignore_js
from tests.conformance.harness import Case, write_project

PACKAGE = "@anthropic-ai/claude-code-linux-x64"
EXPLAINED: dict[str, str] = {}

# What rule files in real projects write (the corpus's shapes), and the traps the code shows.
REALISTIC_VALUES: list[Any] = [
    "*.md", "app/**", "x/*", "SRC/*.TS", "./src/*.ts", "**", "", [], ["**"], "src/**, lib/**",
    "src/{api,web}/**", ["**/*.php"], ["app/Models/**"], ["resources/js/**/*.vue"],
    ["tests/**/*Test.php"], "*.{ts,tsx}", [".github/workflows/*.yml"], ["src/**", "!src/gen/**"],
    "docs/", "/app/**", ["**/Controllers/**"], ["app/Http/Controllers/**/*.php", "routes/*.php"],
    ["database/migrations/**"], "**/*.test.ts", ["packages/*/src/**"], "src/**/*.{js,jsx,ts,tsx}",
    ["*.config.{js,ts}"], 42, {"a": 1}, ["src/**/*.ts", 7], "Dockerfile", ["**/*.py"],
    "apps/web/**", ["lib/**/*.rb", "spec/**/*_spec.rb"], "[a-c]*.md", "src/?.ts",
    # Braces as teams nest them, and left open: 2.1.337 expands by depth, earlier releases did not.
    "src/{api,{web,gen}}/**", "**/*.{ts,{tsx,js}}", ["{src,lib}/**/*.{ts,tsx}"], "src/{api,web", "src/{}/*.ts",
    "{app,{lib,src}/x}/*.ts",
]
REALISTIC_PATHS = [
    "docs/a.md", "README.md", "lib/app/x.ts", "app/Models/User.php", "app/Http/Controllers/Api/UserController.php",
    "x/y/z.ts", "x/a.ts", "src/a.ts", "src/api/users.ts", "src/web/page.tsx", "src/gen/types.ts",
    "resources/js/components/Button.vue", "tests/Feature/UserTest.php", "routes/web.php",
    ".github/workflows/ci.yml", "database/migrations/2024_01_01_create_users.php", "src/util.test.ts",
    "packages/core/src/index.ts", "vite.config.ts", "Dockerfile", "scripts/build.py", "apps/web/app/page.tsx",
    "lib/models/user.rb", "spec/models/user_spec.rb", "b.md", "SRC/A.TS", "src/a.js",
]


def realistic() -> list[Case]:
    return [Case("realistic", f"r{i}-{j}", path, extra={"paths": value})
            for i, value in enumerate(REALISTIC_VALUES) for j, path in enumerate(REALISTIC_PATHS)]


SEGMENTS = ["a", "b", "src", "Src", "*", "**", "*.ts", "a*", "?", "[ab]", "{a,b}", ".x", "x.TS", "lib", "*.md",
            "{a,{b,src}}", "{x,y"]
PATH_SEGMENTS = ["a", "b", "src", "SRC", "lib", ".x", "x.ts", "a.ts", "b.md", "x.TS", "ab"]


def _pattern(rng: random.Random) -> str:
    text = "/".join(rng.choice(SEGMENTS) for _ in range(rng.randint(1, 4)))
    return rng.choice(["", "", "", "./", "/", "!", "**/"]) + text + rng.choice(["", "", "/", "/**"])


def generated(count: int = 3000, seed: int = 2026) -> list[Case]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        patterns = [_pattern(rng) for _ in range(rng.randint(1, 3))]
        shape = rng.choice(["string", "list", "comma"])
        value: Any = (patterns[0] if shape == "string" else patterns if shape == "list" else ", ".join(patterns))
        path = "/".join(rng.choice(PATH_SEGMENTS) for _ in range(rng.randint(1, 4)))
        out.append(Case("generated", f"g{i}", path, extra={"paths": value}))
    return out


def cases() -> list[Case]:
    return realistic() + generated()


def core_answer(value: Any, path: str) -> Any:
    """What `ClaudeCode.decide` answers for a rule with this `paths` value."""
    found = rule_patterns(value)
    if found is None:
        return "always"
    return not path.startswith("..") and ignore_js.ignores(found, path)


def _match_answers(chunk: list[Case]) -> list[Any]:
    """`rulelens match --agents --json` on a project with one rule file per distinct value."""
    values: dict[str, int] = {}
    for c in chunk:
        values.setdefault(json.dumps(c.extra["paths"]), len(values))
    files = {f".claude/rules/r{n}.md": "---\n" + yaml.safe_dump({"paths": json.loads(v)}) + "---\n# Rule\n\nText.\n"
             for v, n in values.items()}
    paths = sorted({c.path for c in chunk})
    with tempfile.TemporaryDirectory() as tmp:
        root = write_project(Path(tmp), {**files, **{p: "x\n" for p in paths}})
        done = subprocess.run([sys.executable, "-m", "rulelens", "--root", str(root), "match", "--agents",
                               "--json", *paths], capture_output=True, text=True, check=True)
    loads = {item["path"]: {x["file"]: x["how"] for x in item["agents"].get("claude-code", [])}
             for item in json.loads(done.stdout)}
    out: list[Any] = []
    for c in chunk:
        how = loads[c.path].get(f".claude/rules/r{values[json.dumps(c.extra['paths'])]}.md")
        out.append("always" if how == "always" else how == "glob")
    return out


def rulelens_answers(all_cases: list[Case]) -> list[Any]:
    by_kind = [c for c in all_cases if c.kind == "realistic"]
    through_match = dict(zip((c.name for c in by_kind), _match_answers(by_kind), strict=True))
    return [through_match[c.name] if c.name in through_match else core_answer(c.extra["paths"], c.path)
            for c in all_cases]
