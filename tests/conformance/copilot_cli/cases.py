"""Copilot CLI's conformance cases: a project of instruction files (one `applyTo` value each)
and a path the agent views; each case asks about one file. The answer is "always" (pasted into
the prompt at start), True (injected after the view) or False.

rulelens answers through `rulelens match --agents --json` on the same project (`always` for a
file it loads at start, `glob` or `directory` for one it loads for the path: a folder's files
below the root arrive after the view, never at start).
"""

from __future__ import annotations

import json
from typing import Any

from tests.conformance.harness import Case, answers_through_match, generated_projects, marked_files

PACKAGE = "@github/copilot-linux-x64"
EXPLAINED: dict[str, str] = {}
NONE = object()  # no frontmatter at all

REALISTIC_VALUES: list[Any] = [
    "*.md", "**/*.ts", "src/*.ts", "src/**", "**", "*", "**/*", "", None, "*.py,*.md",
    ["src/**", "lib/**"], ["*.ts, *.js"], "./src/*.ts", "SRC/*.TS", ".github/**", "a.ts",
    "app/Models/**", "**/*.{ts,tsx}", "tests/**/*Test.php", "docs/*.md", "/src/**", "src/**/*.ts",
]
REALISTIC_PATHS = [
    "docs/a.md", "README.md", "src/a.ts", "src/x/b.ts", "lib/a.ts", "x/a.ts", ".github/workflows/ci.yml",
    "app/Models/User.php", "tests/Unit/FooTest.php", "pkg/src/a.ts", "a.py", "src/comp.tsx", "docs/x/a.md",
    "SRC/A.TS", "pkg/README.md", "pkg/src/deep/b.ts", "app/Http/Kernel.php",
]
# A monorepo's folders and a Laravel app's: every file Copilot CLI reads below the root, each
# arriving after a view of a file below its folder, patterns read from the repository root.
NESTED_FILES = {
    "pkg/AGENTS.md": "RULE-MARK-pkg-agents-END\n",
    "pkg/CLAUDE.md": "RULE-MARK-pkg-claude-END\n",
    "pkg/GEMINI.md": "RULE-MARK-pkg-gemini-END\n",
    "pkg/.github/copilot-instructions.md": "RULE-MARK-pkg-copilot-END\n",
    "pkg/.github/instructions/from-root.instructions.md":
        '---\napplyTo: "pkg/src/**"\n---\nRULE-MARK-pkg-ins-root-END\n',
    "pkg/.github/instructions/every.instructions.md": '---\napplyTo: "**"\n---\nRULE-MARK-pkg-ins-every-END\n',
    "pkg/.github/instructions/bare.instructions.md": "RULE-MARK-pkg-ins-bare-END\n",
    "pkg/.github/instructions/by-name.instructions.md": '---\napplyTo: "*.ts"\n---\nRULE-MARK-pkg-ins-name-END\n',
    "pkg/.claude/rules/from-root.md": '---\npaths: "pkg/src/**"\n---\nRULE-MARK-pkg-rule-root-END\n',
    "pkg/.claude/rules/relative.md": '---\npaths: "src/**"\n---\nRULE-MARK-pkg-rule-rel-END\n',
    "pkg/.claude/rules/every.md": "RULE-MARK-pkg-rule-every-END\n",
    "pkg/.claude/rules/deep/deeper.md": "RULE-MARK-pkg-rule-deep-END\n",
    ".claude/rules/deep/root-deep.md": '---\npaths: "app/**"\n---\nRULE-MARK-root-rule-deep-END\n',
    "app/Models/CLAUDE.md": "RULE-MARK-models-claude-END\n",
    "app/Models/AGENTS.md": "RULE-MARK-models-agents-END\n",
    "app/.github/instructions/php.instructions.md":
        '---\napplyTo: "app/**/*.php"\n---\nRULE-MARK-app-ins-php-END\n',
}
# Beside the values: a file the CLI must not see, Claude Code's rule it reads as its own, and a
# nested instructions folder whose `applyTo` is read from the repository root.
EXTRA_FILES = {
    **NESTED_FILES,
    ".github/instructions/hidden.instructions.md":
        '---\napplyTo: "**"\nexcludeAgent: "coding-agent"\n---\nRULE-MARK-hidden-END\n',
    ".github/instructions/cloud.instructions.md":
        '---\napplyTo: "src/**"\nexcludeAgent: ["cloud-agent"]\n---\nRULE-MARK-cloud-END\n',
    ".github/instructions/review.instructions.md":
        '---\napplyTo: "src/**"\nexcludeAgent: "code-review"\n---\nRULE-MARK-review-END\n',
    ".claude/rules/claude.md": '---\npaths:\n  - "src/**"\n---\nRULE-MARK-claude-END\n',
    "pkg/.github/instructions/nested.instructions.md": '---\napplyTo: "src/*.ts"\n---\nRULE-MARK-nested-END\n',
}


