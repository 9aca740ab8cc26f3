"""Files in `.github/instructions` meant for a Copilot setting, not for chat.

Copilot in VS Code reads only `*.instructions.md` there as chat rules, but a team may keep beside
them the text a Copilot setting points at: `github.copilot.chat.commitMessageGeneration.instructions`
(and the pull request, review, code and test generation ones) take `{"file": "…"}` items, as VS
Code's documentation says (the Copilot Chat extension that reads them is not among the released
code run here). Renaming such a file `*.instructions.md` would make it a chat rule for every
request, which is wrong advice. What decides that a file is meant for a setting: a `.vscode/*.json`
names it, or its name says the purpose (commit message, pull request, review) of a setting.

VS Code reads a folder's settings from `.vscode/settings.json` only (`FOLDER_SETTINGS_PATH` in
VS Code 1.117.0's code), so a setting in another file there is never read.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rulelens.rules.model import Severity

SETTINGS = ".vscode/settings.json"
PREFIX = "github.copilot.chat."
# Each setting's purpose, and the words a file's name says it with.
PURPOSES = {
    "commitMessageGeneration": ("commit messages", ("commit",)),
    "pullRequestDescriptionGeneration": ("pull request descriptions", ("pull-request", "pull_request",
                                                                       "pullrequest", "pr-description")),
    "reviewSelection": ("code review", ("review",)),
    "codeGeneration": ("code generation", ()),
    "testGeneration": ("test generation", ()),
}
SETTING = re.compile(r'"github\.copilot\.chat\.(?P<purpose>\w+)\.instructions"\s*:\s*(?P<value>\[[^\]]*\])',
                     re.DOTALL)
FILE_ITEM = re.compile(r'"file"\s*:\s*"(?P<file>[^"]*)"')


@dataclass(frozen=True)
class Setting:
    """One Copilot instruction setting as a `.vscode/*.json` file writes it."""

    where: str  # the JSON file
    purpose: str  # `commitMessageGeneration`
    files: tuple[str, ...]  # the `file` items, as written

    @property
    def key(self) -> str:
        return setting_key(self.purpose)


def setting_key(purpose: str) -> str:
    """The setting's name for a purpose (`github.copilot.chat.commitMessageGeneration.instructions`)."""
    return f"{PREFIX}{purpose}.instructions"


def settings_in(paths: Sequence[str], text_of: Callable[[str], str | None]) -> list[Setting]:
    """The Copilot instruction settings the project's `.vscode/*.json` files write (read as text:
    settings files hold comments and trailing commas JSON refuses)."""
    found: list[Setting] = []
    for rel in paths:
        if not (rel.startswith(".vscode/") and rel.count("/") == 1 and rel.endswith((".json", ".jsonc"))):
            continue
        for m in SETTING.finditer(text_of(rel) or ""):
            if m["purpose"] in PURPOSES:
                found.append(Setting(rel, m["purpose"], tuple(FILE_ITEM.findall(m["value"]))))
    return found


def _names(item: str, rel: str) -> bool:
    """Whether a setting's `file` item names `rel` (relative to the root, `./` or not)."""
    return posixpath.normpath(item.removeprefix("${workspaceFolder}/")) == rel


def purpose_by_name(rel: str) -> str | None:
    """The setting a file's name says it is for (`copilot-commit-message-instructions.md`)."""
    name = posixpath.basename(rel).lower()
    return next((p for p, (_, words) in PURPOSES.items() if any(w in name for w in words)), None)


def for_setting(rel: str, settings: Sequence[Setting],
                exists: Callable[[str], bool]) -> tuple[Severity | None, str] | None:
    """(severity, message) for a file in `.github/instructions` meant for a Copilot setting, or
    None where it is not; severity None where nothing is wrong (a `.vscode/settings.json` setting
    names it)."""
    naming = [s for s in settings if any(_names(i, rel) for i in s.files)]
    if naming:
        s = naming[0]
        if s.where == SETTINGS:
            return None, ""
        return ("warning", f"This file is for Copilot's `{s.key}` setting, which `{s.where}` names, not a "
                f"chat rule, so it needs no `.instructions.md` name. But VS Code reads a folder's settings "
                f"from `{SETTINGS}` only (VS Code 1.117.0's code), so it never reads `{s.where}`: rename "
                f"it `{SETTINGS}` (or move the setting there).")
    purpose = purpose_by_name(rel)
    if purpose is None:
        return None
    what = PURPOSES[purpose][0]
    same = [s for s in settings if s.purpose == purpose]
    key = setting_key(purpose)
    if not same:
        return ("info", f"This file's name says it is for {what}, not a chat rule. If it is for Copilot's "
                f"`{key}` setting, name it there (`{{\"file\": \"{rel}\"}}` in `{SETTINGS}`, as VS Code's "
                "documentation says; not confirmed in code here); renaming it `.instructions.md` would make "
                "it a chat rule instead.")
    s = same[0]
    fixes: list[str] = []
    missing = [i for i in s.files if not exists(posixpath.normpath(i))]
    if missing:
        fixes.append(f"it names `{missing[0]}`, which the project does not have, not this file: point it "
                     f"at `{rel}`")
    elif s.where == SETTINGS:
        return ("info", f"This file's name says it is for {what}, not a chat rule, so it needs no "
                f"`.instructions.md` name; `{SETTINGS}` sets Copilot's `{s.key}` to other files. Add "
                f"`{{\"file\": \"{rel}\"}}` there if it is for that setting too.")
    if s.where != SETTINGS:
        fixes.append(f"and VS Code reads a folder's settings from `{SETTINGS}` only (VS Code 1.117.0's "
                     f"code), so it never reads `{s.where}`: rename it `{SETTINGS}`")
    return ("warning", f"This file's name says it is for {what}, not a chat rule, so it needs no "
            f"`.instructions.md` name; `{s.where}` sets Copilot's `{s.key}`, but {'; '.join(fixes)}.")
