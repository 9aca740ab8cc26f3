"""Copilot in VS Code's conformance cases: a workspace folder with instruction files (one
`applyTo` value each in `.github/instructions`, one `paths` value each in `.claude/rules`) and the
files VS Code attaches to every request, and a path attached to the chat; each case asks about
one file. The answer is "always" (attached to every request), True (attached for the path) or
False.

rulelens answers through `rulelens match --agents --json` on the same project (`always` for a
file it loads for every path, `glob` for one it loads for this path).
"""

from __future__ import annotations

import json
from typing import Any

from tests.conformance.harness import Case, answers_through_match, generated_projects, marked_files

# VS Code is not on npm; @codingame/monaco-vscode-api ships its workbench code compiled, and the
# chat service's package pins the release that holds the chat's instruction code (the API's 37.x
# releases no longer carry it), so the version watch follows the chat package.
PACKAGE = "@codingame/monaco-vscode-chat-service-override"
EXPLAINED: dict[str, str] = {}
NONE = object()  # no frontmatter at all

# `applyTo` values as instruction files write them (None: no `applyTo`; a list VS Code ignores).
APPLY_TO: list[Any] = [
    "**/*", "**/*.cs", "**/Documentation/**/*.{md,mdx}", "**/for_*/**/*.cs, **/when_*/**/*.cs", "**/*.ts,**/*.tsx",
    ".ai/**,.github/**,AGENTS.md,README.md", "**/*.{ts,tsx}", "*.md", "src/*.ts", "src/**", "**", "*", "",
    None, NONE, "*.py,*.md", "./src/*.ts", "SRC/*.TS", ".github/**", "a.ts", "app/Models/**",
    "tests/**/*Test.php", "docs/*.md", "/src/**", "src/**/*.ts", ["**/*.ts"], "src/{a,b}/*.ts, lib/**",
]
# `paths` values as Claude Code rules write them (None: no `paths`, so VS Code reads `**`).
PATHS: list[Any] = [
    ["src/**"], ["**/*.ts", "lib/**"], "app/Models/**", None, NONE, [], ["*.md"], ["SRC/*.TS"],
    ["src/**/*.{ts,tsx}"], "src/**, docs/**",
]
# Frontmatters as written, some of which YAML refuses and VS Code's own reader takes.
RAW_RULES = ["paths:\n  - **/*.ts", "paths: **/*.ts", "paths:", "paths: ~", "paths: {a: 1}",
             "paths:\n  - src/**\n  -\n  - lib/**", "description: x\npaths: [src/**", "paths: [7, true]",
             "paths:\n  - 'src/**'\n  - *.md"]
RAW_INSTRUCTIONS = ["applyTo: **/*.ts", "applyTo:", "applyTo: src/**, lib/**", "applyTo: [\"*.md\"]",
                    "applyTo: '*.md'\ndescription: *x"]
PROJECT_PATHS = [
    "docs/a.md", "README.md", "src/a.ts", "src/x/b.ts", "lib/a.ts", "x/a.ts", ".github/workflows/ci.yml",
    "app/Models/User.php", "tests/Unit/FooTest.php", "pkg/src/a.ts", "a.py", "src/comp.tsx", "SRC/A.TS",
    "Documentation/guide/a.mdx", "for_x/y/a.cs", "src/a/x.ts",
]
# The files VS Code attaches to every request, and files it does not read at all: nested
# `AGENTS.md` (`chat.useNestedAgentsMdFiles` is off), another folder's instruction folders, a
# README in `.claude/rules`, a Markdown file in `.github/instructions` without the suffix.
EXTRA_FILES = {
    "AGENTS.md": "RULE-MARK-agents-END\n",
    "CLAUDE.md": "RULE-MARK-claude-END\n",
    "CLAUDE.local.md": "RULE-MARK-claudelocal-END\n",
    ".claude/CLAUDE.md": "RULE-MARK-dotclaude-END\n",
    ".github/copilot-instructions.md": "RULE-MARK-copilot-END\n",
    "pkg/AGENTS.md": "RULE-MARK-pkgagents-END\n",
    "pkg/CLAUDE.md": "RULE-MARK-pkgclaude-END\n",
    "pkg/.github/instructions/nested.instructions.md": '---\napplyTo: "**"\n---\nRULE-MARK-nested-END\n',
    "pkg/.claude/rules/nested.md": "RULE-MARK-nestedrule-END\n",
    ".claude/rules/README.md": "RULE-MARK-readme-END\n",
    ".claude/rules/sub/deep.md": '---\npaths: ["src/**"]\n---\nRULE-MARK-deep-END\n',
    ".github/instructions/notes.md": '---\napplyTo: "**"\n---\nRULE-MARK-notes-END\n',
    ".github/instructions/a/b/c/d/e/five.instructions.md": '---\napplyTo: "**"\n---\nRULE-MARK-five-END\n',
    ".github/instructions/a/b/c/d/e/f/six.instructions.md": '---\napplyTo: "**"\n---\nRULE-MARK-six-END\n',
    ".claude/rules/ts.instructions.md": '---\napplyTo: "**/*.ts"\n---\nRULE-MARK-claudeapply-END\n',
}
# A workspace whose file names differ in case: VS Code finds them all the same.
CASE_FILES = {"agents.md": "RULE-MARK-lower-END\n", "Claude.md": "RULE-MARK-mixed-END\n",
              ".github/Copilot-Instructions.md": "RULE-MARK-mixedcopilot-END\n"}


