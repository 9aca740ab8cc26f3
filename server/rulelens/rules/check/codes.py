"""Every `check` code with a one-line summary and its help text (for SARIF rules and docs)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    """One check code's one-line summary and its help text."""

    summary: str
    help: str


CODES: dict[str, Code] = {
    "frontmatter-invalid": Code(
        "The frontmatter is not valid strict YAML.",
        "Boost reads the frontmatter with a strict YAML parser; when it fails, the file has no paths "
        "and drops out of the index. Quote globs that start with `*` (`- '**/*.php'`)."),
    "frontmatter-bom": Code(
        "A byte order mark hides the frontmatter.",
        "Boost does not see frontmatter after a UTF-8 byte order mark. Save the file without a BOM."),
    "paths-invalid": Code(
        "A `paths` item cannot be used as a glob.",
        "`paths` is a list of glob strings. Empty items, `..` segments and items that are not strings "
        "match nothing."),
    "paths-key-other": Code(
        "A globs key other than `paths`.",
        "Boost reads only `paths`; `globs`, `applyTo` or `scope` reach no agent through the index. "
        "Rename the key to `paths`."),
    "glob-invalid": Code(
        "A malformed glob.",
        "An unclosed `[` or `{`, or an empty brace alternative, matches nothing as its author meant."),
    "glob-matches-nothing": Code(
        "A glob matches no file in the project.",
        "The folder was renamed or removed, or the glob is misspelt. Point it at the files the rule "
        "is about, or remove it."),
    "glob-excludes-nothing": Code(
        "A `!` glob excludes nothing.",
        "The exclusion drops no file that the file's other globs match, so it has no effect."),
    "glob-duplicate": Code(
        "A glob is listed twice.",
        "Remove the repeated glob; it adds nothing and changes what no agent loads (an `info`)."),
    "glob-dialect": Code(
        "Agents read this glob differently.",
        "A glob without a slash (`*.php`) is matched at any depth by some agents and only at the root "
        "by others; the finding names which, worked out from each agent's own matcher (the "
        "project's agents, else all). Write `**/*.php` or `/*.php` to say which."),
    "no-paths": Code(
        "A rule file without `paths`.",
        "It is not in the index; agents find it only by searching the rules folder."),
    "entry-empty": Code(
        "An entry without a note or a title.",
        "Every `## Title` needs a note below it that says what to do."),
    "index-missing": Code(
        "There is no index.",
        "Agents find rules by path through `.ai/rules/index.md`. Run `rulelens index`."),
    "index-stale": Code(
        "The index differs from the rule files.",
        "Run `rulelens index` to regenerate `.ai/rules/index.md` and commit it."),
    "index-conflict": Code(
        "The index has merge conflict markers.",
        "Run `rulelens index`: it regenerates the index from the rule files, markers and all."),
    "rule-conflict": Code(
        "A rule file has merge conflict markers.",
        "Resolve the conflict in the rule file (agents would read both sides as rules), then run "
        "`rulelens index`."),
    "stale-path": Code(
        "The rule names a path that is not in the project.",
        "The file or folder was moved or deleted: in git, a commit the message names deleted it "
        "(a path never committed is not reported). Where a file of the same name exists "
        "elsewhere, the message suggests it; update the rule or remove the mention."),
    "stale-name": Code(
        "The rule names code that the project deleted.",
        "A backticked identifier (a class, function, `Class::method` or namespace) appears in no "
        "file outside the rules folder, and the history shows a commit (named in the message) "
        "deleted its declaration or a file named after it. Update the rule."),
    "rule-drift": Code(
        "The rule's files changed in many commits since the rule did.",
        "The code a rule file covers has moved on while the rule stayed the same. Read the rule "
        "against the code and update or confirm it (any edit resets the count). Not reported for a rule "
        "younger than 14 days, or one whose globs select half the project's files or more."),
    "claude-plugin-extensions": Code(
        "The Claude Code plugin maps fewer file extensions than the rules reach.",
        "`rulelens init --claude` maps the extensions the rules reach when it runs; a later rule that "
        "reaches another kind of file gets no language server in Claude Code. Run `rulelens init "
        "--claude` again."),
    "file-too-large": Code(
        "A rule file too large to read.",
        "rulelens reads at most 2 MiB of a rule file. Split it."),
    "encoding-invalid": Code(
        "A rule file that is not UTF-8.",
        "Save the file as UTF-8; rulelens never rewrites it until then."),
    "file-binary": Code(
        "A binary file named *.md.",
        "Rule files are Markdown text. Remove or rename the file."),
    "file-unreadable": Code(
        "A rule file that cannot be read.",
        "Check its permissions."),
    "rule-symlink": Code(
        "A rule file that links outside the project.",
        "rulelens does not read or write files outside the project. Replace the link with the file."),
    "rules-folder-invalid": Code(
        "`.ai/rules` is a file (another tool's, often), not Boost's rules folder: no Boost rules are read.",
        "If the project keeps Boost's rules, move the file away and create the folder."),
}
