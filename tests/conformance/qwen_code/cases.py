"""Qwen Code's conformance cases: a project of `.qwen/rules` files (one `paths` value each, some
with frontmatter Qwen Code's YAML parser refuses) with `QWEN.md`/`AGENTS.md` files, and a path a
tool touches; each case asks about one file: "always" (loaded at start), True (injected for the
path) or False. rulelens answers through `rulelens match --agents --json`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from tests.conformance.harness import Case, answers_through_match, generated_projects, marked_files

PACKAGE = "@qwen-code/qwen-code"
EXPLAINED: dict[str, str] = {}
_MARK = re.compile(r"RULE-MARK-\S+?-END")

# `paths` values as real rule files write them (None: no `paths`), and frontmatters as written.
REALISTIC_VALUES: list[Any] = [
    "*.md", "**/*.ts", "src/*.ts", "src/**", "**", "*", "", None, "src/**, docs/**", ["src/**", "lib/**"],
    ["*.ts, *.js"], "./src/*.ts", "SRC/*.TS", ".github/**", "a.ts", "app/Models/**", "**/*.{ts,tsx}",
    "tests/**/*Test.php", "docs/*.md", "/src/**", ["!src/gen/**", "src/**"], [], [7], 42,
]
RAW_FRONTMATTERS = [
    "paths:\n  - **/*.ts",              # YAML refuses the alias: the simple line parser reads the item
    "paths: **/*.ts",                   # refused too: the simple parser reads the string
    "paths:\n    - src/**",             # four spaces: the simple parser finds no item
    "description: x\npaths: [src/**",   # unclosed flow list
]
REALISTIC_PATHS = [
    "docs/a.md", "README.md", "src/a.ts", "src/x/b.ts", "lib/a.ts", "x/a.ts", ".github/workflows/ci.yml",
    "app/Models/User.php", "tests/Unit/FooTest.php", "pkg/src/a.ts", "src/gen/t.ts", "src/comp.tsx",
    "docs/x/a.md", "SRC/A.TS", "7",
]
EXTRA_FILES = {
    "QWEN.md": "RULE-MARK-qwen-END\n",
    "AGENTS.md": "RULE-MARK-agents-END\n",
    "pkg/QWEN.md": "RULE-MARK-pkgqwen-END\n",
    "pkg/AGENTS.md": "RULE-MARK-pkgagents-END\n",
    ".qwen/rules/blank.md": '---\npaths: ["src/**"]\n---\n<!-- RULE-MARK-blank-END -->\n',
    ".qwen/rules/sub/nested.md": '---\npaths: ["src/**"]\n---\nRULE-MARK-nested-END\n',
}


def _rule(value: Any) -> str:
    if value is None:
        return "{marker}\n"
    return f"---\npaths: {json.dumps(value)}\n---\n{{marker}}\n"


def _project(texts: list[str], extra: dict[str, str]) -> tuple[dict[str, str], list[tuple[str, str]]]:
    files, asked = marked_files(".qwen/rules", ".md", texts)
    asked += [(rel, _MARK.findall(text)[0]) for rel, text in extra.items()]
    return {**extra, **files}, asked


def realistic() -> list[Case]:
    texts = [_rule(v) for v in REALISTIC_VALUES] + [f"---\n{fm}\n---\n{{marker}}\n" for fm in RAW_FRONTMATTERS]
    files, asked = _project(texts, EXTRA_FILES)
    return [Case("realistic", f"r-{rel}-{path}", path, files, {"marker": marker, "file": rel})
            for path in REALISTIC_PATHS for rel, marker in asked]


SEGMENTS = ["a", "b", "src", "Src", "*", "**", "*.ts", "a*", "?", "[ab]", "{a,b}", ".x", "x.TS", "*.md", "!(a)"]
PATH_SEGMENTS = ["a", "b", "src", "Src", ".x", "x.ts", "a.ts", "b.md", "x.TS", "ab"]


def generated(paths: int = 60, patterns: int = 30, seed: int = 2026) -> list[Case]:
    return generated_projects(lambda values: _project([_rule(v) for v in values], {}), SEGMENTS, PATH_SEGMENTS, ["", "", "", "./", "/", "**/", "!"], 0.7,
                              paths, patterns, seed)


# `@path` imports in `QWEN.md` and `AGENTS.md`: each case asks about an imported file (its marker
# is only in it). Qwen Code inlines what it imports in the importer's place, five levels deep.
IMPORT_FILES = {
    "QWEN.md": ("# Project\nRead @docs/conventions.md first.\nSee `@docs/span.md`.\n```\n@docs/fence.md\n```\n"
                "\n    @docs/indented.md\n\n<!-- @docs/comment.md -->\n@./docs/dot.md\n@missing.md\n@../outside.md\n"
                "mail a@docs/mail.md\n@docs/chain1.md\n@docs/\n@~/home.md\n@docs/page.md#part\n"),
    "AGENTS.md": "Open @.ai/rules/index.md before you start.\nPrompts: @.ai/prompts/\n",
    "pkg/QWEN.md": "Package @local.md\n",
    ".qwen/rules/r.md": '---\npaths: ["src/**"]\n---\nRule @../../docs/ruleimp.md\n',
    **{f"docs/{n}.md": f"RULE-MARK-{n}-END\n" for n in (
        "conventions", "span", "fence", "indented", "comment", "dot", "mail", "ruleimp", "page")},
    **{f"docs/chain{i}.md": f"RULE-MARK-chain{i}-END @chain{i + 1}.md\n" for i in range(1, 8)},
    ".ai/rules/index.md": "RULE-MARK-index-END\n",
    # a folder import: neither agent reads the files in the folder
    ".ai/prompts/a.md": "RULE-MARK-prompta-END\n",
    ".ai/prompts/b.md": "RULE-MARK-promptb-END\n",
    "pkg/local.md": "RULE-MARK-pkglocal-END\n",
}
IMPORT_PATHS = ["src/a.ts", "pkg/a.ts", "README.md"]


def imports() -> list[Case]:
    asked = [(rel, _MARK.findall(text)[0]) for rel, text in IMPORT_FILES.items() if _MARK.search(text)]
    return [Case("realistic", f"i-{rel}-{path}", path, IMPORT_FILES, {"marker": marker, "file": rel})
            for path in IMPORT_PATHS for rel, marker in asked]


def cases() -> list[Case]:
    return realistic() + imports() + generated()


def rulelens_answers(all_cases: list[Case]) -> list[Any]:
    return answers_through_match(all_cases, "qwen-code")