def _file(value: Any, marker: str) -> str:
    if value is NONE:
        return f"{marker}\n"
    head = "" if value is None else f"applyTo: {json.dumps(value)}\n"
    return f"---\n{head}description: case\n---\n{marker}\n"


def _project(values: list[Any], extra: dict[str, str]) -> tuple[dict[str, str], list[tuple[str, str]]]:
    files, asked = marked_files(".github/instructions", ".instructions.md", [_file(v, "{marker}") for v in values])
    asked += [(rel, text.strip().rpartition("\n")[2]) for rel, text in extra.items()]
    return {**extra, **files}, asked


def realistic() -> list[Case]:
    files, asked = _project(REALISTIC_VALUES, EXTRA_FILES)
    return [Case("realistic", f"r-{rel}-{path}", path, files, {"marker": marker, "file": rel})
            for path in REALISTIC_PATHS for rel, marker in asked]


SEGMENTS = ["a", "b", "src", "Src", "*", "**", "*.ts", "a*", "?", "[ab]", "{a,b}", ".x", "x.TS", "*.md"]
PATH_SEGMENTS = ["a", "b", "src", "Src", ".x", "x.ts", "a.ts", "b.md", "x.TS", "ab"]


def generated(paths: int = 36, patterns: int = 30, seed: int = 2026) -> list[Case]:
    return generated_projects(lambda values: _project(values, {}), SEGMENTS, PATH_SEGMENTS, ["", "", "", "./", "/", "**/"], 0.8,
                              paths, patterns, seed)


# `@path` imports: each case asks about an imported file (its marker is only in it). Copilot CLI
# inlines what it imports in the importer's place, eight levels deep.
IMPORT_FILES = {
    "AGENTS.md": ("# Project\nRead @docs/conventions.md first.\nSee `@docs/span.md`.\n```\n@docs/fence.md\n```\n"
                  "\n    @docs/indented.md\n\n<!-- @docs/comment.md -->\n@./docs/dot.md\n@missing.md\n@../outside.md\n"
                  "mail a@docs/mail.md\n@docs/chain1.md\n@docs/\n@~/home.md\n(@docs/paren.md), @docs/trail.md.\n"
                  "**@docs/bold.md**\n@docs/page.md#part\n"),
    "CLAUDE.md": "Open @.ai/rules/index.md before you start.\nPrompts: @.ai/prompts/\n",
    ".github/copilot-instructions.md": "Style: @style.md\n",
    # Instruction files and Claude Code's rules are sent as written: their imports load nothing.
    ".github/instructions/src.instructions.md": '---\napplyTo: "src/**"\n---\nSource @../../docs/src.md\n',
    ".github/instructions/all.instructions.md": '---\napplyTo: "**"\n---\nAll @../../docs/all.md\n',
    ".claude/rules/r.md": "Rule @../../docs/rule.md\n",
    **{f"docs/{n}.md": f"RULE-MARK-{n}-END\n" for n in (
        "conventions", "span", "fence", "indented", "comment", "dot", "mail", "paren", "trail", "bold", "page",
        "src", "all", "rule")},
    **{f"docs/chain{i}.md": f"RULE-MARK-chain{i}-END @chain{i + 1}.md\n" for i in range(1, 11)},
    ".ai/rules/index.md": "RULE-MARK-index-END\n",
    # a folder import: neither agent reads the files in the folder
    ".ai/prompts/a.md": "RULE-MARK-prompta-END\n",
    ".ai/prompts/b.md": "RULE-MARK-promptb-END\n",
    ".github/style.md": "RULE-MARK-style-END\n",
}
IMPORT_PATHS = ["src/a.ts", "README.md"]


def imports() -> list[Case]:
    asked = [(rel, text.split()[0]) for rel, text in IMPORT_FILES.items() if text.startswith("RULE-MARK-")]
    return [Case("realistic", f"i-{rel}-{path}", path, IMPORT_FILES, {"marker": marker, "file": rel})
            for path in IMPORT_PATHS for rel, marker in asked]


def cases() -> list[Case]:
    return realistic() + imports() + generated()


def rulelens_answers(all_cases: list[Case]) -> list[Any]:
    return answers_through_match(all_cases, "copilot-cli", directory=True)
