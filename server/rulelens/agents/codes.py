"""The codes of other agents' traps (docs/agents.md), beside Boost's format's (rules/check/codes.py).

The project configuration names codes (rules/check/config.py); with this list a misspelt one is
an error. Each agent declares its own codes, and each code has its words here (`WORDS`), which
SARIF's rules carry; tests/docs/test_codes_documented.py fails when a finding's code is declared
nowhere, tests/architecture/test_agent_model.py when a known code has no words.
"""

from __future__ import annotations

from rulelens.agents.base import SHARED_CODES
from rulelens.agents.registry import AGENT_IDS, AGENTS
from rulelens.rules.check.codes import CODES, Code

AGENT_CODES = SHARED_CODES.union(*(a.codes for a in AGENTS))


def known_codes() -> frozenset[str]:
    """Every code `check` and the language server can report."""
    return frozenset(CODES) | AGENT_CODES


def known_agents() -> tuple[str, ...]:
    """Every agent id the configuration's `agents` list may name."""
    return AGENT_IDS
# Each agent code's one-line summary and help text (SARIF's rules, beside Boost's format's in
# rules/check/codes.py), worded as docs/agents.md's table of traps says what the agent then does.
WORDS: dict[str, Code] = {
    "agent-budget-exceeded": Code(
        "An agent's files for a path are over its size cap.",
        "Codex reads an `AGENTS.md` chain up to 32 KiB (or the project's `project_doc_max_bytes`) and "
        "cuts the file that crosses it; Devin Desktop reads 12,000 characters of a rule file; Claude "
        "Code recommends about 200 lines for a `CLAUDE.md`. What is past the cap does not reach the "
        "model: split the file or move rules into path-scoped files."),
    "agent-glob-matches-nothing": Code(
        "An agent's glob matches no file in the project.",
        "Read with that agent's own matcher, the glob reaches no project file, so the rule does not load "
        "through it: a warning where every open reading of the matcher agrees, else `info` naming the "
        "reading under which it would match. Point the glob at the files the rule is about, or remove it."),
    "agent-yaml-invalid": Code(
        "An agent's rule file has frontmatter that is not valid YAML.",
        "The message says what that agent then does (Claude Code may load the rule for every file, Cline "
        "for every request; Copilot in VS Code never attaches it by pattern). Quote values that hold "
        "YAML's special characters, such as a list item `- '**/*.ts'`."),
    "agents-disagree": Code(
        "One rule, carried by two agents, reaches different files.",
        "The same rule (a link, a copy, or bodies at least 90% alike) is loaded for different project "
        "files by two agents' globs or triggers. Align the globs so that both agents load it for the "
        "same files; `rulelens check --fix` mends a repeated cause in every file."),
    "agent-same-text": Code(
        "An agent loads the same text twice for one path.",
        "Two files it loads hold the same text (a `CLAUDE.md` that is a link to or a copy of "
        "`AGENTS.md`), so the model reads the words twice and they count twice against its budget. "
        "Make one import the other (a `CLAUDE.md` of the one line `@AGENTS.md`)."),
    "amp-any-depth": Code(
        "Amp reads this glob below any folder.",
        "Amp puts `**/` in front of a glob with folders such as `src/*.ts`, which then reaches project "
        "files the same glob from the root would not. Anchor it with `./` or `../` from the file's "
        "own folder."),
    "amp-root-globs": Code(
        "The root's guidance file has `globs`, so Amp never loads it.",
        "Amp reads the root's `AGENTS.md` (or its fallback) only at the start of a thread, before any "
        "file is read: no file matches its `globs` then, so it is left out. Remove `globs`, or move the "
        "scoped part to a file this one @-mentions."),
    "amp-globs-dropped": Code(
        "A `globs` item that is not a string makes Amp skip the file.",
        "Amp's matcher fails on it, and Amp skips the file and the files it mentions. Write every item "
        "as a string."),
    "amp-mention-in-code": Code(
        "An @-mention written in code, which Amp does not load.",
        "Amp does not look for mentions in backticks or code blocks, so it does not load the file. "
        "Write the mention outside code."),
    "claude-agents-md-unseen": Code(
        "An `AGENTS.md` Claude Code never reads.",
        "Claude Code's `AGENTS.md` fallback is off for the whole project once its root has a "
        "`CLAUDE.md`, so an `AGENTS.md` in a folder without a `CLAUDE.md` is never read. Add a "
        "`CLAUDE.md` holding `@AGENTS.md` beside it."),
    "claude-dot-slash": Code(
        "A `paths` pattern starting with `./`, which Claude Code never matches.",
        "Claude Code matches patterns against paths that never start with `./`, so it never loads the "
        "rule through it. Drop the `./`."),
    "claude-empty-body": Code(
        "A rule file with nothing after its frontmatter.",
        "Claude Code drops the file. Write the rule below the frontmatter, or delete the file."),
    "claude-import-missing": Code(
        "An `@path` import Claude Code cannot load.",
        "Claude Code takes it for an import (after whitespace, outside code and HTML comments) but it "
        "names no file it loads: none there, a folder, a file outside the project, or an extension "
        "not in its text list. It skips it without a word. Name a file relative to the importing "
        "file, or write it in backticks."),
    "claude-loads-always": Code(
        "A `paths` that makes Claude Code load the rule for every file.",
        "An empty `paths`, `**`, or a value that is neither a string nor a list loads the rule for "
        "every file, at every session start. List the globs of the files the rule is about."),
    "claude-wrong-key": Code(
        "A `.claude/rules` file with another agent's globs key.",
        "Claude Code reads only `paths`; with `globs:` or `applyTo:` and no `paths:` it ignores the key "
        "and loads the rule for every file (a skill: only when the model picks it). Rename the key to "
        "`paths:`."),
    "cline-paths-empty": Code(
        "`paths: []`, so Cline never loads the rule.",
        "Cline loads a rule when one of its `paths` matches; an empty list matches nothing. List the "
        "globs, or remove the key to load the rule always."),
    "cline-paths-negation": Code(
        "A `paths` item starting with `!`, which Cline reads as \"not\".",
        "Cline loads a rule when any item matches, so `!src/generated/**` loads it for every file "
        "outside that folder. Name the folders the rule is for instead."),
    "cline-paths-not-list": Code(
        "`paths` is not a list of globs, so Cline loads the rule for every request.",
        "A bare string, or a list with an empty item, is ignored. Write `paths` as a YAML list of "
        "globs."),
    "codex-config-invalid": Code(
        "The project's `.codex/config.toml` cannot be read.",
        "It is not valid TOML, or `project_doc_fallback_filenames` or `project_doc_max_bytes` has the "
        "wrong type: Codex stops at start with `Error loading config.toml` in a trusted project. "
        "rulelens reads the default names and cap. Fix the file."),
    "codex-empty-shadows": Code(
        "An empty instructions file hides the `AGENTS.md` beside it from Codex.",
        "An empty or blank `AGENTS.override.md` (or `AGENTS.md` before a fallback name) is still the "
        "folder's file for Codex: it stops looking. Delete the empty file or move the instructions "
        "into it."),
    "codex-no-project-root": Code(
        "No `.git` in or above the project, so Codex has no project root.",
        "Codex then reads only the file of the folder it starts in, so a folder's `AGENTS.md` does not "
        "reach work started in its subfolders. Make the project a git repository, or set "
        "`project_root_markers` in the user's Codex config."),
    "codex-shadowed": Code(
        "An `AGENTS.md` Codex never reads, beside a file it prefers.",
        "Next to an `AGENTS.override.md` (or a fallback name next to either), Codex reads only the "
        "first of the folder's files. Merge the two, or remove the one it skips."),
    "continue-globs-comma": Code(
        "A `globs` string with commas, which Continue reads as one pattern.",
        "It is one minimatch pattern with literal commas and matches nothing. Write a YAML list, one "
        "glob per item."),
    "copilot-applyto-elsewhere": Code(
        "A relative `applyTo` that Copilot in VS Code also applies in other folders.",
        "Copilot in VS Code puts `**/` in front of a relative glob such as `src/*.py`, so the rule also "
        "attaches for files of the project's other folders. Anchor the glob, or name those folders."),
    "copilot-cli-any-depth": Code(
        "An `applyTo` pattern without a folder, which Copilot CLI matches in every folder.",
        "Copilot CLI matches a pattern such as `*.md` against the file name in every folder, so it "
        "reaches nested files; a leading `/` does not anchor it (it then matches nothing). Name the "
        "folder, such as `docs/*.md`."),
    "copilot-cli-import-missing": Code(
        "An `@path` import Copilot CLI cannot load.",
        "Copilot CLI takes it for an import but it names no file it reads: none there, a folder, an "
        "absolute or `~/` path, or one outside the repository. It skips it and leaves the text as "
        "written. Name a file that exists, or write it in backticks."),
    "copilot-empty-paths": Code(
        "A `.claude/rules` file with empty `paths`, which Copilot in VS Code never attaches.",
        "Copilot in VS Code reads `paths: []` as no pattern and only lists the file for the model, "
        "while Claude Code loads it for every file. List the globs the rule is for."),
    "copilot-no-applyto": Code(
        "An instruction file without `applyTo`.",
        "Copilot in VS Code lists it for the model; GitHub.com's coding agent and code review never use "
        "it, and the Copilot CLI pastes it into every prompt. Add `applyTo` with the files it is for."),
    "copilot-not-instructions": Code(
        "A Markdown file in `.github/instructions` that Copilot in VS Code never reads.",
        "Copilot in VS Code reads only files named `*.instructions.md` there. Rename the file."),
    "copilot-too-deep": Code(
        "An instruction file too deep for Copilot in VS Code.",
        "Copilot in VS Code never reads a file more than five folders below `.github/instructions` or "
        "`.claude/rules`. Move it up."),
    "cursor-alwaysapply-string": Code(
        "`alwaysApply` is a string, not a boolean.",
        "Write `alwaysApply: true` or `alwaysApply: false` without quotes."),
    "gemini-cli-import-failed": Code(
        "An `@` that Gemini CLI takes for an import that fails.",
        "At the start of a line or after a space, outside backticks, `@` followed by a name that is no "
        "readable file inside the project becomes an `Import failed` comment in its place, so the model "
        "never sees the text. Write it in backticks, or name a real file."),
    "gemini-settings-invalid": Code(
        "The project's `.gemini/settings.json` cannot be read as Gemini CLI's settings.",
        "It is not valid JSON (comments allowed), or `context.fileName` is neither a string nor a list "
        "of strings: rulelens reads the default `GEMINI.md` chain, and the message says whether Gemini "
        "CLI starts at all. Fix the file."),
    "kiro-pattern-comma": Code(
        "A `fileMatchPattern` string with commas, which Kiro reads as one pattern.",
        "It is one pattern with literal commas: it matches nothing and the file never loads. Write a "
        "list of patterns."),
    "qwen-import-missing": Code(
        "An `@path` import Qwen Code cannot load.",
        "In a `QWEN.md` or `AGENTS.md`, an import that names no file stays as written; a folder or a "
        "path outside the project becomes an `Import failed` comment in its place. Name a file that "
        "exists, or write it in backticks."),
    "windsurf-globs-string": Code(
        "`globs` is one string, not a list.",
        "Devin Desktop accepts it; the Devin CLI's rule format is not documented, and if it needs a "
        "list, as a third party reports, it does not load the rule. A YAML list works in both."),
}


def code_words(code: str) -> Code:
    """A code's summary and help, Boost's format's or an agent's (every code in `known_codes`)."""
    return CODES[code] if code in CODES else WORDS[code]
