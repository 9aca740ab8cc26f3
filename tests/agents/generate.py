"""Seeded globs and paths for the differential tests against picomatch and minimatch."""

from __future__ import annotations

import random

NAMES = ("a", "b", "ab", ".h", "a.ts", "b.js", ".env", "x.test.ts", "A.TS")
PIECES = ("a", "b", "*", "?", "[ab]", "{a,b}", "*.ts", "*.{ts,js}", ".h", "a*", "*b", ".*", "x.*")


def glob(rng: random.Random) -> str:
    if rng.random() < 0.1:  # a dot segment after a second `**`, where minimatch 10 is particular
        return f"**/{rng.choice(PIECES)}/**/{rng.choice(('.h', '.*', '.env', '.h/a'))}"
    segments = []
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        segments.append("**" if roll < 0.25 else rng.choice(PIECES))
    text = "/".join(segments)
    if rng.random() < 0.1:
        text += "/"
    if rng.random() < 0.05:
        text = "./" + text
    return text


def path(rng: random.Random) -> str:
    return "/".join(rng.choice(NAMES) for _ in range(rng.randint(1, 4)))


def cases(seed: int, n: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    globs = [glob(rng) for _ in range(max(1, n // 8))]
    out = []
    for g in globs:
        for _ in range(8):
            out.append((g, path(rng)))
    return out


# Rule globs as people write them in each agent's key, and the paths of a mixed project. The
# cross product is the realistic set: every answer there must agree with the agent's matcher.
RULE_GLOBS = (
    "src/**", "src/**/*.ts", "src/**/*.{ts,tsx}", "**/*.{ts,tsx}", "*.ts", "*.{ts}", "**/*.{html}",
    "app/Models/**/*.php", "tests/**/*Test.php", "docs/**/*.md", "*.md", "**/*.md", "src/", "src",
    "**/*.test.ts", "**/*.test.{ts,tsx}", "packages/*/src/**", ".github/workflows/*.yml",
    "**/.env*", ".env*", "config/*.{json,yaml,yml}", "src/**/[!_]*.ts", "src/**/[^_]*.ts",
    "src/**/*.(ts|tsx)", "**/__tests__/**", "./src/**/*.ts", "resources/views/**/*.blade.php",
    "**/*.{js,jsx,ts,tsx}", "src/components/**/*.tsx", "lib/**/*.rb", "Dockerfile", "**/Dockerfile*",
    "*.config.{js,ts}", "migrations/**", "src/**/*.spec.ts", "[Mm]akefile", "src/**/!(*.test).ts",
    "+(src|lib)/**", "**/*.py", "api/**/*.go", "src/**/*", "**/src/**", "**/*", "**", "*",
    "src/generated/**", "!src/generated/**", "!**/*.test.ts", "src/*.ts", "**/components/*.tsx",
    "{src,lib}/**/*.ts", "src/{a,b}/**", "app/**/*.php", "**/*.blade.php", "tests/", "tests/**",
    "src/**/index.ts", "*.json", "**/package.json", "src/*/", "README.md", "readme.md",
)
PROJECT_PATHS = (
    "src", "src/index.ts", "src/generated/api.ts", "src/components/Button.tsx", "src/_internal.ts",
    "src/components/Button.test.tsx", "src/utils/__tests__/a.test.ts", "src/a/x.ts", "src/b/c/y.ts",
    "app/Models/User.php", "tests/Feature/UserTest.php", "tests", "docs/guide.md", "README.md",
    ".github/workflows/ci.yml", ".env", ".env.local", "config/app.json", "config/db.yaml",
    "packages/web/src/main.ts", "packages/web/package.json", "package.json", "Dockerfile",
    "docker/Dockerfile.dev", "Makefile", "lib/x.rb", "lib/util.ts", "resources/views/welcome.blade.php",
    "api/server.go", "migrations/001.sql", "vite.config.ts", "scripts/build.py", "index.html",
    "web/index.html", "SRC/Index.TS", "src/.hidden.ts", ".cursor/rules/a.mdc", "src/a.test.ts",
)
# Lists of globs, for the agents whose key takes several.
RULE_LISTS = (
    ("src/**", "!src/generated/**"), ("**/*.ts", "!**/*.test.ts"), ("src/**/*.ts", "tests/**"),
    ("!src/generated/**",), ("app/**", "routes/**/*.php"), ("*.md", "docs/**"),
)
# `applyTo` strings with several comma-separated globs, as Copilot users write them.
APPLY_TO = ("src/**/*.ts, tests/**", "**/*.ts,**/*.tsx", "*.{ts,tsx},*.md", "src/**,!src/generated/**")


def realistic(agent: str) -> list[tuple[str, str]]:
    """(value, path) pairs for `agent`: the value is the key as the agent's driver takes it
    (a JSON list for Cline, a JSON string or list for Continue, the `applyTo` text for Copilot)."""
    import json

    if agent == "cline":
        values = [json.dumps([g]) for g in RULE_GLOBS] + [json.dumps(list(v)) for v in RULE_LISTS]
    elif agent == "continue":
        values = [json.dumps(g) for g in RULE_GLOBS] + [json.dumps(list(v)) for v in RULE_LISTS]
    else:
        values = list(RULE_GLOBS) + list(APPLY_TO)
    return [(v, p) for v in values for p in PROJECT_PATHS]