def _file(key: str, value: Any, marker: str) -> str:
    if value is NONE:
        return f"{marker}\n"
    head = "" if value is None else f"{key}: {json.dumps(value)}\n"
    return f"---\n{head}description: case\n---\n{marker}\n"


def _project(apply_to: list[Any], paths: list[Any],
             extra: dict[str, str]) -> tuple[dict[str, str], list[tuple[str, str]]]:
    files, asked = marked_files(".github/instructions", ".instructions.md",
                                [_file("applyTo", v, "{marker}") for v in apply_to])
    rules, more = marked_files(".claude/rules", ".md", [_file("paths", v, "{marker}") for v in paths])
    asked += more + [(rel, text.strip().rpartition("\n")[2]) for rel, text in extra.items()]
    return {**extra, **files, **rules}, asked


def _raw(folder: str, suffix: str, frontmatters: list[str]) -> dict[str, str]:
    return {f"{folder}/raw{i}{suffix}": f"---\n{fm}\n---\nRULE-MARK-raw{suffix[1:3]}{i}-END\n"
            for i, fm in enumerate(frontmatters)}


def realistic() -> list[Case]:
    out: list[Case] = []
    raw = {**_raw(".claude/rules", ".md", RAW_RULES), **_raw(".github/instructions", ".instructions.md",
                                                             RAW_INSTRUCTIONS)}
    for project, paths in ((_project(APPLY_TO, PATHS, {**EXTRA_FILES, **raw}), PROJECT_PATHS),
                           (_project([], [], CASE_FILES), ["src/a.ts"])):
        files, asked = project
        out += [Case("realistic", f"r-{rel}-{path}", path, files, {"marker": marker, "file": rel})
                for path in paths for rel, marker in asked]
    return out


SEGMENTS = ["a", "b", "src", "Src", "*", "**", "*.ts", "a*", "?", "[ab]", "{a,b}", ".x", "x.TS", "*.md",
            "[!a]*", "{a,b/c}"]
PATH_SEGMENTS = ["a", "b", "src", "Src", ".x", "x.ts", "a.ts", "b.md", "x.TS", "ab", "c"]


def _generated(values: list[Any]) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """A string value is an `applyTo` (two of them joined by a comma, as people list them); a list
    is a `.claude/rules` file's `paths`."""
    strings = [v if i % 3 else f"{v}, {values[i - 1] if isinstance(values[i - 1], str) else '*.md'}"
               for i, v in enumerate(values) if isinstance(v, str)]
    return _project(strings, [v for v in values if isinstance(v, list)], {})


def generated(paths: int = 40, patterns: int = 30, seed: int = 2026) -> list[Case]:
    return generated_projects(_generated, SEGMENTS, PATH_SEGMENTS, ["", "", "", "./", "/", "**/"], 0.7,
                              paths, patterns, seed)


def cases() -> list[Case]:
    return realistic() + generated()


def rulelens_answers(all_cases: list[Case]) -> list[Any]:
    return answers_through_match(all_cases, "copilot")
