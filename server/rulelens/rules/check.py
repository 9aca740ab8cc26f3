"""Lint rule files against the project's file list (SPEC §6 `check`)."""

from __future__ import annotations

from collections.abc import Sequence

from rulelens.rules.filelist import FileList
from rulelens.rules.globs import dialect_hints, expand, expansion_error, patterns_of
from rulelens.rules.model import Problem, RuleFile


def check_file(rule: RuleFile, files: FileList | None) -> list[Problem]:
    """Reading problems plus per-glob findings for one file."""
    problems = list(rule.problems)
    explained = {"frontmatter-invalid", "paths-invalid", "file-binary", "rule-symlink"}
    if not rule.lenient_paths and not any(p.code in explained for p in problems):
        problems.append(Problem(
            rule.rel, 0, "info", "no-paths",
            "No `paths`: this file is not in the index, so agents find it only by searching.",
        ))
    seen: set[str] = set()
    for item in rule.glob_items or []:
        line, col, end = item.line, item.start_col, item.end_col
        text = item.text.strip()
        if not text:
            problems.append(Problem(rule.rel, line, "error", "paths-invalid",
                                    "An empty glob matches nothing.", col, end))
            continue
        if text in seen:
            problems.append(Problem(rule.rel, line, "warning", "glob-duplicate",
                                    f"`{text}` is listed twice in this file.", col, end))
        seen.add(text)
        if any(".." in g.split("/") for g, _ in expand(text)):
            problems.append(Problem(rule.rel, line, "error", "paths-invalid",
                                    f"`{text}` has a `..` segment and can never match a project "
                                    "file.", col, end))
            continue
        too_many = expansion_error(text)
        if too_many:
            problems.append(Problem(rule.rel, line, "error", "paths-invalid", too_many, col, end))
            continue
        for hint in dialect_hints(text):
            problems.append(Problem(rule.rel, line, "info", "glob-dialect", hint, col, end))
        if files is not None and not _matches_something(text, files):
            problems.append(Problem(rule.rel, line, "warning", "glob-matches-nothing",
                                    f"`{text}` matches no file in the project.", col, end))
    for entry in rule.entries:
        if not entry.note.strip():
            problems.append(Problem(rule.rel, entry.line, "warning", "entry-empty",
                                    f"The entry `{entry.title}` has no note.", 0, None))
        if not entry.title:
            problems.append(Problem(rule.rel, entry.line, "warning", "entry-empty",
                                    "An entry heading without a title.", 0, None))
    return problems


def _matches_something(item: str, files: FileList) -> bool:
    return any(files.pattern_matches_any(p) for p in patterns_of(item))


def check_index(index_rel: str, current: str | None, expected: str) -> list[Problem]:
    if current is None:
        return [Problem(index_rel, 0, "warning", "index-missing",
                        "There is no index; agents cannot find rules by path. Run `rulelens index`.")]
    if current != expected:
        return [Problem(index_rel, 0, "warning", "index-stale",
                        "The index differs from the rule files. Run `rulelens index` to "
                        "regenerate it.")]
    return []


def check_all(rules: Sequence[RuleFile], files: FileList | None) -> list[Problem]:
    out: list[Problem] = []
    for rule in rules:
        out.extend(check_file(rule, files))
    return out
