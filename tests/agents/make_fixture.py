"""Writes tests/agents/fixtures/all_agents; then run `rulelens --root tests/agents/fixtures/all_agents index`.

The files are committed as they are; this script documents how they were made and remakes them.
"""
from pathlib import Path

ROOT = Path(__file__).parent / "fixtures" / "all_agents"
MODELS = "# Models\n\n## Money is stored as integer cents\nStore amounts in `*_cents` integer columns. Never use floats for money.\n"
FILES = {
    "app/Models/Invoice.php": "<?php\n",
    "app/Models/User.php": "<?php\n",
    "app/Http/Controllers/InvoiceController.php": "<?php\n",
    "src/api/users.ts": "export const users = [];\n",
    "src/components/Button.tsx": "export const Button = () => null;\n",
    "src/main.py": "print('main')\n",
    "lib/src/util.py": "def util():\n    pass\n",
    "docs/guide.md": "# Guide\n",
    "packages/web/index.ts": "export {};\n",
    "packages/api/server.ts": "export {};\n",
    "packages/big/app.ts": "export {};\n",
    # Boost
    ".ai/rules/models.md": "---\npaths:\n  - 'app/Models/**'\n---\n\n" + MODELS,
    ".ai/rules/glossary.md": "# Glossary\n\n## Invoice\nA bill sent to a customer; never deleted, only voided.\n",
    # Claude Code
    "CLAUDE.md": "# Project\n\nRun `composer test` before committing.\n",
    ".claude/rules/api.md": "---\npaths:\n  - \"src/api/**\"\n---\n\n# API\n\n## Validate input\nValidate every request body with zod.\n",
    ".claude/rules/always.md": "# Style\n\n## Names\nUse full words in names.\n",
    ".claude/rules/broken.md": "---\npaths:\n  - **/*.ts\n---\n\n# TypeScript\n\n## Strict\nEnable strict mode.\n",
    ".claude/rules/models.md": "---\npaths:\n  - \"app/Models/Invoice.php\"\n---\n\n" + MODELS,
    # Copilot (VS Code)
    ".github/copilot-instructions.md": "# Repository\n\nUse pnpm.\n",
    ".github/instructions/python.instructions.md": "---\napplyTo: \"src/*.py\"\n---\n\n# Python\n\nUse type hints.\n",
    ".github/instructions/all.instructions.md": "---\napplyTo: \"**\"\n---\n\n# Everywhere\n\nBe brief.\n",
    ".github/instructions/described.instructions.md": "---\ndescription: \"How to write migrations\"\n---\n\n# Migrations\n\nKeep them reversible.\n",
    ".github/instructions/anchored.instructions.md": "---\napplyTo: \"/src/**\"\n---\n\n# Anchored\n\nNever matches in VS Code.\n",
    # Copilot CLI: also the instruction files of the folders on the way to a file; `excludeAgent`
    # keeps a file from the coding agent, which the CLI is taken to be (VS Code ignores the key).
    ".github/instructions/review.instructions.md": "---\napplyTo: \"src/api/**\"\nexcludeAgent: \"coding-agent\"\n---\n\n# Review\n\nCheck status codes.\n",
    "packages/web/.github/copilot-instructions.md": "# Web (Copilot)\n\nUse the design tokens.\n",
    # Cursor
    ".cursor/rules/always.mdc": "---\ndescription: Always\nalwaysApply: true\n---\n\n# Always\n\nBe kind.\n",
    ".cursor/rules/components.mdc": "---\ndescription: React components\nglobs: src/components/**/*.tsx\nalwaysApply: false\n---\n\n# Components\n\nUse function components.\n",
    ".cursor/rules/unquoted.mdc": "---\nglobs: **/*.ts, **/*.tsx\nalwaysApply: false\n---\n\n# TypeScript files\n\nPrefer `unknown` to `any`.\n",
    ".cursor/rules/described.mdc": "---\ndescription: Release process\nalwaysApply: false\n---\n\n# Releases\n\nTag from main.\n",
    ".cursor/rules/manual.mdc": "# Manual\n\nOnly when @-mentioned.\n",
    # Windsurf / Devin
    ".windsurf/rules/always.md": "---\ntrigger: always_on\n---\n\n# Always on\n\nExplain before editing.\n",
    ".windsurf/rules/glob.md": "---\ntrigger: glob\nglobs: \"**/*.ts\"\n---\n\n# TS glob\n\nNo default exports.\n",
    ".windsurf/rules/docs.md": "---\ntrigger: glob\nglobs:\n  - \"docs/**\"\n---\n\n# Docs\n\nWrite short sentences.\n",
    ".windsurf/rules/model.md": "---\ntrigger: model_decision\ndescription: Database work\n---\n\n# Database\n\nUse transactions.\n",
    ".windsurf/rules/manual.md": "---\ntrigger: manual\n---\n\n# Manual\n\nOnly when @-mentioned.\n",
    # Kiro
    ".kiro/steering/product.md": "# Product\n\nAn invoicing app.\n",
    ".kiro/steering/api.md": "---\ninclusion: fileMatch\nfileMatchPattern: [\"src/api/**\"]\n---\n\n# API\n\n## Validate input\nValidate every request body with zod.\n",
    ".kiro/steering/comma.md": "---\ninclusion: fileMatch\nfileMatchPattern: \"src/**/*.ts,docs/**\"\n---\n\n# Comma\n\nNever loads.\n",
    ".kiro/steering/manual.md": "---\ninclusion: manual\n---\n\n# Manual\n\nOnly with #manual.\n",
    ".kiro/steering/auto.md": "---\ninclusion: auto\nname: deploy\ndescription: Deploying\n---\n\n# Deploy\n\nUse the pipeline.\n",
    # Continue
    ".continue/rules/always.md": "---\nname: Always\nalwaysApply: true\n---\n\n# Always\n\nBe precise.\n",
    ".continue/rules/general.md": "# General\n\nNo frontmatter: applies always.\n",
    ".continue/rules/ts.md": "---\nname: TypeScript\nglobs: \"src/**/*.ts\"\n---\n\n# TS\n\nUse strict.\n",
    ".continue/rules/exclude.md": "---\nname: Source not API\nglobs:\n  - \"src/**\"\n  - \"!src/api/**\"\n---\n\n# Source\n\nKeep modules small.\n",
    ".continue/rules/comma.md": "---\nname: Comma\nglobs: \"src/**,docs/**\"\n---\n\n# Comma\n\nMatches nothing in Continue.\n",
    ".continue/rules/off.md": "---\nname: Off\nalwaysApply: false\ndescription: Performance tuning\n---\n\n# Perf\n\nMeasure first.\n",
    # Cline
    ".clinerules/api.md": "---\npaths:\n  - \"src/api/**\"\n---\n\n# API\n\n## Validate input\nValidate every request body with zod.\n",
    ".clinerules/bare.md": "---\npaths: \"src/**\"\n---\n\n# Bare\n\nAlways on, by accident.\n",
    ".clinerules/never.md": "---\npaths: []\n---\n\n# Never\n\nSwitched off.\n",
    ".clinerules/general.md": "# General\n\nNo frontmatter: every request.\n",
    ".clinerules/legacy.md": "---\npaths:\n  - \"legacy/**\"\n---\n\n# Legacy\n\nNo such folder.\n",
    # Codex
    "AGENTS.md": "# Agents\n\nRun the tests before you finish. React: @docs/agents/react.md\n",
    "packages/web/AGENTS.md": "# Web\n\nUse the design system.\n",
    "packages/api/AGENTS.md": "# API (shadowed)\n\nNever read: the override wins.\n",
    "packages/api/AGENTS.override.md": "# API override\n\nRead instead of AGENTS.md.\n",
    "packages/big/AGENTS.md": "# Big\n\n" + "".join(f"- Instruction {i}: keep this line as it is.\n" for i in range(800)),
    # Claude Code skills
    ".claude/skills/api-review/SKILL.md": "---\nname: api-review\npaths:\n  - \"src/api/**\"\n---\n\n# API review\n\nCheck status codes.\n",
    # Gemini CLI
    "GEMINI.md": "# Gemini\n\nRun the linters.\n",
    "packages/web/GEMINI.md": "# Web (Gemini)\n\nUse the design system.\n",
    # Qwen Code
    "QWEN.md": "# Qwen\n\nKeep answers short.\n",
    ".qwen/rules/api.md": "---\npaths:\n  - \"src/api/**\"\n---\n\n# API\n\nValidate input.\n",
    # Google Antigravity
    ".agents/rules/ts.md": "---\ntrigger: glob\nglobs: \"src/**/*.ts\"\n---\n\n# TS\n\nNo default exports.\n",
    ".agents/rules/spec.md": "---\ntrigger: glob\nglobs: \"*.spec.ts\"\n---\n\n# Specs\n\nOne describe per file.\n",
    ".agents/rules/db.md": "---\ntrigger: model_decision\ndescription: Database work\n---\n\n# DB\n\nUse transactions.\n",
    # Firebender
    ".firebender/rules/models.mdc": "---\ndescription: Models\nglobs: \"app/Models/*.php, *.tsx\"\nalwaysApply: false\n---\n\n# PHP\n\nStrict types.\n",
    # OpenHands
    ".agents/skills/python/SKILL.md": "---\nname: python\npaths: \"*.py\"\n---\n\n# Python\n\nRun ruff.\n",
    ".openhands/microagents/repo.md": "# Repository\n\nUse make.\n",
    # Amp
    "docs/agents/react.md": "---\nglobs:\n  - \"*.tsx\"\n---\n\n# React\n\nFunction components.\n",
}

for rel, text in FILES.items():
    path = ROOT / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
